"""What runs in the certifying process (see ``toolc.certify.process``), and the pipe it talks on.

The process is forked at the start of a build, before the specs are even loaded. It
imports the mcp SDK (the longest single step of a certified build) while the build
process loads, analyses and generates; then, for each generated module as it is
announced, it imports the module (compiling it), puts the pinned definitions in place
of its ``mcp`` toolsets (none for one that pins nothing: no server is started or
contacted), lists the module's ``toolset`` through a real mcp Client
and Server in-process, and leaves the raw listing (or the error, in words) in a result
file. The build process compares the listings with the IR and reports: diagnostics are
made in one place only.

Messages are length-prefixed pickles; the build process sends
``("module", name, imports, stand_ins, contexts, serve)`` as each module's file is written and
``("all_sent",)`` at the end, and hears ``("start", name)`` before a module (or one it
needs) is imported and ``("done", name)`` once its result file is in place. So a crash
is blamed on the module that was being served when it happened. Results go through
files, not the pipe, so that neither side can block the other with a full pipe.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import os
import pickle
import select
import shutil
import signal
import struct
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from ..ir import ToolIR

HEADER = struct.Struct(">I")
StandIns = list[tuple[str, tuple[ToolIR, ...]]]   # module attribute -> pinned tools


class Channel:
    """Pickled messages over one pipe end to read and one to write."""

    def __init__(self, read_fd: int, write_fd: int) -> None:
        self.read_fd = read_fd
        self.write_fd = write_fd
        self.buffer = bytearray()

    def send(self, message: tuple[Any, ...]) -> None:
        """Raises ``BrokenPipeError`` when the other side is gone."""
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        view = memoryview(HEADER.pack(len(data)) + data)
        while view:
            view = view[os.write(self.write_fd, view):]

    def receive(self, timeout: float | None) -> tuple[Any, ...] | None:
        """The next message, or None when none came within ``timeout`` seconds (None:
        wait for one). Raises ``EOFError`` when the other side closed its end."""
        while True:
            message = self._parsed()
            if message is not None:
                return message
            ready, _, _ = select.select([self.read_fd], [], [], timeout)
            if not ready:
                return None
            chunk = os.read(self.read_fd, 1 << 16)
            if not chunk:
                raise EOFError("the other side of the certifier's pipe closed it")
            self.buffer += chunk

    def _parsed(self) -> tuple[Any, ...] | None:
        if len(self.buffer) < HEADER.size:
            return None
        (size,) = HEADER.unpack_from(self.buffer)
        if len(self.buffer) < HEADER.size + size:
            return None
        message: tuple[Any, ...] = pickle.loads(self.buffer[HEADER.size:HEADER.size + size])
        del self.buffer[:HEADER.size + size]
        return message

    def close(self) -> None:
        for fd in (self.read_fd, self.write_fd):
            with contextlib.suppress(OSError):
                os.close(fd)


@dataclass(slots=True)
class Stage:
    """The throwaway folder the build's modules are written to, as package ``package``."""

    root: Path
    package: str

    @property
    def package_dir(self) -> Path:
        return self.root / self.package

    def result_file(self, module: str) -> Path:
        return self.root / "results" / f"{module}.pickle"


def run_child(channel: Channel, stage: Stage, python_path: tuple[Path, ...],
              parent: int) -> NoReturn:
    """The forked process's whole life; it never returns into the build's own code."""
    status = 70
    try:
        _keep_off_the_terminal()
        gc.disable()  # importing the SDK makes no garbage worth a collector's pass
        _import_sdk()
        # Certifying writes nothing in the project, not even the bytecode caches of the
        # user's modules (a checking build must leave the checkout as it was).
        sys.dont_write_bytecode = True
        sys.path[:0] = [str(stage.root), *(str(p) for p in python_path)]
        # User code and the SDK make cyclic garbage while serving: collect it, without
        # rescanning everything imported so far.
        gc.freeze()
        gc.enable()
        # lazy: loads anyio
        import anyio

        anyio.run(Session(channel, stage).serve)
        status = 0
    except BaseException:  # noqa: BLE001 - say why on stderr; the build reports TC503
        with contextlib.suppress(BaseException):
            traceback.print_exc()
    finally:
        if os.getppid() != parent:  # the build died without cleaning up: do it for it
            shutil.rmtree(stage.root, ignore_errors=True)
        os._exit(status)


