"""``toolc build``: build, or verify ``generated/``, and print what changed."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import TextIO

from ..collector import collector_paused
from ..config import Config
from ..pipeline import BuildResult, build, in_ci
from ..report.json import diagnostics_json, json_text
from ..report.render import render_diff
from .common import (
    EXIT_ERRORS,
    EXIT_OK,
    ci_fail_on,
    config_or_report,
    exit_code,
    print_diagnostics,
    shown_diagnostics,
)


@collector_paused()  # the build GC policy, for the whole command (toolc.collector)
def run_build(*, check: bool, write: bool, certify: bool, fmt: str, strict: bool,
              out: TextIO | None = None, err: TextIO | None = None, color: bool = False,
              progress: bool = False, live: bool = False, fail_on: str | None = None,
              vendor: bool = False) -> int:
    """Build, or (``--check``, or in CI without ``--write``) verify ``generated/``.

    ``fail_on``: exit 1 when a schema change (against the golden files the build
    replaces) is at or above it. A writing build writes either way and, without it,
    exits 0 on changes: writing them is how an author takes them, and the gate that
    refuses them is ``toolc diff --against`` in CI (the summary says which would fail).
    A checking build fails on any change, as ``generated/`` is then stale.

    The findings about imported MCP servers are one line per server unless ``vendor``
    (:mod:`toolc.report.vendored`)."""
    out = out or sys.stdout
    err = err or sys.stderr
    config = config_or_report(fmt, err)
    if config is None:
        return EXIT_ERRORS
    checking = check or (in_ci() and not write)
    reporter = _progress(err) if progress else None
    result = build(config, check=checking, certify=certify, progress=reporter,
                   notice=_notice(err))
    if reporter:
        err.write("\r\x1b[K")
    if fmt == "json":
        code = _build_json(result, config, checking, strict, out, vendor)
    else:
        print_diagnostics(result.compiled.bag, result.compiled.sources, fmt, out, color,
                          strict=strict, vendor=vendor)
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
        # lazy: loads anyio, pydantic
        from ..importer.drift import build_drift

        if build_drift(config, result.compiled, fmt, out=out, err=err, color=color):
            return EXIT_ERRORS
    return code


def _changes_fail(result: BuildResult, fail_on: str | None) -> bool:
    if fail_on is None or result.diff is None or not result.diff.findings():
        return False  # (a no-op build has no diff: it imports no diff code either)
    # lazy: the diff package and, through its rules, the runtime (pydantic)
    from ..diff import fails

    return fails(result.diff.findings(), fail_on)


def _print_changes(result: BuildResult, config: Config, fmt: str, out: TextIO,
                   color: bool, checking: bool) -> None:
    """The schema changes, apart from the diagnostics and in their own words (a breaking
    change is not an error of the specs), closed by what CI will make of them."""
    if result.diff is None or not result.diff.findings():
        return
    golden_root = f"{config.relative(config.output)}/schemas"
    if fmt == "github":
        out.write(render_diff(result.diff, "github", golden_root=golden_root) + "\n")
        return

    side = "in" if checking else "this build replaces in"
    out.write(f"\nSchema changes against the golden files {side} {golden_root}/:\n\n")
    if result.diff.note:  # HEAD's rules could not be read: the defaults judge
        out.write(f"toolc: {result.diff.note}\n")
    # The summary says what CI's gate, `toolc diff --against`, will make of them.
    out.write(render_diff(result.diff, "text", color=color, golden_root=golden_root,
                          fail_on=result.diff.fail_on or ci_fail_on(config)) + "\n\n")


def _print_budgets(result: BuildResult, out: TextIO) -> None:
    """One line per export: its tools and their estimated tokens (toolc.budget)."""
    out.writelines(f"budget: {b.describe()}\n" for b in result.compiled.budgets or ())


def _build_json(result: BuildResult, config: Config, checking: bool, strict: bool,
                out: TextIO, vendor: bool) -> int:
    """One JSON document: ``{"diagnostics", "vendor", "changes", "budget", "output"}``
    (documented in README)."""
    compiled = result.compiled
    shown, servers = shown_diagnostics(compiled.bag, compiled.sources, strict=strict,
                                       vendor=vendor)
    doc: dict[str, object] = json.loads(
        diagnostics_json(shown, vendor=[s.as_json() for s in servers]))
    golden_root = f"{config.relative(config.output)}/schemas"
    doc["changes"] = []
    if result.diff is not None:
        rows = json.loads(render_diff(result.diff, "json", golden_root=golden_root))
        doc["changes"] = rows["changes"]
        if "policy" in rows:  # judged by HEAD's rules: the changes to them
            doc["policy"] = rows["policy"]
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
    return exit_code(compiled.bag, strict)


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
    return exit_code(result.compiled.bag, strict)


def _notice(err: TextIO) -> Callable[[str], None]:
    """A line on stderr (another build holds the lock, a record is ignored), flushed: it
    is said before waiting."""
    def say(message: str) -> None:
        err.write(f"toolc: {message}\n")
        err.flush()
    return say


def _progress(err: TextIO):  # type: ignore[no-untyped-def]
    def show(message: str) -> None:
        err.write(f"\r\x1b[Ktoolc: {message}")
        err.flush()
    return show
