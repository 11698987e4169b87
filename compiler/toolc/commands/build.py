"""What each command does, as plain functions returning an exit code.

``cli.py`` only declares options and calls these; keeping the behaviour here makes it
callable from tests and other programs without click. Exit codes, the same for every
command (the table is in README.md):

- 0: clean (warnings allowed);
- 1: findings: an error diagnostic (with ``--strict``, a warning too), a schema change
  at or above ``--fail-on``, a stale ``generated/`` under ``--check``;
- 2: not a finding: a usage error, or an input the command cannot use (an unknown git
  ref, a golden file that cannot be read or is not JSON, a missing path).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from ..config import Config, load_config
from ..diagnostics import DiagnosticBag, SpecError
from ..pipeline import BuildResult, build, compile_specs, discover, in_ci
from ..report.diagnostic_formats import json_text, render
from ..serving.http import HttpOptions

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2


def _config_or_report(fmt: str, err: TextIO, start: Path | None = None) -> Config | None:
    try:
        return load_config(start)
    except SpecError as exc:
        err.write(render(exc.diagnostics, fmt, {}) + "\n")
        return None


def _print_diagnostics(bag: DiagnosticBag, sources: dict[str, str], fmt: str,
                       out: TextIO, color: bool) -> None:
    items = bag.sorted()
    if fmt == "json":
        out.write(render(items, "json", sources) + "\n")
        return
    if items:
        out.write(render(items, fmt, sources, color=color) + "\n")
    if fmt == "text":
        errors = sum(1 for d in items if str(d.severity) == "error")
        warnings = sum(1 for d in items if str(d.severity) == "warning")
        if errors or warnings:
            out.write(f"{errors} error(s), {warnings} warning(s)\n")


def _exit_code(bag: DiagnosticBag, strict: bool) -> int:
    if bag.has_errors or (strict and bag.has_warnings):
        return EXIT_ERRORS
    return EXIT_OK


def validate(paths: Sequence[str], *, fmt: str = "text", strict: bool = False,
             out: TextIO | None = None, err: TextIO | None = None, color: bool = False) -> int:
    """Check specs and report every problem; write nothing. Named ``paths`` are checked
    in the context of the whole project, and only what concerns them is reported
    (:mod:`toolc.commands.subset`)."""
    out = out or sys.stdout
    err = err or sys.stderr
    config = _config_or_report(fmt, err)
    if config is None:
        return EXIT_ERRORS
    targets = [Path(p) for p in paths]
    missing = [p for p in targets if not p.exists()]
    if missing:
        err.write(f"error: no such file or folder: {missing[0]}\n")
        return EXIT_USAGE
    if not discover(config, targets):
        where = ", ".join(str(p) for p in targets) or ", ".join(
            config.relative(p) for p in config.specs)
        err.write(f"error: no *.toolc.yaml specs found in {where}\n")
        return EXIT_USAGE
    if targets:
        from .subset import compile_subset

        compiled, named = compile_subset(config, targets)
    else:
        compiled, named = compile_specs(config), set()
    _print_diagnostics(compiled.bag, compiled.sources, fmt, out, color)
    if fmt == "text" and not compiled.bag.items:
        count = len(compiled.project.modules) if compiled.project else 0
        if named:  # the others may have problems of their own, not reported here
            count = len(set(compiled.modules.values()))
        checked = f"{len(named)} spec(s) of " if named else ""
        out.write(f"ok: {checked}{count} module(s), no problems\n")
    return _exit_code(compiled.bag, strict)


def run_build(*, check: bool, write: bool, certify: bool, fmt: str, strict: bool,
              out: TextIO | None = None, err: TextIO | None = None, color: bool = False,
              progress: bool = False, live: bool = False, fail_on: str | None = None) -> int:
    """Build, or (``--check``, or in CI without ``--write``) verify ``generated/``.

    ``fail_on``: exit 1 when a schema change (against the golden files the build
    replaces) is at or above it. A writing build writes either way and, without it,
    exits 0 on changes: writing them is how an author takes them, and the gate that
    refuses them is ``toolc diff --against`` in CI (the summary says which would fail).
    A checking build fails on any change, as ``generated/`` is then stale."""
    out = out or sys.stdout
    err = err or sys.stderr
    config = _config_or_report(fmt, err)
    if config is None:
        return EXIT_ERRORS
    checking = check or (in_ci() and not write)
    reporter = _progress(err) if progress else None
    result = build(config, check=checking, certify=certify, progress=reporter,
                   waiting=_notice(err))
    if reporter:
        err.write("\r\x1b[K")
    if fmt == "json":
        code = _build_json(result, config, checking, strict, out)
    else:
        _print_diagnostics(result.compiled.bag, result.compiled.sources, fmt, out, color)
        if not result.ok:
            return EXIT_ERRORS
        _print_changes(result, config, fmt, out, color, checking)
        if fmt == "text":
            _print_budgets(result, out)
        code = _build_exit(result, config, checking, strict, out)
    if code == EXIT_OK and _changes_fail(result, fail_on):
        if fmt == "text":
            out.write(f"exit 1: schema changes at or above --fail-on {fail_on} "
                      "(the files are written)\n" if not checking else "")
        code = EXIT_ERRORS
    if live:  # drift of pinned MCP servers (toolc.importer.drift)
        from ..importer.drift import build_drift

        if build_drift(config, result.compiled, fmt, out=out, err=err, color=color):
            return EXIT_ERRORS
    return code


def _changes_fail(result: BuildResult, fail_on: str | None) -> bool:
    from ..diff import fails

    return fail_on is not None and result.diff is not None and fails(result.diff.changes,
                                                                     fail_on)


def _ci_fail_on(config: Config) -> str:
    """The threshold of the CI gate (``toolc diff``): ``[tool.toolc.diff] fail_on``."""
    fail_on = config.diff.get("fail_on") if isinstance(config.diff, dict) else None
    return fail_on if isinstance(fail_on, str) else "error"


def _print_changes(result: BuildResult, config: Config, fmt: str, out: TextIO,
                   color: bool, checking: bool) -> None:
    """The schema changes, apart from the diagnostics and in their own words (a breaking
    change is not an error of the specs), closed by what CI will make of them."""
    if result.diff is None or not result.diff.changes:
        return
    golden_root = f"{config.relative(config.output)}/schemas"
    if fmt == "github":
        out.write(result.diff.render("github", golden_root=golden_root) + "\n")
        return
    from ..report.changes import review_summary

    side = "in" if checking else "this build replaces in"
    out.write(f"\nSchema changes against the golden files {side} {golden_root}/:\n\n")
    closing = review_summary(result.diff.changes, _ci_fail_on(config))
    out.write(result.diff.render("text", color=color, golden_root=golden_root,
                                 closing=closing) + "\n\n")


def _print_budgets(result: BuildResult, out: TextIO) -> None:
    """One line per export: its tools and their estimated tokens (toolc.checks.budget)."""
    out.writelines(f"budget: {b.describe()}\n" for b in result.compiled.budgets or ())


def _build_json(result: BuildResult, config: Config, checking: bool, strict: bool,
                out: TextIO) -> int:
    """One JSON document: ``{"diagnostics", "changes", "budget", "output"}`` (documented
    in README)."""
    compiled = result.compiled
    doc: dict[str, object] = json.loads(render(compiled.bag.sorted(), "json", compiled.sources))
    golden_root = f"{config.relative(config.output)}/schemas"
    doc["changes"] = (json.loads(result.diff.render("json", golden_root=golden_root))["changes"]
                      if result.diff is not None else [])
    p = result.plan
    budgets = result.compiled.budgets
    doc["budget"] = None if budgets is None else [b.as_json() for b in budgets]
    doc["output"] = None if p is None else {
        "folder": config.relative(config.output), "checked": checking,
        "up_to_date": result.up_to_date or (checking and not p.changes),
        "written": list(p.written), "removed": list(p.removed), "unchanged": len(p.unchanged),
    }
    out.write(json_text(doc) + "\n")
    if not result.ok or (checking and p is not None and p.changes):
        return EXIT_ERRORS
    return _exit_code(compiled.bag, strict)


def _build_exit(result: BuildResult, config: Config, checking: bool, strict: bool,
                out: TextIO) -> int:
    assert result.plan is not None
    p = result.plan
    out_dir = config.relative(config.output)
    if checking:
        if p.changes:
            out.writelines(f"would write {out_dir}/{rel}\n" for rel in p.written)
            out.writelines(f"would remove {out_dir}/{rel}\n" for rel in p.removed)
            out.write(f"{out_dir}/ is out of date with the specs: run `toolc build --write` "
                      "and commit the result\n")
            return EXIT_ERRORS
        out.write(f"{out_dir}/ is up to date ({len(p.unchanged)} file(s))\n")
    elif result.up_to_date:
        out.write(f"{out_dir}/ is up to date: nothing changed since the last build\n")
    else:
        out.write(f"wrote {len(p.written)}, removed {len(p.removed)}, "
                  f"unchanged {len(p.unchanged)} file(s) in {out_dir}/\n")
    return _exit_code(result.compiled.bag, strict)


def _notice(err: TextIO) -> Callable[[str], None]:
    """A line on stderr (another build holds the lock), flushed: it is said before waiting."""
    def say(message: str) -> None:
        err.write(f"toolc: {message}\n")
        err.flush()
    return say


def _progress(err: TextIO):  # type: ignore[no-untyped-def]
    def show(message: str) -> None:
        err.write(f"\r\x1b[Ktoolc: {message}")
        err.flush()
    return show


def print_schema(out: TextIO | None = None) -> int:
    out = out or sys.stdout
    from ..model import spec_json_schema

    out.write(json.dumps(spec_json_schema(), indent=2, ensure_ascii=False) + "\n")
    return EXIT_OK


def run_diff(old: str | None, new: str | None, *, against: str | None, fmt: str,
             fail_on: str | None, out: TextIO | None = None, err: TextIO | None = None,
             color: bool = False, live: bool = False, link_base: str = "") -> int:
    """Classified changes between two sets of golden files (default NEW: a fresh build;
    default OLD: the committed ones, HEAD's, in a git repository, else those on disk);
    ``live``: between the pinned MCP servers' tools and what they publish now.
    ``fail_on`` None: ``[tool.toolc.diff] fail_on``, else ``error``. A fresh build's
    changes carry their spec lines; ``link_base`` (``https://github.com/o/r/blob/SHA/``)
    makes markdown's links to them absolute, else they are relative to the repository."""
    out = out or sys.stdout
    err = err or sys.stderr
    from ..pipeline import compile_specs

    config = _config_or_report("text", err)
    if config is None:
        return EXIT_ERRORS
    fail_on = fail_on or _ci_fail_on(config)
    if live:
        if old or new or against:
            err.write("error: --live compares the specs with the live servers; "
                      "give no OLD, NEW or --against\n")
            return EXIT_USAGE
        from ..importer.drift import run_live_diff

        return run_live_diff(config, fmt=fmt, fail_on=fail_on, out=out, err=err, color=color)
    if against and new:
        err.write("error: give OLD NEW folders, or --against REF with at most NEW\n")
        return EXIT_USAGE
    if against and old and not new:
        old, new = None, old  # `toolc diff --against REF NEW`
    from ..diff import DiffInputError, fails, repo_prefix
    from ..pipeline import new_golden, render_outputs, schema_changes

    project = None
    golden_root = f"{config.relative(config.output)}/schemas"
    try:
        before, old_label = _old_side(config, old, against, golden_root, err)
        new_label = new or "a fresh build of the specs"
        if new:
            after = _load_folder(new)
        else:
            compiled = compile_specs(config)
            if compiled.project is None:
                _print_diagnostics(compiled.bag, compiled.sources, "text", err, color)
                return EXIT_ERRORS
            project = compiled.project
            after = new_golden(render_outputs(project))
        result = schema_changes(config, before, after, project)
    except DiffInputError as exc:  # not a finding: the comparison could not be made
        err.write(f"error: {exc}\n")
        return EXIT_USAGE
    text = result.render(fmt, color=color, golden_root=golden_root,
                         compared=f"{old_label} with {new_label}", link_base=link_base,
                         spec_prefix=repo_prefix(config.root) if project else "")
    if text:
        out.write(text + "\n")
    return EXIT_ERRORS if fails(result.changes, fail_on) else EXIT_OK


def _load_folder(path: str) -> Any:
    from ..diff import load_folder

    return load_folder(path)


def _old_side(config: Config, old: str | None, against: str | None, golden_root: str,
              err: TextIO) -> tuple[Any, str]:
    """The OLD golden files and how to name them; when none is named, the committed ones
    (the README's and a reviewer's meaning), or, outside git, those on disk, saying
    which on stderr."""
    from ..diff import head_commit, load_git
    from ..pipeline import golden_on_disk

    if against:
        return load_git(against, golden_root, config.root), f"{against}:{golden_root}"
    if old:
        return _load_folder(old), old
    if head_commit(config.root) is not None:
        label = f"the committed golden files (HEAD:{golden_root})"
        err.write(f"toolc: compared {label} with a fresh build of the specs\n")
        return load_git("HEAD", golden_root, config.root), label
    label = f"the golden files on disk ({golden_root}/)"
    err.write(f"toolc: not in a git repository with a commit: compared {label} "
              "with a fresh build of the specs\n")
    return golden_on_disk(config), label


def run_serve(target: str, *, toolset_name: str | None, transport: str,
              http: HttpOptions | None = None, pinned: bool = False,
              expose_errors: bool = False, deps: str | None = None,
              err: TextIO | None = None, reload: bool = False) -> int:
    """Serve a toolset; over HTTP, refuse a non-loopback bind without ``allow_remote``.
    ``deps`` (else ``[tool.toolc] serve-deps``) names the session deps factory."""
    err = err or sys.stderr
    from ..serving.http import BindRefused, check_bind, host_policy
    from ..serving.targets import serve

    http = http or HttpOptions()
    if transport == "http":
        try:
            warning = check_bind(http)
            host_policy(http)  # a malformed --allow-host/--allow-origin is a usage error
        except BindRefused as exc:
            err.write(f"error: {exc}\n")
            return EXIT_USAGE
        if warning:
            err.write(f"warning: {warning}\n")
    from ..serving.targets import project_start

    # A spec's project is found from the spec, so it can be served from any folder.
    config = _config_or_report("text", err, start=project_start(target))
    if config is None:
        return EXIT_ERRORS
    return serve(config, target, toolset_name=toolset_name, transport=transport, http=http,
                 pinned=pinned, expose_errors=expose_errors,
                 deps=deps or config.serve_deps, err=err, reload=reload)


def run_import(*, stdio: str | None, http: str | None, saved: str | None,
               config_file: str | None, module: str | None, out_path: str | None,
               env: Sequence[str] = (), headers: Sequence[str] = (), cwd: str | None = None,
               force: bool = False, timeout_s: float = 30.0, out: TextIO | None = None,
               err: TextIO | None = None) -> int:
    """Pin the tools of MCP servers into a spec (see toolc.importer.command)."""
    from ..importer.command import ImportRequest
    from ..importer.command import run_import as run

    out = out or sys.stdout
    err = err or sys.stderr
    config = _config_or_report("text", err)
    if config is None:
        return EXIT_ERRORS
    request = ImportRequest(stdio=stdio, http=http, saved=saved, config_file=config_file,
                            module=module, out=out_path, env=env, headers=headers, cwd=cwd,
                            force=force, timeout_s=timeout_s)
    return run(config, request, out=out, err=err)