def _keep_off_the_terminal() -> None:
    """User code may print: stdout may carry the build's ``--format json``, so whatever
    is printed here goes to stderr. Ctrl-C is for the build process, which stops this one
    (its process group, with whatever user code started); a Python-level handler, not
    SIG_IGN, so that programs started from here still get it."""
    signal.signal(signal.SIGINT, lambda signum, frame: None)
    with contextlib.suppress(OSError):  # its own group: stopped with what it started
        os.setpgid(0, 0)
    os.dup2(2, 1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)


def _import_sdk() -> None:
    # lazy: imported ahead on purpose, while the build does other work
    import anyio  # noqa: F401
    from mcp import Client  # noqa: F401

    # lazy: imported ahead on purpose, while the build does other work
    from ..runtime.mcp_listing import list_raw_tools  # noqa: F401
    from ..runtime.pinned import PinnedToolset  # noqa: F401
    from ..runtime.server import to_mcp_server  # noqa: F401
    from .compare import list_over_mcp  # noqa: F401


@dataclass(slots=True)
class Session:
    """The modules announced so far and which of them are served."""

    channel: Channel
    stage: Stage
    imports: dict[str, tuple[str, ...]] = field(default_factory=dict)  # announced modules
    stand_ins: dict[str, StandIns] = field(default_factory=dict)
    contexts: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # declared
    waiting: list[str] = field(default_factory=list)                   # in announced order
    stood_in: set[str] = field(default_factory=set)
    all_sent: bool = False

    async def serve(self) -> None:
        try:
            while True:
                self._take_waiting_messages()
                name = self._next_ready()
                if name is not None:
                    await self.certify(name)
                elif self.all_sent:
                    return
                else:
                    self._take(self.channel.receive(None))
        except (EOFError, BrokenPipeError):
            return  # the build process is gone: nobody to serve

    def _take_waiting_messages(self) -> None:
        while (message := self.channel.receive(0)) is not None:
            self._take(message)

    def _take(self, message: tuple[Any, ...] | None) -> None:
        if message is None:
            return
        if message[0] == "all_sent":
            self.all_sent = True
            return
        _, name, imports, stand_ins, contexts, serve = message
        self.imports[name] = tuple(imports)
        self.stand_ins[name] = stand_ins
        self.contexts[name] = list(contexts)
        if serve:  # else announced only for what stands in for its pinned toolsets
            self.waiting.append(name)

    def _next_ready(self) -> str | None:
        """The first announced module whose file, and the files of every module it needs,
        are written (all of them once everything is sent: a module the build never
        announced fails to import, as it would in the build process)."""
        for name in self.waiting:
            if self.all_sent or self.needs(name) <= self.imports.keys():
                self.waiting.remove(name)
                return name
        return None

    def needs(self, name: str) -> set[str]:
        """``name`` and every module it needs, directly or not, as far as announced."""
        seen, todo = set(), [name]
        while todo:
            current = todo.pop()
            if current not in seen:
                seen.add(current)
                todo.extend(self.imports.get(current, ()))
        return seen

    async def certify(self, name: str) -> None:
        # lazy: 4 more toolc module(s), only when this runs
        from .compare import failure_text, list_contexts

        result: tuple[str, Any]
        try:
            for needed in sorted(self.needs(name) - {name}):
                self._stand_in(needed)
            self.channel.send(("start", name))
            self._stand_in(name)
            mod = importlib.import_module(f"{self.stage.package}.{name}")
            result = ("listed", await list_contexts(mod.toolset, self.contexts.get(name, [])))
        except (Exception, SystemExit, BaseExceptionGroup) as exc:  # noqa: BLE001 - user code
            result = ("failed", failure_text(exc))
        target = self.stage.result_file(name)
        target.parent.mkdir(exist_ok=True)
        partial = target.with_suffix(".partial")
        partial.write_bytes(pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(partial, target)
        self.channel.send(("done", name))

    def _stand_in(self, name: str) -> None:
        """Pinned definitions (or none) in place of the module's ``mcp`` toolsets, before any
        of its toolsets is built (as ``toolc.runtime.pinned.stand_in_pinned`` does)."""
        # lazy: 1 more toolc module(s), only when this runs
        from ..runtime.pinned import PinnedToolset

        if name in self.stood_in or not self.stand_ins.get(name):
            return
        self.stood_in.add(name)
        self.channel.send(("start", name))  # its import is what may fail from here on
        try:
            mod = importlib.import_module(f"{self.stage.package}.{name}")
        except Exception:  # noqa: BLE001 - whoever serves the module says why it fails
            return
        for attribute, tools in self.stand_ins[name]:
            setattr(mod, attribute, PinnedToolset(tools))
