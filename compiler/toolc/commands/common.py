"""What the commands share: the exit codes, reading the configuration, printing diagnostics,
and writing a file of the project safely (never through a link, atomically).

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

import contextlib
import os
import stat
import tempfile
from pathlib import Path
from typing import TextIO

from ..config import Config, load_config
from ..diagnostics import Diagnostic, DiagnosticBag, Severity, SpecError
from ..output.files import fsync_dir
from ..report.json import diagnostics_json
from ..report.render import render_diagnostics, render_folded
from ..report.vendored import PinnedServer, fold

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2


def config_or_report(fmt: str, err: TextIO, start: Path | None = None) -> Config | None:
    try:
        return load_config(start)
    except SpecError as exc:
        err.write(render_diagnostics(exc.diagnostics, fmt, {}) + "\n")
        return None


def print_diagnostics(bag: DiagnosticBag, sources: dict[str, str], fmt: str,
                       out: TextIO, color: bool, *, strict: bool = False,
                       vendor: bool = False) -> list[Diagnostic]:
    """Every diagnostic in ``fmt``, the findings about imported MCP servers folded into
    one line per server unless ``vendor`` asks for them in full (what would fail the run,
    an error or under ``strict`` a warning, is never folded: :mod:`toolc.report.vendored`).
    Returns the diagnostics shown in full."""
    shown, servers = shown_diagnostics(bag, sources, strict=strict, vendor=vendor)
    if fmt == "json":
        out.write(diagnostics_json(shown, vendor=[s.as_json() for s in servers]) + "\n")
        return shown
    if shown:
        out.write(render_diagnostics(shown, fmt, sources, color=color) + "\n")
    if servers:
        out.write(render_folded(servers, fmt) + "\n")
    if fmt == "text":
        errors = sum(1 for d in shown if d.severity is Severity.ERROR)
        warnings = sum(1 for d in shown if d.severity is Severity.WARNING)
        if errors or warnings:
            out.write(f"{errors} error(s), {warnings} warning(s)\n")
    return shown


def shown_diagnostics(bag: DiagnosticBag, sources: dict[str, str], *, strict: bool,
                      vendor: bool) -> tuple[list[Diagnostic], list[PinnedServer]]:
    """The diagnostics to show in full, sorted, and the pinned servers whose findings
    are folded (none with ``vendor``)."""
    items = bag.sorted()
    return (items, []) if vendor else fold(items, sources, strict=strict)


def exit_code(bag: DiagnosticBag, strict: bool) -> int:
    if bag.has_errors or (strict and bag.has_warnings):
        return EXIT_ERRORS
    return EXIT_OK


def ci_fail_on(config: Config) -> str:
    """The threshold of the CI gate (``toolc diff``): ``[tool.toolc.diff] fail_on``."""
    fail_on = config.diff.get("fail_on") if isinstance(config.diff, dict) else None
    return fail_on if isinstance(fail_on, str) else "error"


# -- files a command writes in the project (toolc fmt, toolc stubs) -----------------------

def link_on_the_way(root: Path, path: Path) -> str | None:
    """The first symbolic link from ``root`` (excluded) down to ``path`` (included)."""
    here = root
    for part in path.relative_to(root).parts:
        here = here / part
        with contextlib.suppress(OSError):
            if stat.S_ISLNK(os.lstat(here).st_mode):
                return str(here.relative_to(root))
    return None


def replace_file(path: Path, data: bytes) -> None:
    """Write ``data`` beside ``path``, sync it, and rename it over ``path``."""
    mode = stat.S_IMODE(os.lstat(path).st_mode)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".toolc-tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_dir(path.parent)
