"""The build pipeline: the ordered stages from spec files to a written ``generated/``.

    discover -> load -> analyse (model, checks, resolve) -> publish + generate
             -> diff against the golden files -> certify -> write (or check)

Each stage is a plain function; :func:`build` runs them in order and stops at the
first stage that reported errors, so a broken spec never reaches the output folder.
The CLI only parses options and prints a :class:`BuildResult`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .budget import ExportBudget, from_record, measure
from .collector import collector_for_user_code
from .config import Config
from .diagnostics import BUDGET_CODES, CERTIFY_CODES, DiagnosticBag, Span, SpecError
from .ir import ProjectIR
from .loader import LoadedFile, load_file
from .output import incremental
from .output.cache import (
    cache_record,
    cached_plan,
    forget_build,
    input_key,
    remember_build,
    remembered,
    replayed,
)
from .output.confine import OutputError
from .output.incremental import MEMORY
from .output.journal import JOURNAL
from .output.lock import build_lock
from .output.plan import Plan, plan
from .output.staging import StagedTree
from .publish import SCHEMAS_DIR, publish_project

if TYPE_CHECKING:
    from .certify.process import Certifier
    from .diff import ToolSet
    from .diff.result import SchemaDiff
    from .generate import ModuleSink
    from .output.incremental import Reuse

SPEC_SUFFIX = ".toolc.yaml"
Progress = Callable[[str], None]


@dataclass(slots=True)
class Compiled:
    """What the front end made of the specs: diagnostics, sources and (if clean) the IR."""

    bag: DiagnosticBag
    sources: dict[str, str] = field(default_factory=dict)
    project: ProjectIR | None = None
    budgets: list[ExportBudget] | None = None   # per export, when the IR was made
    modules: dict[str, str] = field(default_factory=dict)  # spec as shown -> its module


@dataclass(slots=True)
class BuildResult:
    compiled: Compiled
    files: dict[str, str] = field(default_factory=dict)   # output path -> text
    plan: Plan | None = None
    diff: SchemaDiff | None = None                        # against the golden files on disk
    wrote: bool = False
    checked: bool = False
    up_to_date: bool = False   # answered by the cache: nothing changed since the last build

    @property
    def ok(self) -> bool:
        return not self.compiled.bag.has_errors


def discover(config: Config, paths: Sequence[Path] = ()) -> list[Path]:
    """Every ``*.toolc.yaml`` under the given paths (default: the configured ones), sorted."""
    found: set[Path] = set()
    for root in paths or config.specs:
        if root.is_file():
            found.add(root)
        elif root.is_dir():
            # Not only regular files: a FIFO or a link named like a spec is reported by
            # the loader (TC010), not passed over in silence.
            found.update(p for p in root.rglob(f"*{SPEC_SUFFIX}") if not p.is_dir())
    return sorted(found)


def shown_path(config: Config, path: Path) -> str:
    """How diagnostics name a spec: by its own name, even when it is a symbolic link
    (``config.relative`` would name the file the link points to)."""
    folder = config.relative(path.parent)
    return path.name if folder == "." else f"{folder}/{path.name}"


def compile_specs(config: Config, paths: Sequence[Path] = (),
                  progress: Progress | None = None) -> Compiled:
    """Load and analyse the specs; every problem goes into the returned bag."""
    # lazy: loads pydantic
    from .checks.project import ClientView
    from .frontend import analyse

    bag = config.bag()
    compiled = Compiled(bag)
    loaded: list[LoadedFile] = []
    files = discover(config, paths)
    for i, path in enumerate(files, 1):
        shown = shown_path(config, path)
        if progress:
            # lazy: 2 more toolc modules, only with progress shown (a file name may hold ESC)
            from .report.diagnostic_formats import escape_controls

            progress(f"loading {i}/{len(files)} {escape_controls(shown)}")
        try:
            item = load_file(str(path), shown, str(config.root), parse=MEMORY.parser(path))
        except SpecError as exc:
            bag.extend(exc.diagnostics)
            if not any(d.code == "TC010" for d in exc.diagnostics):  # never read those
                compiled.sources[shown] = _text_for_display(path)
            continue
        compiled.sources[shown] = item.text
        declared = item.data.get("module") if isinstance(item.data, dict) else None
        if isinstance(declared, str):
            compiled.modules[shown] = declared
        loaded.append(item)
    if progress:
        progress(f"checking {len(loaded)} spec(s)")
    view = ClientView(config.clients, config.server_name, config.server_names)
    project = analyse(loaded, bag, config.root, formats=config.format,
                      python_path=config.python_path, clients=view)
    compiled.project = None if bag.has_errors else project
    if compiled.project is not None:
        compiled.budgets = measure(compiled.project, config, bag)
        bag.judge_suppressions(BUDGET_CODES.__contains__)
    return compiled


def _sources_of(config: Config, bag: DiagnosticBag) -> dict[str, str]:
    """The spec texts replayed diagnostics quote (only files inside the project)."""
    sources: dict[str, str] = {}
    root = config.root.resolve()
    for d in bag:
        if d.span is None or d.span.path in sources:
            continue
        path = (config.root / d.span.path).resolve()
        if path.is_relative_to(root) and path.is_file():
            sources[d.span.path] = _text_for_display(path)
    return sources


def _text_for_display(path: Path) -> str:
    try:
        return path.read_bytes()[:1_000_000].decode("utf-8", "replace")
    except OSError:
        return ""


def render_outputs(project: ProjectIR, staged: StagedTree | None = None,
                   sink: ModuleSink | None = None, reuse: Reuse | None = None) -> dict[str, str]:
    """Every file the build owns in the output folder: modules and golden schemas.

    ``sink`` is handed each generated code file as soon as it is made (the certifying
    process serves one module while the next is generated). ``staged``: the files are
    staged for writing as they are made, each batch by another process while this one
    goes on (the golden files first: they are many). ``reuse``: the code of the modules
    it names is taken as it is (``toolc.output.incremental``), not generated again.
    """
    # lazy: 10 more toolc module(s), only when this runs
    from .generate import generate_project
    from .output.incremental import generate_reusing, publish_reusing

    golden = publish_project(project) if reuse is None else publish_reusing(project, reuse)
    if staged is not None:
        staged.add(golden, meanwhile=True)
    modules = generate_project(project, sink) if reuse is None else \
        generate_reusing(project, reuse, sink)
    if staged is not None:
        staged.add(modules, meanwhile=True)
    return {**modules, **golden}


def new_golden(files: dict[str, str]) -> ToolSet:
    """The golden files of a build (not written yet) as a ToolSet."""
    # lazy: 7 more toolc module(s), only when this runs
    from .diff import ToolSet

    prefix = SCHEMAS_DIR + "/"
    return ToolSet.from_texts({rel.removeprefix(prefix): text for rel, text in files.items()
                               if rel.startswith(prefix)})


def schema_changes(config: Config, old: ToolSet, new: ToolSet,
                   project: ProjectIR | None = None) -> SchemaDiff:
    """``project``: the build the new side comes from, so each change gets its spec place."""
    # lazy: 7 more toolc module(s), only when this runs
    from .diff import Policy, diff_tools

    # lazy: 8 more toolc module(s), only when this runs
    from .diff.places import with_places
    from .diff.result import SchemaDiff

    changes = diff_tools(old, new, Policy.from_config(config.diff))
    return SchemaDiff(with_places(changes, project), old, new)


def golden_on_disk(config: Config) -> ToolSet:
    # lazy: 7 more toolc module(s), only when this runs
    from .diff import DiffInputError, ToolSet, load_folder

    root = config.output / SCHEMAS_DIR
    if root.is_symlink():  # the output is checked out from the pull request
        raise DiffInputError(f"{config.relative(root)}: a link; the golden files are read "
                             "only from the output folder itself")
    return load_folder(root) if root.is_dir() else ToolSet()


def build(
    config: Config,
    *,
    check: bool = False,
    certify: bool = True,
    progress: Progress | None = None,
    use_cache: bool = True,
    waiting: Progress | None = None,
) -> BuildResult:
    """Run the whole pipeline. ``check`` writes nothing and only says what would change.

    When nothing the output depends on changed since the last clean build wrote it (see
    :func:`input_key`), a writing build says so (``up_to_date``) without analysing,
    generating or certifying; ``use_cache=False`` always runs every stage. A checking
    build always runs them: it is the gate, and the record could come from the checkout.

    A writing build holds the project's build lock (``toolc.output.lock``); ``waiting`` is
    told when it has to wait for another build.
    """
    if check:
        return _run_stages(config, None, check=True, certify=certify, progress=progress)
    try:
        with build_lock(config.root, waiting):
            return _writing_build(config, certify=certify, progress=progress,
                                  use_cache=use_cache)
    except OutputError as exc:  # the lock could not be taken
        result = BuildResult(Compiled(config.bag()))
        report_output_error(config, result, exc)
        return result


def _writing_build(config: Config, *, certify: bool, progress: Progress | None,
                   use_cache: bool) -> BuildResult:
    specs = discover(config)
    key = input_key(config, specs) if use_cache else None
    if key is not None:
        cached = cached_plan(config, key, certify=certify)
        if cached is not None:
            compiled = Compiled(config.bag())
            compiled.bag.extend(replayed(config))  # what it said last time, said again
            compiled.sources = _sources_of(config, compiled.bag)
            compiled.budgets = from_record(remembered(config, "budget"))
            return BuildResult(compiled, plan=cached, up_to_date=True)
    return _run_stages(config, key, check=False, certify=certify, progress=progress)


def _run_stages(config: Config, key: str | None, *, check: bool, certify: bool,
                progress: Progress | None) -> BuildResult:
    # Certification's process starts first: it imports the mcp SDK while the specs are
    # loaded, and serves each module while the next is generated (toolc.certify.process).
    # It is stopped when certification is done, or when the build ends before that.
    # lazy: 3 more toolc module(s), only when this runs
    from .certify.process import early_certifier

    with early_certifier(config.python_path, wanted=certify,
                         collecting=collector_for_user_code) as certifier:
        return _stages(config, key, check=check, certify=certify, progress=progress,
                       certifier=certifier)


def _stages(config: Config, key: str | None, *, check: bool, certify: bool,
            progress: Progress | None, certifier: Certifier | None) -> BuildResult:

    compiled = compile_specs(config, progress=progress)
    result = BuildResult(compiled, checked=check)
    project = compiled.project
    if project is None:
        return result
    # Per module, what an unchanged one made last time (never for a checking build: the
    # record could come from the checkout it checks).
    reuse = None if key is None else incremental.prepare(config, project, compiled.sources,
                                                         certify=certify)
    if certifier is not None and reuse is not None:
        certifier.skip = set(reuse.verdicts)
    if progress:
        progress("generating")
    # The files are staged beside the output as they are made, by other processes while
    # the build generates, diffs and certifies, and put in place only if it succeeds.
    staged = None
    try:
        staged = None if check else StagedTree(config.output)
        sink = certifier.module_generated if certifier is not None else None
        result.files = render_outputs(project, staged, sink, reuse)
        result.diff = _diff_or_report(config, result)
        if certify and not compiled.bag.has_errors:
            if progress:
                progress("certifying through an MCP client")
            _certify(config, project, result, certifier, reuse)
            compiled.bag.judge_suppressions(CERTIFY_CODES.__contains__)
        if compiled.bag.has_errors:
            return result
        if staged is None:
            _journal_left(config, result)
            result.plan = plan(config.output, result.files)
            return result
        forget_build(config)  # the record must never describe an output being replaced
        result.plan = staged.commit(result.files)
        result.wrote = result.plan.changes
        if reuse is not None:
            incremental.remember(config, project, result.files, reuse, certified=certify)
        if key is not None:  # its warnings are recorded: an up-to-date build says them again
            record = cache_record(config, project, key, certified=certify,
                                  diagnostics=list(compiled.bag))
            record["budget"] = [b.as_json() for b in compiled.budgets or ()]
            remember_build(config, record)
        return result
    except OutputError as exc:
        report_output_error(config, result, exc)
        result.plan = None
        return result
    finally:
        if staged is not None:
            staged.discard()  # nothing happens after a commit


def report_output_error(config: Config, result: BuildResult, exc: OutputError) -> None:
    """A refused path or a failed write: one line naming the file (no source to quote).
    The path is shown as it is inside the project: a link is named, not followed."""
    try:
        shown = exc.path.relative_to(config.root).as_posix()
    except ValueError:
        shown = config.relative(exc.path)
    result.compiled.bag.report(exc.code, exc.message, Span(shown, 1, 1))


def _journal_left(config: Config, result: BuildResult) -> None:
    """A checking build finishes no interrupted write, but says that one is there."""
    journal = config.output / JOURNAL
    if os.path.lexists(journal):
        result.compiled.bag.report(
            "TC505", "an interrupted write's journal is in the output: a checking build "
                     "replays nothing (`toolc build --write` finishes it, or refuses it)",
            Span(config.relative(journal), 1, 1))


def _certify(config: Config, project: ProjectIR, result: BuildResult,
             certifier: Certifier | None, reuse: Reuse | None) -> None:
    # lazy: 3 more toolc module(s), only when this runs
    from .certify.compare import certify_build

    with collector_for_user_code():
        if certifier is not None:
            certifier.certify(project, result.files, result.compiled.bag, reuse)
        else:  # no process could be forked: in this one
            certify_build(config, project, result.files, result.compiled.bag, reuse)


def _diff_or_report(config: Config, result: BuildResult) -> SchemaDiff | None:
    # lazy: 7 more toolc module(s), only when this runs
    from .diff import DiffInputError

    try:
        return schema_changes(config, golden_on_disk(config), new_golden(result.files),
                              result.compiled.project)
    except DiffInputError as exc:
        result.compiled.bag.report("TC503", f"cannot read the golden files: {exc}",
                                   Span(config.relative(config.output), 1, 1))
        return None


def in_ci() -> bool:
    """CI services set CI; then `toolc build` checks instead of writing."""
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")
