"""The compiler's front end: a project's spec files -> spec models -> checks -> the IR.

:func:`compile_specs` is the front end over a project's files, what every command that
reads specs calls (``toolc build`` through :mod:`toolc.pipeline`, ``validate``, ``diff``,
``serve``, ``import``): the load stage (``toolc.specs``), then the analyse stage
(:func:`analyse_loaded`: :func:`analyse` over the files loaded, and the token budget).
:func:`analyse` reports every problem of every file into the bag, and never raises for
any input: a file that is a list, a number, empty, or nonsense anywhere gets located
diagnostics, not a traceback.

Handed a :class:`Replay` (the analysis of specs that nothing changed, which
``toolc.reuse`` takes over from the last clean build), the front end analyses the other
specs only; where that could say anything else than a full analysis (the rest looked
up a module name none of its specs declares, a module name meets a replayed one), the
full analysis runs instead. Light to
import (the spec models, the checks and pydantic come when specs are analysed): a build
that the no-op cache answers makes a :class:`Compiled` and loads nothing else.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .budget import ExportBudget, measure
from .config import Config
from .diagnostics import (
    BUDGET_CODES,
    LATE_CODES,
    TEXT_CODES,
    Diagnostic,
    DiagnosticBag,
    Span,
    Suppression,
)
from .ir import ProjectIR, SpecInputs
from .loader import LoadedFile
from .specs import KeptSpec, Loaded, Progress, load_specs

if TYPE_CHECKING:
    from .checks import ClientView, ProjectFacts, UnreadSpecs
    from .model.parse import ParsedModule

Mark = tuple[Span, tuple[str, ...], tuple[str, ...]]  # a suppression: comment, written, used
# What one analysis said: its specs' inline suppressions (spec -> marks), what it reported.
Said = tuple[dict[str, list[Mark]], list[Diagnostic]]


@dataclass(slots=True)
class Replay:
    """What the analysis of some specs said, handed to the front end in place of running
    it again: their modules and texts, what it reported (warnings and infos) and which
    inline suppressions that used, in the order it was said (``said``: one entry per
    analysis of a group of specs), and the budget figures of their exports."""

    modules: dict[str, str] = field(default_factory=dict)     # module -> its spec, as shown
    sources: dict[str, str] = field(default_factory=dict)     # spec as shown -> its text
    said: list[Said] = field(default_factory=list)
    budgets: list[ExportBudget] = field(default_factory=list)

    @property
    def specs(self) -> frozenset[str]:
        return frozenset(self.modules.values())

    def replay(self, bag: DiagnosticBag) -> None:
        """Into ``bag``: the specs' suppressions (so that the judges of every stage say
        again what they said of them) and what their analysis reported."""
        for suppressions, diagnostics in self.said:
            for spec, marks in suppressions.items():
                bag.add_suppressions(spec, [Suppression(span, written)
                                            for span, written, _ in marks])
                for span, _, used in marks:
                    bag.suppressions[spec][span.line].used.update(used)
            bag.items.extend(diagnostics)

    def collides(self, names: Iterable[str]) -> bool:
        """Whether a module name of the analysed specs meets a replayed one, even in case
        only (TC308, TC313: a full analysis reports them, and decides which is first)."""
        folded = {name.casefold() for name in self.modules}
        return any(name.casefold() in folded for name in names)


@dataclass(slots=True)
class Compiled:
    """What the front end made of the specs: diagnostics, sources and (if clean) the IR."""

    bag: DiagnosticBag
    sources: dict[str, str] = field(default_factory=dict)
    project: ProjectIR | None = None
    budgets: list[ExportBudget] | None = None   # per export, when the IR was made
    modules: dict[str, str] = field(default_factory=dict)  # spec as shown -> its module
    # The analysis replayed: ``project`` holds the other modules only (a whole project
    # is compiled again where one is needed: ``toolc build --live``).
    taken: Replay | None = None


def compile_specs(config: Config, paths: Sequence[Path] = (),
                  progress: Progress | None = None, *, replay: Replay | None = None,
                  known: dict[Path, KeptSpec] | None = None,
                  overlay: Mapping[Path, bytes] | None = None) -> Compiled:
    """Load and analyse the specs; every problem goes into the returned bag. ``replay``:
    the analysis of specs handed in place of analysing them again (where it cannot be
    taken, the full analysis runs, and ``Compiled.taken`` is None); ``known``: the
    loaded specs a warm process keeps; ``overlay``: the specs an editor holds unsaved,
    by path, read from their bytes (``toolc.specs.load_specs``)."""
    skip = replay.specs if replay is not None else ()
    loaded = load_specs(config, paths, progress, skip=skip, known=known, overlay=overlay)
    compiled = analyse_loaded(config, loaded, progress, replay)
    if compiled is None:
        return compile_specs(config, paths, progress, known=known, overlay=overlay)
    return compiled


def analyse_loaded(config: Config, loaded: Loaded, progress: Progress | None = None,
                   replay: Replay | None = None) -> Compiled | None:
    """The analyse stage: what :func:`load_specs` loaded (with ``replay``: the specs it
    skipped) analysed, the exports' budgets measured. None when the replay could make it
    say anything else than a full analysis: the caller loads and analyses everything.
    That is when the analysis of the rest looked up a module name none of its specs
    declares (a replayed module's, or a near miss of one its "did you mean" would not
    see), or one of its module names meets a replayed one; errors in the rest alone are
    not (an editor's keystroke that makes one is analysed as fast as any), but then the
    replayed findings on resolved tools (budget, texts, targets) are not said: a full
    analysis with errors resolves nothing."""
    if replay is not None and loaded.skipped != replay.specs:
        return None  # a replayed spec was not found among the specs
    bag = config.bag()
    compiled = Compiled(bag, taken=replay)
    if replay is not None:
        compiled.sources.update(replay.sources)
        compiled.modules.update({spec: name for name, spec in replay.modules.items()})
        replay.replay(bag)
    bag.extend(loaded.failed)
    compiled.sources.update(loaded.sources)
    compiled.modules.update(loaded.modules)
    if replay is not None and replay.collides(
            loaded.modules[item.path] for item in loaded.files if item.path in loaded.modules):
        return None
    if progress:
        progress(f"checking {len(loaded.files)} spec(s)")
    # lazy: the client profiles (pydantic), only when specs are analysed
    from .checks.parsed import ClientView

    view = ClientView(config.clients, config.server_name, config.server_names)
    missed: set[str] = set()
    project = analyse(loaded.files, bag, config.root, formats=config.format,
                      python_path=config.python_path, clients=view, unread=loaded.unread,
                      targets=config.targets, refs=config.refs, missed=missed)
    if replay is not None and missed:
        return None
    if replay is not None and bag.has_errors:  # nothing resolved: none of what needs it said
        # lazy: the targets' codes sit with their check (the checks load pydantic)
        from .checks.targets import TARGET_CODES

        unsaid = BUDGET_CODES | TEXT_CODES | TARGET_CODES
        bag.items = [d for d in bag.items if d.code not in unsaid]
    compiled.project = None if bag.has_errors else project
    if compiled.project is not None:
        budgets = measure(compiled.project, config, bag)
        if replay is not None:
            budgets = sorted([*budgets, *replay.budgets], key=lambda b: b.module)
        compiled.budgets = budgets
        bag.judge_suppressions(BUDGET_CODES.__contains__)
    return compiled


def parse_files(files: Sequence[LoadedFile], bag: DiagnosticBag) -> list[ParsedModule]:
    """Model-parse every file; the loader's diagnostics and the model's go into ``bag``."""
    # lazy: the spec models (pydantic), only when specs are analysed
    from .model.parse import parse_module

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
            targets: tuple[str, ...] = (),
            refs: Mapping[str, str] | None = None,
            missed: set[str] | None = None) -> ProjectIR | None:
    """Check every file and resolve the project; ``None`` when any error was reported.

    ``root`` is the project: schema files a ``$ref`` names are read only inside it (without
    one, only inside the folder of the spec that names them). ``formats`` is the
    project's default `format` mode; ``python_path`` where its handlers are looked for
    (statically: nothing is imported); ``clients`` the client profiles names are checked
    for (default: claude and openai, servers named after modules). ``unread``: the specs
    that could not be loaded (as shown -> what of their text was read), whose errors are
    in ``bag`` already: what follows from them elsewhere is held back, and said there.
    ``targets``: the provider dialects every export is checked for (a module's own
    ``targets:`` replaces them); ``refs`` the `$ref` shape of each target's views. The
    texts the model reads and the targets are checked on the resolved tools, once the
    checks found no error. ``missed``: filled with the module names looked up that no
    spec given declares."""
    # (The collector is paused by the command that runs this: toolc.collector.collector_paused.)
    # lazy: the checks, the spec models and resolve (pydantic), only when specs are analysed
    from .checks import UnreadSpecs, run_checks
    from .checks.targets import TARGET_CODES, check_targets, module_targets
    from .checks.texts import check_texts
    from .model.errors import reset_suggestions
    from .resolve import resolve

    reset_suggestions()  # near misses are suggested within a budget per analysis
    waiting = UnreadSpecs.of(unread) if unread else None
    facts = run_checks(parse_files(files, bag), bag, root, python_path, clients, waiting)
    if missed is not None:
        missed.update(facts.by_name.missed)
    if waiting is not None:
        say_held_back(bag, waiting, facts.held)
    ir = None
    if not bag.has_errors:
        ir = dataclasses.replace(resolve(facts, formats=formats), inputs=spec_inputs(facts))
        ir = module_targets(ir, facts.modules, targets, refs)
        check_texts(ir, facts.modules, bag)
        check_targets(ir, facts.modules, bag)
    # Every rule of the front end has spoken: a suppression of one that suppressed
    # nothing is reported (those of later stages, when they have run; those of the
    # checks on the resolved tools only when they ran).
    bag.judge_suppressions(lambda code: code not in LATE_CODES and (
        ir is not None or code not in TARGET_CODES | TEXT_CODES))
    return None if bag.has_errors else ir


def say_held_back(bag: DiagnosticBag, unread: UnreadSpecs,
                  held: Mapping[str, tuple[str, ...]]) -> None:
    """One note at each unread spec's own error: the references to the modules it may
    declare that were not reported (they name a module only because it did not load),
    and the specs they are in."""
    # lazy: the checks' words (pydantic), only when specs are analysed
    from .checks.parsed import HELD_BACK

    per_spec: dict[str, list[str]] = {}
    for module in sorted(held):
        per_spec.setdefault(unread.spec_of(module), []).append(module)
    for spec, modules in per_spec.items():
        places = sorted({path for m in modules for path in held[m]})
        count = sum(len(held[m]) for m in modules)
        named = ", ".join(f"'{m}'" for m in modules)
        note = (f"{count} reference(s) to module {named} in {', '.join(places)} {HELD_BACK}")
        at = next((i for i, d in enumerate(bag.items) if d.span and d.span.path == spec), None)
        if at is not None:
            first = bag.items[at]
            bag.items[at] = dataclasses.replace(first, notes=(*first.notes, note))


def spec_inputs(facts: ProjectFacts) -> dict[str, SpecInputs]:
    """Per spec, the schema files it inlines and the handler modules it looked up."""
    index = facts.code_index
    found = {}
    for parsed in facts.modules:
        origin = parsed.file.origin
        schema_files = facts.files.used.get(origin, set()) if origin is not None else set()
        asked = index.asked.get(parsed.path, set()) if index is not None else set()
        code = tuple((name, tuple(index.outcomes[name])) for name in sorted(asked)
                     if index is not None and name in index.outcomes)
        found[parsed.path] = SpecInputs(tuple(sorted(schema_files)), code)
    return found
