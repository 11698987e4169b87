"""``toolc diff``: classified changes between two sets of golden files, or live drift."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, TextIO

from ..collector import collector_paused
from ..config import Config
from ..report.markdown import link_base as checked_link_base
from ..report.render import render_changes, render_diagnostics, render_diff
from .common import (
    EXIT_ERRORS,
    EXIT_OK,
    EXIT_USAGE,
    ci_fail_on,
    config_or_report,
    print_diagnostics,
)

if TYPE_CHECKING:
    from ..diff import ToolSet
    from ..diff.gate import Base
    from ..diff.result import SchemaDiff
    from ..frontend import Compiled


@collector_paused()  # the build GC policy, for the whole command (toolc.collector)
def run_diff(old: str | None, new: str | None, *, against: str | None, fmt: str,
             fail_on: str | None, out: TextIO | None = None, err: TextIO | None = None,
             color: bool = False, live: bool = False, link_base: str = "") -> int:
    """Classified changes between two sets of golden files (default NEW: a fresh build;
    default OLD: the committed ones, HEAD's, in a git repository, else those on disk);
    ``live``: between the pinned MCP servers' tools and what they publish now.
    ``fail_on`` None: the base's ``[tool.toolc.diff] fail_on`` when one judges (REF, or
    HEAD: ``toolc.diff.gate``), else the project's, else ``error``. A fresh build's
    changes carry their spec lines; ``link_base`` (``https://github.com/o/r/blob/SHA/``)
    makes markdown's links to them absolute, else they are relative to the repository;
    one that is not an http(s) URL is a usage error."""
    out = out or sys.stdout
    err = err or sys.stderr
    if link_base:
        try:
            checked_link_base(link_base)
        except ValueError as exc:  # before any work: the option, not the data, is wrong
            err.write(f"error: --link-base: {exc}; give the commit's page, "
                      "https://github.com/ORG/REPO/blob/SHA/\n")
            return EXIT_USAGE
    # lazy: loads pydantic, yaml
    from ..frontend import compile_specs

    config = config_or_report("text", err)
    if config is None:
        return EXIT_ERRORS
    if live:
        if old or new or against:
            err.write("error: --live compares the specs with the live servers; "
                      "give no OLD, NEW or --against\n")
            return EXIT_USAGE
        # lazy: loads anyio, pydantic, yaml
        from ..importer.drift import run_live_diff

        return run_live_diff(config, fmt=fmt, fail_on=fail_on or ci_fail_on(config), out=out,
                             err=err, color=color)
    if against and new:
        err.write("error: give OLD NEW folders, or --against REF with at most NEW\n")
        return EXIT_USAGE
    if against and old and not new:
        old, new = None, old  # `toolc diff --against REF NEW`
    # lazy: loads pydantic
    from ..diff import DiffInputError, fails, repo_prefix

    # lazy: loads pydantic, yaml
    from ..pipeline import new_golden, render_outputs, schema_changes

    project, compiled = None, None
    golden_root = f"{config.relative(config.output)}/schemas"
    try:
        base = _base(config, old, against)
        if base is not None and base.note:
            err.write(f"toolc: {base.note}\n")
        before, old_label = _old_side(config, old, against, base, golden_root, err)
        new_label = new or "a fresh build of the specs"
        if new:
            after = _load_folder(new)
        else:
            # The base's diagnostic severities judge the specs, as its diff rules do.
            compiled = compile_specs(config if base is None else config.judged_by(base.rules))
            if compiled.project is None:
                print_diagnostics(compiled.bag, compiled.sources, "text", err, color)
                if base is not None:
                    _rules_changed(config, base, sorted(compiled.sources), err, color)
                return EXIT_ERRORS
            project = compiled.project
            after = new_golden(render_outputs(project))
        # Against a ref or folder given (CI's `--against origin/main`) the comparison holds
        # the whole branch, and every acceptance should find its change; the committed
        # golden files (the default) leave out what the branch has committed already.
        between = f"{old_label} and {new_label}" if against or old else None
        result = schema_changes(config, before, after, project, base, unused_between=between)
    except DiffInputError as exc:  # not a finding: the comparison could not be made
        err.write(f"error: {exc}\n")
        return EXIT_USAGE
    if compiled is not None:
        _print_problems(result, compiled, err, color)
    threshold = fail_on or result.fail_on or ci_fail_on(config)
    text = render_diff(result, fmt, color=color, golden_root=golden_root, fail_on=threshold,
                       compared=f"{old_label} with {new_label}", link_base=link_base,
                       spec_prefix=repo_prefix(config.root) if project or base else "")
    if text:
        out.write(text + "\n")
    return EXIT_ERRORS if fails(result.findings(), threshold) else EXIT_OK


def _load_folder(path: str) -> ToolSet:
    # lazy: loads pydantic
    from ..diff import load_folder

    return load_folder(path)


def _rules_changed(config: Config, base: Base, spec_paths: list[str], err: TextIO,
                   color: bool) -> None:
    """Beside the diagnostics of specs that did not build: the pull request's changes
    to the rules that judged them (a severity it lowered is why an error is still one)."""
    # lazy: loads pydantic
    from ..diff.gate import own_text, rule_changes

    rules = rule_changes(base, config.gate_rules(), [], own_text(config), spec_paths)
    if rules:
        err.write(render_changes([], "text", color=color, policy=rules,
                                 closing="The specs have errors, so no golden file was "
                                 "compared.") + "\n")


def _base(config: Config, old: str | None, against: str | None) -> Base | None:
    """The base whose rules judge: REF, or HEAD when the committed golden files are the
    old side; None when two folders (or a folder and a build) are compared."""
    # lazy: loads pydantic
    from ..diff import commit_of, head_commit
    from ..diff.gate import read_base

    if against:
        commit_of(against, config.root)  # an unknown ref is said as such
        return read_base(against, config.root)
    if old is None and head_commit(config.root) is not None:
        return read_base("HEAD", config.root)
    return None


def _old_side(config: Config, old: str | None, against: str | None, base: Base | None,
              golden_root: str, err: TextIO) -> tuple[ToolSet, str]:
    """The OLD golden files and how to name them: REF's (from its own output folder), or
    when none is named, the committed ones (the README's and a reviewer's meaning), or,
    outside git, those on disk, saying which on stderr."""
    # lazy: loads pydantic
    from ..diff import load_git

    # lazy: loads pydantic, yaml
    from ..pipeline import golden_on_disk

    if old:
        return _load_folder(old), old
    if base is not None:
        folder = base.golden_root
        tools = load_git(base.ref, folder, config.root)
        if against:
            return tools, f"{against}:{folder}"
        label = f"the committed golden files (HEAD:{folder})"
        err.write(f"toolc: compared {label} with a fresh build of the specs\n")
        return tools, label
    label = f"the golden files on disk ({golden_root}/)"
    err.write(f"toolc: not in a git repository with a commit: compared {label} "
              "with a fresh build of the specs\n")
    return golden_on_disk(config), label


def _print_problems(result: SchemaDiff, compiled: Compiled, err: TextIO, color: bool) -> None:
    """What only the comparison finds in the specs (TC520), on stderr as diagnostics,
    with the project's severities and suppressions."""
    bag = compiled.bag
    before = len(bag.items)
    for problem in result.problems:
        bag.report(problem.code, problem.message, problem.span, notes=problem.notes)
    if len(bag.items) > before:
        err.write(render_diagnostics(bag.items[before:], "text", compiled.sources, color=color)
                  + "\n")
