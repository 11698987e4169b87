"""The build pipeline: the ordered stages from spec files to a written ``generated/``.

    STAGES = (load, analyse, publish, generate, diff, certify, write)

Each stage is a plain function over one :class:`Build` (its docstring says what it does;
docs/architecture.md which module does it): it reads what the stages before it left
there and adds its own part. :func:`run` calls them in order and stops after the first
that reported an error, so a broken spec never reaches the output folder. The CLI only
parses options and prints a :class:`BuildResult`.

What a stage may reuse instead of making it is handed to it as plain data
(``Build.handed``: each spec's loaded form, the analysis of specs nothing changed, the
code, golden files and certification verdicts of unchanged modules); it takes that as it
is and makes the rest. The reuse wing (``toolc.reuse``) fills it, above the stages (no
stage imports it): in a writing build it takes its turns between them
(:func:`_writing_build`), and a warm process's memory hands every build what it kept.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .collector import collector_for_user_code
from .config import Config
from .diagnostics import CERTIFY_CODES, Span
from .frontend import Compiled, analyse_loaded, compile_specs
from .ir import ProjectIR
from .output.confine import OutputError
from .output.journal import JOURNAL
from .output.lock import build_lock
from .output.plan import Plan, plan
from .output.staging import StagedTree
from .publish import SCHEMAS_DIR, publish_modules, publish_project
from .reuse.handed import Handed
from .reuse.last_build import LastBuild
from .reuse.memory import MEMORY
from .reuse.records import records_noticed
from .specs import Loaded, Progress, load_specs

if TYPE_CHECKING:
    from .certify.process import Certifier
    from .certify.verdicts import Verdict
    from .diff import ToolSet
    from .diff.gate import Base
    from .diff.result import SchemaDiff


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


@dataclass(slots=True)
class Build:
    """One build as its stages see it: its options, what it is handed to reuse, what each
    stage made (``result``: what the build says at the end)."""

    config: Config
    result: BuildResult
    certify: bool = True
    progress: Progress | None = None
    handed: Handed = field(default_factory=Handed)
    certifier: Certifier | None = None  # the certifying process, forked at the start
    staged: StagedTree | None = None    # a writing build's files, staged as they are made
    loaded: Loaded | None = None        # load's
    published: dict[str, dict[str, str]] = field(default_factory=dict)  # publish's, by module
    new_tools: ToolSet | None = None    # diff's: the new golden files, parsed
    judged: dict[str, Verdict] = field(default_factory=dict)  # certify's: each module served

    @property
    def project(self) -> ProjectIR:
        """The IR (the stages after analyse run only when it was made)."""
        project = self.result.compiled.project
        assert project is not None, "a stage after analyse ran without the IR"
        return project

    @property
    def stopped(self) -> bool:
        return self.result.compiled.bag.has_errors


Stage = Callable[[Build], None]


def load(build: Build) -> None:
    """The project's spec files found and loaded; not those whose analysis is handed."""
    replay = build.handed.analysis
    build.loaded = load_specs(build.config, progress=build.progress,
                              skip=replay.specs if replay is not None else (),
                              known=build.handed.known)


def analyse(build: Build) -> None:
    """What was loaded, analysed with the handed analysis of the specs it skipped (or of
    every spec, loaded again, where that could say anything else than a full analysis);
    the project's IR and budgets, every problem reported."""
    assert build.loaded is not None
    config, handed = build.config, build.handed
    compiled = analyse_loaded(config, build.loaded, build.progress, handed.analysis)
    if compiled is None:
        compiled = compile_specs(config, progress=build.progress, known=handed.known)
    build.result.compiled = compiled


