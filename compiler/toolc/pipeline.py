"""The build pipeline: the ordered stages from spec files to a written ``generated/``.

    discover -> load -> analyse (model, checks, resolve) -> publish + generate
             -> diff against the golden files -> certify -> write (or check)

Each stage is a plain function; :func:`build` runs them in order and stops at the
first stage that reported errors, so a broken spec never reaches the output folder.
The CLI only parses options and prints a :class:`BuildResult`.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .budget import from_record
from .collector import collector_for_user_code
from .config import Config
from .diagnostics import CERTIFY_CODES, COMPARISON_CODES, Span
from .ir import ProjectIR
from .output import components, incremental
from .output.cache import (
    cache_record,
    cached_plan,
    environment_text,
    forget_build,
    input_key,
    read_specs,
    records_noticed,
    remember_build,
    remembered,
    replayed,
)
from .output.components import Taken
from .output.confine import OutputError
from .output.incremental import MEMORY
from .output.journal import JOURNAL
from .output.lock import build_lock
from .output.plan import Plan, plan
from .output.staging import StagedTree
from .publish import SCHEMAS_DIR, publish_project
from .specs import Compiled, Progress, compile_specs, discover, shown_path, sources_of

if TYPE_CHECKING:
    from .certify.process import Certifier
    from .diff import ToolSet
    from .diff.gate import Base
    from .diff.result import SchemaDiff
    from .generate import ModuleSink
    from .output.incremental import Reuse

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
    found = ToolSet.from_texts({rel.removeprefix(prefix): text for rel, text in files.items()
                                if rel.startswith(prefix)}, known=MEMORY.tools)
    if MEMORY.enabled:  # a warm process parses only what changed next time
        MEMORY.tools = found
    return found


def schema_changes(config: Config, old: ToolSet, new: ToolSet,
                   project: ProjectIR | None = None, base: Base | None = None, *,
                   unused_between: str | None = None) -> SchemaDiff:
    """``project``: the build the new side comes from, so each change gets its spec place
    (and the renames its specs declare, ``toolc.diff.renames``); the same change in
    several modules' golden files is one row (``toolc.diff.rows``). ``base``: the rules
    that judge (``toolc.diff.gate``): its severities and threshold with the project's
    acceptances, and the project's changes to those rules as findings.
    ``unused_between`` (``X and Y``, what is compared): the comparison holds a whole
    branch, as a gate's does, so an acceptance that matches no change is a warning."""
    # lazy: 8 more toolc module(s), only when this runs
    from .diff import Policy, diff_tools, renames
    from .diff.gate import own_text, rule_changes
    from .diff.places import definitions, with_places
    from .diff.result import SchemaDiff
    from .diff.rows import rows

    declared = renames.declared(project)
    own = Policy.from_config(config.diff)
    judging = own if base is None else base.judging(own)
    pinned = renames.pinned_keys(project)  # a pin its server renamed is a rename too
    moved = {**renames.pinned_renames(pinned, old, new), **renames.renames(declared)}
    changes = diff_tools(old, new, judging, moved, pinned)
    placed = rows(with_places(changes, project), definitions(project), (old.texts, new.texts))
    found = SchemaDiff(placed, old, new, problems=renames.problems(declared, old, new))
    if base is not None:
        spec_paths = sorted(project.inputs) if project is not None else ()
        found.policy = rule_changes(base, config.gate_rules(), placed, own_text(config),
                                    spec_paths)
        found.note, found.fail_on = base.note, base.policy.fail_on or "error"
    if unused_between is not None:  # the rules' own findings may be accepted too
        found.warnings = judging.unused_warnings(found.findings(), unused_between)
    return found


def golden_on_disk(config: Config, known: ToolSet | None = None,
                   read: Mapping[str, tuple[list[int], str]] | None = None) -> ToolSet:
    """The golden files in the output folder (``known``: the new ones, whose parsed tools
    are taken for files that hold the same text; ``read``: files read a moment ago, as
    ``load_folder`` takes them)."""
    # lazy: 7 more toolc module(s), only when this runs
    from .diff import DiffInputError, ToolSet, load_folder

    root = config.output / SCHEMAS_DIR
    if root.is_symlink():  # the output is checked out from the pull request
        raise DiffInputError(f"{config.relative(root)}: a link; the golden files are read "
                             "only from the output folder itself")
    return load_folder(root, known, read) if root.is_dir() else ToolSet()


