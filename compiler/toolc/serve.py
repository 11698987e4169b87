"""``toolc serve``: serve a compiled toolset to real MCP clients over stdio or HTTP.

The target is a spec file (``specs/workbench.toolc.yaml``: the project is compiled in
memory, so what is served is exactly what the spec says now) or an importable module
(``generated.workbench``). Handlers are imported at this point, from the configured
``python-path``. Logs go to stderr only: on stdio, stdout is the protocol. SIGINT and
SIGTERM stop the server cleanly. What HTTP clients may do is in :mod:`toolc.serve_http`.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import signal
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, TextIO

from .build import SPEC_SUFFIX, compile_specs, render_outputs
from .config import Config
from .ir import ProjectIR
from .loading import on_sys_path, staged_package
from .report.diagnostics import render
from .serve_http import HttpOptions

log = logging.getLogger("toolc.serve")


class ServeError(Exception):
    """A target that cannot be served; the message says why (exit 1)."""


@dataclass(frozen=True, slots=True)
class Target:
    module: ModuleType
    toolset: Any
    name: str
    instructions: str | None


@contextlib.contextmanager
def open_target(config: Config, target: str, toolset_name: str | None, err: TextIO,
                *, pinned: bool = False) -> Iterator[Target]:
    """Import what ``target`` names and pick its toolset (default: the export).

    ``pinned``: every ``mcp`` set with pinned tools lists its pinned definitions (what
    the golden files hold) and forwards calls to its live server, connecting at the first
    call; without it, such a set lists the live server as an application would.
    """
    path = Path(target)
    spec = target.endswith(SPEC_SUFFIX) or path.is_file()
    if spec and not path.is_file():
        raise ServeError(f"no such spec: {path}")
    if not spec and not pinned:
        with on_sys_path(config.root, *config.python_path):
            yield _pick(_import(target), toolset_name)
        return
    project = _compile(config, path if spec and _outside(config, path) else None, err)
    if not spec:
        package, _, name = target.rpartition(".")
        if name not in project.modules:
            raise ServeError(f"{target} is not the generated module of a spec of this project")
        with on_sys_path(config.root, *config.python_path):
            _stand_in(package or None, project)
            yield _pick(_import(target), toolset_name)
        return
    shown = config.relative(path)
    module = next((m for m in project.modules.values() if m.path == shown), None)
    if module is None:
        raise ServeError(f"{shown} is not among the project's specs")
    with staged_package(render_outputs(project), config.python_path) as package:
        if pinned:
            _stand_in(package, project)
        yield _pick(_import(f"{package}.{module.name}"), toolset_name)


def _deps_factory(reference: str) -> Any:
    """The callable ``reference`` names (``--deps`` / ``serve-deps``)."""
    from .runtime.tool import LazyRef, LazyRefError

    try:
        factory = LazyRef.parse(reference).resolve()
    except (ValueError, LazyRefError) as exc:
        raise ServeError(f"--deps: {exc}") from None
    if not callable(factory):
        raise ServeError(f"--deps: {reference} is not callable")
    return factory


def _compile(config: Config, extra: Path | None, err: TextIO) -> ProjectIR:
    compiled = compile_specs(config, (*config.specs, extra) if extra else ())
    if compiled.project is None:
        err.write(render(compiled.bag.sorted(), "text", compiled.sources) + "\n")
        raise ServeError("the specs have errors; nothing is served")
    return compiled.project


def _stand_in(package: str | None, project: ProjectIR) -> None:
    from .importer.pinned import stand_in_pinned

    stand_in_pinned(package, project, forward_calls=True)


def _import(name: str) -> ModuleType:
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise ServeError(f"cannot import {name}: {exc}") from None


def _outside(config: Config, path: Path) -> bool:
    resolved = path.resolve()
    return not any(resolved == s.resolve() or resolved.is_relative_to(s.resolve())
                   for s in config.specs)


def _pick(module: ModuleType, toolset_name: str | None) -> Target:
    from .runtime import AbstractToolset

    attr = toolset_name or "toolset"
    toolset = getattr(module, attr, None)
    if not isinstance(toolset, AbstractToolset):
        known = sorted(n for n in getattr(module, "__all__", ())
                       if isinstance(getattr(module, n, None), AbstractToolset))
        raise ServeError(f"module {module.__name__.split('.')[-1]} has no toolset {attr!r}"
                         + (f" (toolsets: {', '.join(known)})" if known else ""))
    name = module.__name__.split(".")[-1]
    return Target(module, toolset, name, (module.__doc__ or "").strip() or None)


def serve(config: Config, target: str, *, toolset_name: str | None = None,
          transport: str = "stdio", http: HttpOptions | None = None, pinned: bool = False,
          expose_errors: bool = False, deps: str | None = None,
          err: TextIO | None = None) -> int:
    """Serve until the client goes away or a signal arrives; the exit code.

    ``deps``: ``package.module:factory``, imported from the python path; the factory is
    called per client session for the deps its predicates and handlers receive.

    ``expose_errors``: an unexpected exception of a tool reaches the client with its
    type and message; without it, as "internal error in tool X (ref N)" (details logged).
    """
    err = err or sys.stderr
    import anyio

    logging.basicConfig(stream=err, level=logging.INFO,
                        format="toolc serve: %(levelname)s %(message)s")
    try:
        with open_target(config, target, toolset_name, err, pinned=pinned) as chosen:
            from .runtime.server import to_mcp_server

            server = to_mcp_server(chosen.toolset, name=chosen.name,
                                   instructions=chosen.instructions,
                                   expose_errors=expose_errors,
                                   deps_factory=_deps_factory(deps) if deps else None)
            if transport == "stdio":
                anyio.run(_run_stdio, server)
            else:
                from .serve_http import run_http

                anyio.run(run_http, server, http or HttpOptions())
    except ServeError as exc:
        err.write(f"error: {exc}\n")
        return 1
    except KeyboardInterrupt:
        pass
    log.info("stopped")
    return 0


async def until_signal(stop: Any, *, task_status: Any) -> None:
    """Call ``stop()`` on SIGINT or SIGTERM; started before serving, so none is missed."""
    import anyio

    with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        task_status.started()
        async for signum in signals:
            log.info("%s received, shutting down", signal.Signals(signum).name)
            stop()
            return


async def _run_stdio(server: Any) -> None:
    import anyio
    from mcp.server.stdio import stdio_server

    async with anyio.create_task_group() as tg:
        await tg.start(until_signal, tg.cancel_scope.cancel)
        log.info("serving %s over stdio", server.name)
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())
        tg.cancel_scope.cancel()  # the client closed stdin: done
