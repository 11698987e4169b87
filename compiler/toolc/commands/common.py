"""What the commands share: the exit codes, reading the configuration, printing diagnostics.

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

from pathlib import Path
from typing import TextIO

from ..config import Config, load_config
from ..diagnostics import DiagnosticBag, Severity, SpecError
from ..report.diagnostic_formats import render

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2


def config_or_report(fmt: str, err: TextIO, start: Path | None = None) -> Config | None:
    try:
        return load_config(start)
    except SpecError as exc:
        err.write(render(exc.diagnostics, fmt, {}) + "\n")
        return None


def print_diagnostics(bag: DiagnosticBag, sources: dict[str, str], fmt: str,
                       out: TextIO, color: bool) -> None:
    items = bag.sorted()
    if fmt == "json":
        out.write(render(items, "json", sources) + "\n")
        return
    if items:
        out.write(render(items, fmt, sources, color=color) + "\n")
    if fmt == "text":
        errors = sum(1 for d in items if d.severity is Severity.ERROR)
        warnings = sum(1 for d in items if d.severity is Severity.WARNING)
        if errors or warnings:
            out.write(f"{errors} error(s), {warnings} warning(s)\n")


def exit_code(bag: DiagnosticBag, strict: bool) -> int:
    if bag.has_errors or (strict and bag.has_warnings):
        return EXIT_ERRORS
    return EXIT_OK


def ci_fail_on(config: Config) -> str:
    """The threshold of the CI gate (``toolc diff``): ``[tool.toolc.diff] fail_on``."""
    fail_on = config.diff.get("fail_on") if isinstance(config.diff, dict) else None
    return fail_on if isinstance(fail_on, str) else "error"