def build(
    config: Config,
    *,
    check: bool = False,
    certify: bool = True,
    progress: Progress | None = None,
    use_cache: bool = True,
    notice: Progress | None = None,
) -> BuildResult:
    """Run the whole pipeline. ``check`` writes nothing and only says what would change.

    When nothing the output depends on changed since the last clean build wrote it (see
    :func:`input_key`), a writing build says so (``up_to_date``) without analysing,
    generating or certifying; ``use_cache=False`` always runs every stage. A checking
    build always runs them: it is the gate, and the record could come from the checkout.

    A writing build holds the project's build lock (``toolc.output.lock``). ``notice`` is
    told, in a line, when the build waits for another one, and when it ignores a bad
    record of ``.toolc-cache/`` (once a record).
    """
    if check:
        return _run_stages(config, None, check=True, certify=certify, progress=progress)
    try:
        with build_lock(config.root, notice), records_noticed(notice):
            return _writing_build(config, certify=certify, progress=progress,
                                  use_cache=use_cache)
    except OutputError as exc:  # the lock could not be taken
        result = BuildResult(Compiled(config.bag()))
        report_output_error(config, result, exc)
        return result


def _writing_build(config: Config, *, certify: bool, progress: Progress | None,
                   use_cache: bool) -> BuildResult:
    specs = discover(config)
    read = read_specs(config, specs) if use_cache else None
    key = input_key(config, specs, read) if read is not None else None
    if key is not None:
        cached = cached_plan(config, key, certify=certify)
        if cached is not None:
            compiled = Compiled(config.bag())
            compiled.bag.extend(replayed(config))  # what it said last time, said again
            compiled.sources = sources_of(config, compiled.bag)
            compiled.budgets = from_record(remembered(config, "budget"))
            return BuildResult(compiled, plan=cached, up_to_date=True)
    return _run_stages(config, key, check=False, certify=certify, progress=progress,
                       read=read if key is not None else None)


def _run_stages(config: Config, key: str | None, *, check: bool, certify: bool,
                progress: Progress | None,
                read: Mapping[Path, bytes] | None = None) -> BuildResult:
    # Certification's process starts first: it imports the mcp SDK while the specs are
    # loaded, and serves each module while the next is generated (toolc.certify.process).
    # It is stopped when certification is done, or when the build ends before that.
    # lazy: 3 more toolc module(s), only when this runs
    from .certify.process import early_certifier

    with early_certifier(config.python_path, wanted=certify,
                         collecting=collector_for_user_code) as certifier:
        return _stages(config, key, check=check, certify=certify, progress=progress,
                       certifier=certifier, read=read)


@dataclass(slots=True)
class _Analysed:
    """The front end's result, and what the records let a writing build reuse."""

    compiled: Compiled
    reuse: Reuse | None = None
    environment: str = ""
    digests: dict[str, str] | None = None   # each spec, as shown -> sha256 of its bytes


def _analyse(config: Config, read: Mapping[Path, bytes] | None, *, certify: bool,
             progress: Progress | None) -> _Analysed:
    """The front end, taking over the components nothing changed (never for a checking
    build: ``read`` is None then, as the records could come from the checkout it checks),
    and per module what the last build made of it (``toolc.output.incremental``)."""
    if read is None:
        return _Analysed(compile_specs(config, progress=progress))
    environment = environment_text(config)
    digests = {shown_path(config, path): hashlib.sha256(data).hexdigest()
               for path, data in read.items()}
    taken = components.take_over(config, environment, digests)
    compiled = compile_specs(config, progress=progress, taken=taken, read=read)
    found = _Analysed(compiled, None, environment, digests)
    if compiled.project is not None:
        found.reuse = incremental.prepare(config, compiled.project, compiled.sources,
                                          environment, certify=certify,
                                          taken=compiled.taken)
        if compiled.taken is not None and not incremental.covers(
                found.reuse, compiled.taken.graph, certify=certify):
            # A taken module's key changed, or its code or verdict cannot be reused: it
            # needs its IR after all.
            found.compiled = compiled = compile_specs(config, progress=progress)
            found.reuse = None if compiled.project is None else incremental.prepare(
                config, compiled.project, compiled.sources, environment, certify=certify)
    return found


