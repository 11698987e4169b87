"""The ``toolc import`` command: its options, once the project's configuration is read,
made into a request for :func:`toolc.importer.run.import_servers` (which lists, pins,
writes and checks), and its exit code.

    toolc import --stdio "npx -y @modelcontextprotocol/server-everything"
    toolc import --http https://example.com/mcp --header "Authorization=Bearer ..."
    toolc import --from tools.json --stdio "my-server --flag"     # not contacted
    toolc import --config claude_desktop_config.json --module desktop
"""

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
    """``toolc import``'s exit code (what an import does: :mod:`toolc.importer.run`)."""
    # lazy: loads anyio, pydantic, yaml
    from ..importer.run import ImportRequest, import_servers

    out = out or sys.stdout
    err = err or sys.stderr
    config = config_or_report("text", err)
    if config is None:
        return EXIT_ERRORS
    request = ImportRequest(stdio=stdio, http=http, saved=saved, config_file=config_file,
                            module=module, out=out_path, env=env, headers=headers, cwd=cwd,
                            force=force, timeout_s=timeout_s)
    return import_servers(config, request, out=out, err=err)
