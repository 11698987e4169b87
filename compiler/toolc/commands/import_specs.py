"""``toolc import``: pin the tools of MCP servers into a spec."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

from .common import EXIT_ERRORS, config_or_report


def run_import(*, stdio: str | None, http: str | None, saved: str | None,
               config_file: str | None, module: str | None, out_path: str | None,
               env: Sequence[str] = (), headers: Sequence[str] = (), cwd: str | None = None,
               force: bool = False, timeout_s: float = 30.0, out: TextIO | None = None,
               err: TextIO | None = None) -> int:
    """Pin the tools of MCP servers into a spec (see toolc.importer.command)."""
    # lazy: loads anyio, pydantic, yaml
    from ..importer.command import ImportRequest
    from ..importer.command import run_import as run

    out = out or sys.stdout
    err = err or sys.stderr
    config = config_or_report("text", err)
    if config is None:
        return EXIT_ERRORS
    request = ImportRequest(stdio=stdio, http=http, saved=saved, config_file=config_file,
                            module=module, out=out_path, env=env, headers=headers, cwd=cwd,
                            force=force, timeout_s=timeout_s)
    return run(config, request, out=out, err=err)