def publish(build: Build) -> None:
    """Each module's golden files (a module's handed ones as they are), staged for writing
    as they are made; the golden files handed as already in the output kept there."""
    if build.progress:
        build.progress("generating")
    if not build.result.checked:
        # The files are staged beside the output as they are made, by other processes
        # while the build generates, diffs and certifies, and put in place only if it
        # succeeds (toolc.output.staging).
        build.staged = StagedTree(build.config.output)
    build.published = publish_modules(build.project, build.handed.golden)
    golden = {rel: text for files in build.published.values() for rel, text in files.items()}
    if build.staged is not None:
        build.staged.add(golden, meanwhile=True)  # the golden files first: they are many
        build.staged.keep(build.handed.kept)  # read from the output just now, checked
    build.result.files = {**golden, **build.handed.kept}


def generate(build: Build) -> None:
    """Each module's code (a module's handed code as it is), handed to the certifying
    process as it is made, so that it serves one module while the next is generated; the
    code of the modules whose analysis was handed, as handed."""
    # lazy: 10 more toolc module(s), only when this runs
    from .generate import generate_project

    project, handed, certifier = build.project, build.handed, build.certifier
    if certifier is not None:
        certifier.skip = set(handed.verdicts)  # their code is staged only where needed
    sink = certifier.module_generated if certifier is not None else None
    modules = generate_project(project, sink, handed.code)
    outside = {f"{name}.py": text for name, text in handed.code.items()
               if name not in project.modules}
    if build.staged is not None:
        build.staged.add(modules, meanwhile=True)
        build.staged.add(outside, meanwhile=True)
    build.result.files = {**modules, **build.result.files, **outside}


def diff(build: Build) -> None:
    """The golden files replaced against the new ones, judged by HEAD's rules (what
    ``toolc diff`` would say; CI's gate judges by its base's)."""
    # lazy: 7 more toolc module(s), only when this runs
    from .diff import DiffInputError
    from .diff.gate import head_base

    config, result = build.config, build.result
    try:
        build.new_tools = new = new_golden(result.files, build.handed.tools)
        old = golden_on_disk(config, new, build.handed.read)
        result.diff = schema_changes(config, old, new, result.compiled.project,
                                     head_base(config))
    except DiffInputError as exc:
        result.compiled.bag.report("TC503", f"cannot read the golden files: {exc}",
                                   Span(config.relative(config.output), 1, 1))
        return
    for problem in result.diff.problems:  # said with the diagnostics, at the spec's line
        result.compiled.bag.report(problem.code, problem.message, problem.span,
                                   notes=problem.notes)


def certify(build: Build) -> None:
    """Each module's export served through a real MCP client and compared with its spec
    and golden files; a module whose verdict is handed is not served, its verdict said
    again in its place (those of the modules whose analysis was handed, after all)."""
    if not build.certify:
        return
    # lazy: 3 more toolc module(s), only when this runs
    from .certify.compare import certify_build
    from .certify.verdicts import replay

    config, project, result, handed = build.config, build.project, build.result, build.handed
    bag = result.compiled.bag
    if build.progress:
        build.progress("certifying through an MCP client")
    with collector_for_user_code():
        if build.certifier is not None:
            build.judged = build.certifier.certify(project, result.files, bag, handed.verdicts)
        else:  # no process could be forked: in this one
            build.judged = certify_build(config, project, result.files, bag, handed.verdicts)
    for name in sorted(handed.verdicts.keys() - project.modules.keys()):
        replay(bag, handed.verdicts[name])  # not in the project: said again here
    bag.judge_suppressions(CERTIFY_CODES.__contains__)


def write(build: Build) -> None:
    """The output folder made to hold exactly the build's files: the staged files put in
    place (journal, renames, manifest); checking, what that would change."""
    result = build.result
    if build.staged is None:
        _journal_left(build.config, result)
        result.plan = plan(build.config.output, result.files)
        return
    result.plan = build.staged.commit(result.files)
    result.wrote = result.plan.changes


STAGES: tuple[Stage, ...] = (load, analyse, publish, generate, diff, certify, write)


