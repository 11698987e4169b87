"""``toolc serve --pinned``: serve what a compiled module publishes, pinned servers included.

Plain ``toolc serve`` runs the module as an application would: a pinned ``mcp`` set lists
its live server. With ``--pinned`` each pinned set lists its pinned definitions instead
(exactly what the golden files hold, the server's extra fields included) and forwards
calls to the live server, connecting at the first call. Listing then needs no server,
and what a client lists is what the spec publishes: the import round trip
(import -> build -> serve --pinned -> tools/list) gives back the server's own JSON.

The target is a spec file or a generated module (``generated.thirdparty``), as for
``toolc serve``; the project's specs are compiled for their pinned definitions.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from ..build import SPEC_SUFFIX, compile_specs, render_outputs
from ..config import Config
from ..ir import ProjectIR
from ..loading import on_sys_path, staged_package
from ..report.diagnostics import render
from .pinned import stand_in_pinned


def serve_pinned(config: Config, target: str, *, toolset_name: str | None = None,
                 transport: str = "stdio", host: str = "127.0.0.1", port: int = 8000,
                 err: TextIO = sys.stderr) -> int:
    """Serve until the client goes away or a signal arrives; the exit code."""
    import anyio

    from .. import serve as plain
    from ..runtime.server import to_mcp_server

    logging.basicConfig(stream=err, level=logging.INFO,
                        format="toolc serve: %(levelname)s %(message)s")
    try:
        with _pinned_target(config, target, toolset_name, err) as chosen:
            server = to_mcp_server(chosen.toolset, name=chosen.name,
                                   instructions=chosen.instructions)
            runner = plain._run_stdio if transport == "stdio" else plain._run_http
            anyio.run(runner, server, host, port)
    except plain.ServeError as exc:
        err.write(f"error: {exc}\n")
        return 1
    except KeyboardInterrupt:
        pass
    logging.getLogger("toolc.serve").info("stopped")
    return 0


@contextlib.contextmanager
def _pinned_target(config: Config, target: str, toolset_name: str | None,
                   err: TextIO) -> Iterator[Any]:
    from ..serve import ServeError, _pick

    path = Path(target)
    spec = target.endswith(SPEC_SUFFIX) or path.is_file()
    if spec and not path.is_file():
        raise ServeError(f"no such spec: {path}")
    outside = spec and not any(path.resolve().is_relative_to(s.resolve()) for s in config.specs)
    compiled = compile_specs(config, (*config.specs, path) if outside else ())
    if compiled.project is None:
        err.write(render(compiled.bag.sorted(), "text", compiled.sources) + "\n")
        raise ServeError("the specs have errors; nothing is served")
    project = compiled.project
    if spec:
        name = _module_of(project, config.relative(path))
        with staged_package(render_outputs(project), config.python_path) as package:
            stand_in_pinned(package, project, forward_calls=True)
            yield _pick(importlib.import_module(f"{package}.{name}"), toolset_name)
        return
    with on_sys_path(config.root, *config.python_path):
        package, _, name = target.rpartition(".")
        if name not in project.modules:
            raise ServeError(f"{target} is not the generated module of a spec of this project")
        try:
            stand_in_pinned(package or None, project, forward_calls=True)
            module = importlib.import_module(target)
        except ImportError as exc:
            raise ServeError(f"cannot import {target}: {exc}") from None
        yield _pick(module, toolset_name)


def _module_of(project: ProjectIR, shown: str) -> str:
    from ..serve import ServeError

    for module in project.modules.values():
        if module.path == shown:
            return module.name
    raise ServeError(f"{shown} is not among the project's specs")
