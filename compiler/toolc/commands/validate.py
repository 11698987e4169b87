"""``toolc validate`` (check specs, write nothing) and ``toolc schema``."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from ..collector import collector_paused
from ..frontend import compile_specs
from ..specs import discover
from .common import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, config_or_report, exit_code, print_diagnostics


@collector_paused()  # the build GC policy, for the whole command (toolc.collector)
def validate(paths: Sequence[str], *, fmt: str = "text", strict: bool = False,
             out: TextIO | None = None, err: TextIO | None = None, color: bool = False,
             vendor: bool = False) -> int:
    """Check specs and report every problem; write nothing. Named ``paths`` are checked
    in the context of the whole project, and only what concerns them is reported
    (:mod:`toolc.commands.subset`). The findings about imported MCP servers are one line
    per server unless ``vendor`` (:mod:`toolc.report.vendored`)."""
    out = out or sys.stdout
    err = err or sys.stderr
    config = config_or_report(fmt, err)
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
        # lazy: 1 more toolc module(s), only when this runs
        from .subset import compile_subset

        compiled, named = compile_subset(config, targets)
    else:
        compiled, named = compile_specs(config), set()
    shown = print_diagnostics(compiled.bag, compiled.sources, fmt, out, color, strict=strict,
                              vendor=vendor)
    if fmt == "text" and not shown:
        count = len(compiled.project.modules) if compiled.project else 0
        if named:  # the others may have problems of their own, not reported here
            count = len(set(compiled.modules.values()))
        checked = f"{len(named)} spec(s) of " if named else ""
        servers = " but the imported servers' above" if compiled.bag.items else ""
        out.write(f"ok: {checked}{count} module(s), no problems{servers}\n")
    return exit_code(compiled.bag, strict)


def print_schema(out: TextIO | None = None) -> int:
    out = out or sys.stdout
    # lazy: loads pydantic
    from ..model import spec_json_schema

    out.write(json.dumps(spec_json_schema(), indent=2, ensure_ascii=False) + "\n")
    return EXIT_OK
