"""The ``toolc serve`` command: its options checked (HTTP-only flags given over stdio,
a bind that the bind rule refuses, a malformed ``--allow-host`` or ``--allow-origin``:
usage errors), the project found from the target, then :func:`toolc.serving.run.serve`
runs it; the exit code."""

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
    stdio_only = _http_flags_on_stdio(http) if transport == "stdio" else None
    if stdio_only:
        err.write(f"error: {stdio_only} needs --transport http\n")
        return EXIT_USAGE
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


def _http_flags_on_stdio(http: HttpOptions) -> str | None:
    """The first HTTP-only flag given (that would be ignored over stdio), if any."""
    given = [("--stateless", http.stateless), ("--auth", http.auth is not None),
             ("--public-url", http.public_url is not None),
             ("--state-key-file", http.state_key_file is not None)]
    return next((flag for flag, on in given if on), None)