def _stages(config: Config, key: str | None, *, check: bool, certify: bool,
            progress: Progress | None, certifier: Certifier | None,
            read: Mapping[Path, bytes] | None) -> BuildResult:

    analysed = _analyse(config, read, certify=certify, progress=progress)
    compiled, reuse = analysed.compiled, analysed.reuse
    result = BuildResult(compiled, checked=check)
    project = compiled.project
    if project is None:
        return result
    taken = compiled.taken
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
        if taken is not None and reuse is not None:
            result.files.update(_taken_files(taken, reuse, staged))
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
        if key is not None:
            _remember(config, key, analysed, result, certified=certify)
        return result
    except OutputError as exc:
        report_output_error(config, result, exc)
        result.plan = None
        return result
    finally:
        if staged is not None:
            staged.discard()  # nothing happens after a commit


def _taken_files(taken: Taken, reuse: Reuse, staged: StagedTree | None) -> dict[str, str]:
    """The taken components' files: their modules' code and their golden files, as the
    last build wrote them."""
    code = {f"{name}.py": reuse.texts[name] for name in taken.graph}
    if staged is not None:
        staged.add(code, meanwhile=True)
        staged.keep(taken.golden)  # read from the output just now, checked on the way
    return {**code, **taken.golden}


def _remember(config: Config, key: str, analysed: _Analysed, result: BuildResult, *,
              certified: bool) -> None:
    """The records of a clean writing build, for the next one: per module, per
    component, and (with its warnings: an up-to-date build says them again) the whole."""
    compiled, reuse = result.compiled, analysed.reuse
    if reuse is None or analysed.digests is None or compiled.project is None:
        return
    incremental.remember(config, result.files, reuse, certified=certified)
    components.remember(config, analysed.environment, compiled.project, compiled.bag,
                        compiled.budgets or (), result.files, analysed.digests, compiled.taken)
    lookups = {name: list(outcome) for inputs in compiled.project.inputs.values()
               for name, outcome in inputs.code}
    for component in compiled.taken.components if compiled.taken is not None else ():
        lookups.update(component.code)
    said = [d for d in compiled.bag if d.code not in COMPARISON_CODES]  # another base next
    record = cache_record(config, key, certified=certified, diagnostics=said,
                          code=reuse.user_code, schemas=reuse.schema_files, lookups=lookups)
    record["budget"] = [b.as_json() for b in compiled.budgets or ()]
    remember_build(config, record)


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
    taken = result.compiled.taken
    if taken is not None and reuse is not None:  # not in the project: said again here
        for name in sorted(taken.graph):
            incremental.replay(result.compiled.bag, reuse.verdicts[name])


def _diff_or_report(config: Config, result: BuildResult) -> SchemaDiff | None:
    """The golden files replaced against the new ones, judged by HEAD's rules (what
    ``toolc diff`` would say; CI's gate judges by its base's)."""
    # lazy: 7 more toolc module(s), only when this runs
    from .diff import DiffInputError
    from .diff.gate import head_base

    try:
        new = new_golden(result.files)
        taken = result.compiled.taken
        old = golden_on_disk(config, new, taken.golden_read() if taken is not None else None)
        diff = schema_changes(config, old, new, result.compiled.project, head_base(config))
    except DiffInputError as exc:
        result.compiled.bag.report("TC503", f"cannot read the golden files: {exc}",
                                   Span(config.relative(config.output), 1, 1))
        return None
    for problem in diff.problems:  # said with the diagnostics, at the spec's line
        result.compiled.bag.report(problem.code, problem.message, problem.span,
                                   notes=problem.notes)
    return diff


def in_ci() -> bool:
    """CI services set CI; then `toolc build` checks instead of writing."""
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")