def run(build: Build, turns: Mapping[str, Stage] | None = None) -> BuildResult:
    """The stages in order, each after its turn of ``turns`` (by stage name: what the
    reuse wing does before it), until one reports an error. A failed write is reported
    in a line."""
    # Certification's process starts first: it imports the mcp SDK while the specs are
    # loaded, and serves each module while the next is generated (toolc.certify.process).
    # It is stopped when certification is done, or when the build ends before that.
    # lazy: 3 more toolc module(s), only when this runs
    from .certify.process import early_certifier

    config, turns = build.config, turns or {}
    with early_certifier(config.python_path, wanted=build.certify,
                         collecting=collector_for_user_code) as certifier:
        build.certifier = certifier
        try:
            for stage in STAGES:
                turn = turns.get(stage.__name__)
                if turn is not None:
                    turn(build)
                stage(build)
                if build.stopped:
                    break
        except OutputError as exc:
            report_output_error(config, build.result, exc)
            build.result.plan = None
        finally:
            if build.staged is not None:
                build.staged.discard()  # nothing happens after a commit
    MEMORY.keep_tools(build.new_tools)  # a warm process parses only what changed next time
    return build.result


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

    When nothing the output depends on changed since the last clean build wrote it
    (``toolc.reuse.noop``), a writing build says so (``up_to_date``) without analysing,
    generating or certifying; ``use_cache=False`` always runs every stage. A checking
    build always runs them, reusing nothing of the records: it is the gate, and the
    records could come from the checkout.

    A writing build holds the project's build lock (``toolc.output.lock``). ``notice`` is
    told, in a line, when the build waits for another one, and when it ignores a bad
    record of ``.toolc-cache/`` (once a record).
    """
    state = Build(config, BuildResult(Compiled(config.bag()), checked=check), certify=certify,
                  progress=progress, handed=MEMORY.handed())
    if check:
        return run(state)
    try:
        with build_lock(config.root, notice), records_noticed(notice):
            return _writing_build(state, use_cache=use_cache)
    except OutputError as exc:  # the lock could not be taken
        result = BuildResult(Compiled(config.bag()))
        report_output_error(config, result, exc)
        return result


def _writing_build(build: Build, *, use_cache: bool) -> BuildResult:
    """A writing build, and the reuse wing's turns: the no-op answer first; before
    loading, the analysis of the unchanged components; once analysed, what the unchanged
    modules reuse; before writing, the no-op record forgotten; the records after."""
    last = LastBuild.open(build.config, certify=build.certify, records=use_cache)
    answer = last.up_to_date()
    if answer is not None:  # what it said last time, said again
        return BuildResult(answer[1], plan=answer[0], up_to_date=True)
    turns: dict[str, Stage] = {
        "load": lambda b: last.hand_analysis(b.handed),
        "publish": lambda b: last.hand_modules(b.handed, b.result.compiled),
        "write": lambda b: last.forget(),
    }
    result = run(build, turns)
    last.keep_golden(build.published)
    if result.plan is not None:  # written, cleanly
        last.remember(result.compiled, result.files, build.judged)
    return result


def render_outputs(project: ProjectIR) -> dict[str, str]:
    """Every file a build owns in the output folder, as its publish and generate stages
    make them (nothing reused): golden schemas and modules."""
    # lazy: 10 more toolc module(s), only when this runs
    from .generate import generate_project

    golden = publish_project(project)
    return {**generate_project(project), **golden}


def new_golden(files: Mapping[str, str], known: ToolSet | None = None) -> ToolSet:
    """The golden files of a build (not written yet) as a ToolSet (``known``: files
    parsed before, whose tools are taken for files of the same text)."""
    # lazy: 7 more toolc module(s), only when this runs
    from .diff import ToolSet

    prefix = SCHEMAS_DIR + "/"
    return ToolSet.from_texts({rel.removeprefix(prefix): text for rel, text in files.items()
                               if rel.startswith(prefix)}, known=known)


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


def in_ci() -> bool:
    """CI services set CI; then `toolc build` checks instead of writing."""
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")
