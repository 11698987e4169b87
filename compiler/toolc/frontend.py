"""The compiler's front end: loaded YAML -> spec models -> checks -> the resolved IR.

:func:`analyse` is what the build pipeline and the CLI call. It reports every problem of
every file into the bag, and never raises for any input: a file that is a list, a number,
empty, or nonsense anywhere gets located diagnostics, not a traceback.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from pathlib import Path

from .checks import ClientView, Project, UnreadSpecs, run_checks
from .checks.project import HELD_BACK
from .checks.targets import TARGET_CODES, check_targets
from .checks.texts import check_texts
from .diagnostics import LATE_CODES, TEXT_CODES, DiagnosticBag
from .ir import ProjectIR, SpecInputs
from .loader import LoadedFile
from .model.errors import reset_suggestions
from .model.parse import ParsedModule, parse_module
from .resolve import resolve


def parse_files(files: Sequence[LoadedFile], bag: DiagnosticBag) -> list[ParsedModule]:
    """Model-parse every file; the loader's diagnostics and the model's go into ``bag``."""
    parsed: list[ParsedModule] = []
    for file in files:
        bag.add_suppressions(file.path, file.suppressions)
        bag.extend(file.diagnostics)
        module, diagnostics = parse_module(file)
        bag.extend(diagnostics)
        parsed.append(module)
    return parsed


def analyse(files: Sequence[LoadedFile], bag: DiagnosticBag, root: Path | None = None, *,
            formats: str = "annotate", python_path: tuple[Path, ...] = (),
            clients: ClientView | None = None,
            unread: Mapping[str, str] | None = None,
            targets: tuple[str, ...] = ()) -> ProjectIR | None:
    """Check every file and resolve the project; ``None`` when any error was reported.

    ``root`` is the project: schema files a ``$ref`` names are read only inside it (without
    one, only inside the folder of the spec that names them). ``formats`` is the
    project's default `format` mode; ``python_path`` where its handlers are looked for
    (statically: nothing is imported); ``clients`` the client profiles names are checked
    for (default: claude and openai, servers named after modules). ``unread``: the specs
    that could not be loaded (as shown -> what of their text was read), whose errors are
    in ``bag`` already: what follows from them elsewhere is held back, and said there.
    ``targets``: the provider dialects every export is checked for (a module's own
    ``targets:`` replaces them). The texts the model reads and the targets are checked
    on the resolved tools, once the checks found no error."""
    # (The collector is paused by the command that runs this: toolc.collector.collector_paused.)
    reset_suggestions()  # near misses are suggested within a budget per analysis
    waiting = UnreadSpecs.of(unread) if unread else None
    project = run_checks(parse_files(files, bag), bag, root, python_path, clients, waiting)
    if waiting is not None:
        say_held_back(bag, waiting)
    ir = None
    if not bag.has_errors:
        ir = dataclasses.replace(resolve(project, formats=formats), inputs=spec_inputs(project))
        check_texts(ir, project.modules, bag)
        check_targets(ir, project.modules, targets, bag)
    # Every rule of the front end has spoken: a suppression of one that suppressed
    # nothing is reported (those of later stages, when they have run; those of the
    # checks on the resolved tools only when they ran).
    bag.judge_suppressions(lambda code: code not in LATE_CODES and (
        ir is not None or code not in TARGET_CODES | TEXT_CODES))
    return None if bag.has_errors else ir


def say_held_back(bag: DiagnosticBag, unread: UnreadSpecs) -> None:
    """One note at each unread spec's own error: the references to the modules it may
    declare that were not reported (they name a module only because it did not load),
    and the specs they are in."""
    per_spec: dict[str, list[str]] = {}
    for module in sorted(unread.held):
        per_spec.setdefault(unread.spec_of(module), []).append(module)
    for spec, modules in per_spec.items():
        places = sorted({path for m in modules for path in unread.held[m]})
        count = sum(len(unread.held[m]) for m in modules)
        named = ", ".join(f"'{m}'" for m in modules)
        note = (f"{count} reference(s) to module {named} in {', '.join(places)} {HELD_BACK}")
        at = next((i for i, d in enumerate(bag.items) if d.span and d.span.path == spec), None)
        if at is not None:
            first = bag.items[at]
            bag.items[at] = dataclasses.replace(first, notes=(*first.notes, note))


def spec_inputs(project: Project) -> dict[str, SpecInputs]:
    """Per spec, the schema files it inlines and the handler modules it looked up."""
    index = project.code_index
    found = {}
    for parsed in project.modules:
        origin = parsed.file.origin
        schema_files = project.files.used.get(origin, set()) if origin is not None else set()
        asked = index.asked.get(parsed.path, set()) if index is not None else set()
        code = tuple((name, tuple(index.outcomes[name])) for name in sorted(asked)
                     if index is not None and name in index.outcomes)
        found[parsed.path] = SpecInputs(tuple(sorted(schema_files)), code)
    return found
