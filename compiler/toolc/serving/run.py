"""One serve from start to end: a target's toolset served to real MCP clients over stdio
or HTTP until the client leaves or a signal comes.

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
from .http import HttpOptions, run_http
from .http_auth import load_auth
from .reload import Reloader
from .state_keys import load_state_keys, refuse_unshared_approval, world_readable
from .stdio import run_stdio
from .targets import ServeError, Target, named_callable, open_target

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
            from ..runtime.mcp_server.toolset_server import to_mcp_server

            http = http or HttpOptions()
            states, auth = _replica_settings(http, chosen.name) if transport == "http" else (
                None, None)
            server = to_mcp_server(chosen.toolset, name=chosen.name, version=chosen.version,
                                   instructions=chosen.instructions,
                                   expose_errors=expose_errors,
                                   deps_factory=_deps_factory(deps) if deps else None,
                                   approval_states=states,
                                   **({} if page_size is None else {"page_size": page_size}))
            beside = _reloader(config, target, toolset_name, pinned, err, server,
                               chosen) if reload else None
            if not reload:  # (a reload drops the old module: frozen, its cycles would stay)
                freeze_start_up()  # toolc.collector: listings no longer walk start-up's heap
            if transport == "stdio":
                anyio.run(run_stdio, server, beside)
            else:
                anyio.run(_run_http, server, http, beside, auth, states is None)
    except ServeError as exc:  # (a reload's says what is still served: serving/reload.py)
        err.write(f"error: {exc}\n")
        return exc.code
    except KeyboardInterrupt:
        pass
    log.info("stopped")
    return 0


def _replica_settings(http: HttpOptions, name: str) -> tuple[Any, Any]:
    """The approval states under the shared key (None: a key of this process) and the
    bearer auth (None without --auth), from the HTTP options; ServeError when wrong."""
    keys = load_state_keys(http.state_key_file)
    if http.state_key_file is not None and world_readable(http.state_key_file):
        log.warning("--state-key-file %s can be read by every user of this machine",
                    http.state_key_file)
    states = None
    if keys is not None:
        # lazy: the approval states (stdlib only), when a key is given
        from ..runtime.mcp_server.approval_state import ApprovalStates

        states = ApprovalStates(keys, audience=name)
    return states, load_auth(http.auth, http.auth_issuer, http.resource_url, http.auth_scopes)


async def _run_http(server: Any, http: HttpOptions, beside: Callable[[], Any] | None,
                    auth: Any, unshared: bool) -> None:
    if http.stateless and unshared:
        await refuse_unshared_approval(server)
    await run_http(server, http, beside, auth)


def _sigterm_unwinds() -> None:
    """SIGTERM during start-up unwinds as Ctrl-C does, so what was opened is closed (the
    toolset's MCP connections, the served modules' import hooks) and the exit is clean (by
    default the process just ended); once serving, anyio's receiver takes SIGTERM
    (``until_signal``)."""
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
    return named_callable("--deps", reference)
