"""``toolc serve``: the bind rule checked, then a toolset served over stdio or HTTP."""

from __future__ import annotations

import sys
from typing import TextIO

from ..serving.http import BindRefused, HttpOptions, check_bind, host_policy
from .common import EXIT_ERRORS, EXIT_USAGE, config_or_report


def run_serve(target: str, *, toolset_name: str | None, transport: str,
              http: HttpOptions | None = None, pinned: bool = False,
              expose_errors: bool = False, deps: str | None = None,
              err: TextIO | None = None, reload: bool = False,
              page_size: int | None = None) -> int:
    """Serve a toolset; over HTTP, refuse a non-loopback bind without ``allow_remote``.
    ``deps`` (else ``[tool.toolc] serve-deps``) names the session deps factory."""
    err = err or sys.stderr
    # lazy: loads pydantic, yaml
    from ..serving.run import serve

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
    # lazy: loads pydantic, yaml
    from ..serving.targets import project_start

    # A spec's project is found from the spec, so it can be served from any folder.
    config = config_or_report("text", err, start=project_start(target))
    if config is None:
        return EXIT_ERRORS
    return serve(config, target, toolset_name=toolset_name, transport=transport, http=http,
                 pinned=pinned, expose_errors=expose_errors,
                 deps=deps or config.serve_deps, err=err, reload=reload,
                 page_size=page_size)
