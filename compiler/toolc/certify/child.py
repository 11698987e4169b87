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

Messages are the typed records below, sent as length-prefixed pickles: the build
process sends an :class:`Announce` as each module's file is written and :class:`AllSent`
at the end, and hears :class:`Started` before a module (or one it needs) is imported and
:class:`Done` once its result file is in place. So a crash is blamed on the module that
was being served when it happened. Once the build has read every result it sends
:class:`Finished`: the process removes the folder and ends while the build goes on (the
build still stops its process group and reaps it at the end, whatever it did). Results
(:class:`Listed` or :class:`Failed`) go through files, not the pipe, so that neither
side can block the other with a full pipe.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import pickle
import select
import shutil
import signal
import struct
import sys
import traceback
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from ..graphs import reachable
from ..ir import ToolIR

if TYPE_CHECKING:
    from .compare import ContextListing

HEADER = struct.Struct(">I")
StandIns = list[tuple[str, tuple[ToolIR, ...]]]   # module attribute -> pinned tools
Collecting = Callable[[], AbstractContextManager[object]]  # a garbage collector policy


@dataclass(frozen=True, slots=True)
class Announce:
    """Build -> process: the module's file is written; what serving it takes."""

    module: str
    imports: tuple[str, ...]               # the generated modules it imports
    stand_ins: StandIns                    # in place of its mcp toolsets
    contexts: tuple[tuple[str, str], ...]  # declared certification contexts: (name, ref)
    # False when a new process hears of a module again only for its stand-ins (it was
    # served by the process that died).
    serve: bool = True


@dataclass(frozen=True, slots=True)
class AllSent:
    """Build -> process: every module is announced."""


@dataclass(frozen=True, slots=True)
class Finished:
    """Build -> process: every result is read; remove the folder and end."""


@dataclass(frozen=True, slots=True)
class Started:
    """Process -> build: importing the module (or running its code) begins: a crash from
    here on is the module's."""

    module: str


@dataclass(frozen=True, slots=True)
class Done:
    """Process -> build: the module's result file is in place."""

    module: str


Message = Announce | AllSent | Finished | Started | Done
_MESSAGES = (Announce, AllSent, Finished, Started, Done)


@dataclass(frozen=True, slots=True)
class Listed:
    """A module's result: what its export listed in each context (``certify.list_contexts``)."""

    listings: list[ContextListing]


@dataclass(frozen=True, slots=True)
class Failed:
    """A module's result: it could not be served, and why, in words."""

    why: str


Result = Listed | Failed


class Channel:
    """Pickled messages over one pipe end to read and one to write."""

    def __init__(self, read_fd: int, write_fd: int) -> None:
        self.read_fd = read_fd
        self.write_fd = write_fd
        self.buffer = bytearray()

    def send(self, message: Message) -> None:
        """Raises ``BrokenPipeError`` when the other side is gone."""
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        view = memoryview(HEADER.pack(len(data)) + data)
        while view:
            view = view[os.write(self.write_fd, view):]

    def receive(self, timeout: float | None) -> Message | None:
        """The next message, or None when none came within ``timeout`` seconds (None:
        wait for one). Raises ``EOFError`` when the other side closed its end, or sent
        something that is not a message (it is then as good as gone)."""
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

    def _parsed(self) -> Message | None:
        if len(self.buffer) < HEADER.size:
            return None
        (size,) = HEADER.unpack_from(self.buffer)
        if len(self.buffer) < HEADER.size + size:
            return None
        message = pickle.loads(self.buffer[HEADER.size:HEADER.size + size])
        del self.buffer[:HEADER.size + size]
        if not isinstance(message, _MESSAGES):  # both sides end on EOFError: a lost peer
            raise EOFError(  # noqa: TRY004 - not a caller's type error: the pipe is broken
                f"the certifier's pipe carried a {type(message).__name__}, not a message")
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
              parent: int, collecting: Collecting) -> NoReturn:
    """The forked process's whole life; it never returns into the build's own code.
    ``collecting``: the build's garbage collector policy for user code, entered once the
    SDK is imported (the collector is as the build had it when it forked: paused)."""
    status = 70
    try:
        _keep_off_the_terminal()
        _import_sdk()
        # Certifying writes nothing in the project, not even the bytecode caches of the
        # user's modules (a checking build must leave the checkout as it was).
        sys.dont_write_bytecode = True
        sys.path[:0] = [str(stage.root), *(str(p) for p in python_path)]
        # lazy: loads anyio
        import anyio

        with collecting():
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
    from ..runtime.mcp.listing import list_raw_tools  # noqa: F401
    from ..runtime.mcp.pinned import PinnedToolset  # noqa: F401
    from ..runtime.mcp_server.toolset_server import to_mcp_server  # noqa: F401
    from .compare import list_over_mcp  # noqa: F401


