"""``toolc serve``: a target's toolset served to real MCP clients over stdio or HTTP.

The server is the runtime's (``toolc.runtime.to_mcp_server``), made for the toolset that
:mod:`toolc.serving.targets` opened, with the deps ``--deps`` names made per client
session. Logs go to stderr only: on stdio, stdout is the protocol. SIGINT and SIGTERM
stop the server cleanly. What HTTP clients may do is in :mod:`toolc.serving.http`, how
stdio answers what it cannot read in :mod:`toolc.serving.stdio`;
``--reload`` runs a watch beside the server (:mod:`toolc.serving.reload`).
"""

from __future__ import annotations

import contextlib
import logging
import signal
import sys
from collections.abc import Callable
from typing import Any, TextIO

from ..collector import freeze_start_up
from ..config import Config
from ..runtime.tool import LazyRef, LazyRefError
from .http import HttpOptions, run_http
from .reload import Reloader
from .stdio import run_stdio
from .targets import ServeError, Target, open_target

log = logging.getLogger("toolc.serve")


def serve(config: Config, target: str, *, toolset_name: str | None = None,
          transport: str = "stdio", http: HttpOptions | None = None, pinned: bool = False,
          expose_errors: bool = False, deps: str | None = None,
          err: TextIO | None = None, reload: bool = False,
          page_size: int | None = None) -> int:
    """Serve until the client goes away or a signal arrives; the exit code.

    ``deps``: ``package.module:factory``, imported from the python path; the factory is
    called per client session for the deps its predicates and handlers receive.

    ``expose_errors``: an unexpected exception of a tool reaches the client with its
    type and message; without it, as "internal error in tool X (ref N)" (details logged).

    ``reload``: serve the target anew after each change to it (:mod:`toolc.serving.reload`).

    ``page_size``: tools per tools/list page (default: the runtime's, 100).
    """
    err = err or sys.stderr
    # lazy: loads anyio
    import anyio

    logging.basicConfig(stream=err, level=logging.INFO,
                        format="toolc serve: %(levelname)s %(message)s")
    try:
        _sigterm_unwinds()
        with open_target(config, target, toolset_name, err, pinned=pinned) as chosen:
            # lazy: loads mcp (about a second)
            from ..runtime.server.toolset_server import to_mcp_server

            server = to_mcp_server(chosen.toolset, name=chosen.name, version=chosen.version,
                                   instructions=chosen.instructions,
                                   expose_errors=expose_errors,
                                   deps_factory=_deps_factory(deps) if deps else None,
                                   **({} if page_size is None else {"page_size": page_size}))
            beside = _reloader(config, target, toolset_name, pinned, err, server,
                               chosen) if reload else None
            if not reload:  # (a reload drops the old module: frozen, its cycles would stay)
                freeze_start_up()  # toolc.collector: listings no longer walk start-up's heap
            if transport == "stdio":
                anyio.run(run_stdio, server, beside)
            else:
                anyio.run(run_http, server, http or HttpOptions(), beside)
    except ServeError as exc:  # (a reload's says what is served instead: serving/reload.py)
        err.write(f"error: {exc}; nothing is served\n")
        return exc.code
    except KeyboardInterrupt:
        pass
    log.info("stopped")
    return 0


def _sigterm_unwinds() -> None:
    """SIGTERM during start-up unwinds as Ctrl-C does, so the package staged for a spec
    is removed from the temporary folder (by default the process just ended, and left it
    there); once serving, anyio's receiver takes SIGTERM (``until_signal``)."""
    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    with contextlib.suppress(ValueError):  # not in the main thread (a test's server)
        signal.signal(signal.SIGTERM, interrupt)


def _reloader(config: Config, target: str, toolset_name: str | None, pinned: bool,
              err: TextIO, server: Any, chosen: Target) -> Callable[[], Any]:
    return Reloader(config, target, toolset_name=toolset_name, pinned=pinned, err=err,
                    server=server, module_file=getattr(chosen.module, "__file__", None)).run


def _deps_factory(reference: str) -> Any:
    """The callable ``reference`` names (``--deps`` / ``serve-deps``)."""
    try:
        factory = LazyRef.parse(reference).resolve()
    except (ValueError, LazyRefError) as exc:
        raise ServeError(f"--deps: {exc}") from None
    if not callable(factory):
        raise ServeError(f"--deps: {reference} is not callable")
    return factory