def module_closure(name: str, imports_of: Callable[[str], Iterable[str]]) -> set[str]:
    """``name`` and every module it imports, directly or not: the one closure over module
    imports, for the build (which modules a failure takes down) and for this process
    (which modules must be written before one can be served)."""
    return set(reachable([name], imports_of))


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
    finished: bool = False  # the build has every result (Finished)

    async def serve(self) -> None:
        try:
            while True:
                self._take_waiting_messages()
                name = None if self.finished else self._next_ready()
                if name is not None:
                    await self.certify(name)
                elif self.finished:
                    # Removed here, the build need not: it commits meanwhile, on the other core.
                    shutil.rmtree(self.stage.root, ignore_errors=True)
                    return
                else:
                    self._take(self.channel.receive(None))
        except (EOFError, BrokenPipeError):
            return  # the build process is gone (or stopping this one): nobody to serve

    def _take_waiting_messages(self) -> None:
        while (message := self.channel.receive(0)) is not None:
            self._take(message)

    def _take(self, message: Message | None) -> None:
        if isinstance(message, AllSent):
            self.all_sent = True
        elif isinstance(message, Finished):
            self.finished = True
        elif isinstance(message, Announce):
            name = message.module
            self.imports[name] = message.imports
            self.stand_ins[name] = message.stand_ins
            self.contexts[name] = list(message.contexts)
            if message.serve:  # else announced only for what stands in for its pinned sets
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
        return module_closure(name, lambda current: self.imports.get(current, ()))

    async def certify(self, name: str) -> None:
        # lazy: 4 more toolc module(s), only when this runs
        from .compare import failure_text, list_contexts

        result: Result
        try:
            for needed in sorted(self.needs(name) - {name}):
                self._stand_in(needed)
            self.channel.send(Started(name))
            self._stand_in(name)
            mod = importlib.import_module(f"{self.stage.package}.{name}")
            result = Listed(await list_contexts(mod.toolset, self.contexts.get(name, [])))
        except (Exception, SystemExit, BaseExceptionGroup) as exc:  # noqa: BLE001 - user code
            result = Failed(failure_text(exc))
        target = self.stage.result_file(name)
        target.parent.mkdir(exist_ok=True)
        partial = target.with_suffix(".partial")
        partial.write_bytes(pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(partial, target)
        self.channel.send(Done(name))

    def _stand_in(self, name: str) -> None:
        """Pinned definitions (or none) in place of the module's ``mcp`` toolsets, before any
        of its toolsets is built (as ``toolc.runtime.mcp.pinned.stand_in_pinned`` does)."""
        # lazy: 1 more toolc module(s), only when this runs
        from ..runtime.mcp.pinned import PinnedToolset

        if name in self.stood_in or not self.stand_ins.get(name):
            return
        self.stood_in.add(name)
        self.channel.send(Started(name))  # its import is what may fail from here on
        try:
            mod = importlib.import_module(f"{self.stage.package}.{name}")
        except Exception:  # noqa: BLE001 - whoever serves the module says why it fails
            return
        for attribute, tools in self.stand_ins[name]:
            setattr(mod, attribute, PinnedToolset(tools))
