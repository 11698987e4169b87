"""Certification in a process forked at the start of a build.

Importing the mcp SDK takes about as long as loading, analysing and generating a
thousand tools, and importing (compiling) the generated modules most of a second more.
So a certifying build forks a certifying process before it loads the specs
(:func:`early_certifier`): that process imports the SDK while the build runs its front
end, then imports and lists each generated module as soon as the build has written it
(:meth:`Certifier.module_generated`), while the build generates the next one. When
everything is generated, :meth:`Certifier.certify` hands over what is left, compiles
modules from the last one backwards while the process imports from the first, and
compares the listings it gets back with the IR, reporting exactly as the in-process
``toolc.certify.compare.certify_build`` does (what runs in the process is in
``toolc.certify.child``).

When the process dies (user code calling ``os._exit``, a signal) or a module takes
longer than :data:`ANSWER_TIMEOUT_S`, the module being served gets a TC503, so do the
modules that need it, and a new process serves the rest. Without ``os.fork``, or with
other threads running (a fork copies their locks in whatever state), there is no
process: the build certifies in-process as before. When the build has every result it
does not wait for the process: it tells it so (``Finished``), and the process removes its
folder and ends while the build commits; at the end of the build (:meth:`Certifier.stop`,
which :func:`early_certifier` calls) its process group is killed, whatever user code
started in it, the process reaped and the folder removed if it is still there. When the
build ends early (errors, Ctrl-C) all that happens at once; when the build process is
gone, the process finds its pipe closed, removes the folder and ends.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib.util
import os
import pickle
import py_compile
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..diagnostics import Diagnostic, DiagnosticBag
from ..ir import ModuleIR, ProjectIR
from ..output.staging import can_fork
from .child import (
    AllSent,
    Announce,
    Channel,
    Collecting,
    Done,
    Failed,
    Finished,
    Listed,
    Message,
    Result,
    Stage,
    StandIns,
    Started,
    module_closure,
    run_child,
)
from .verdicts import Verdict, replay, used_marks, verdict_of

ANSWER_TIMEOUT_S = 120.0   # the longest the process may go without a word while serving
INIT = "__init__.py"       # the package's own module: written before any module is announced


@contextlib.contextmanager
def early_certifier(python_path: Sequence[Path], *, wanted: bool,
                    collecting: Collecting = contextlib.nullcontext
                    ) -> Iterator[Certifier | None]:
    """A certifier forked now if ``wanted`` and possible (None otherwise), stopped at the
    end. ``collecting`` is the garbage collector's policy while it serves user code (the
    build's: ``toolc.collector.collector_for_user_code``)."""
    certifier = Certifier.start(python_path, collecting) if wanted else None
    try:
        yield certifier
    finally:
        if certifier is not None:
            certifier.stop()


@dataclass(slots=True)
class _Process:
    """One forked certifying process and the pipe to it."""

    pid: int
    channel: Channel
    status: int | None = None

    @classmethod
    def fork(cls, stage: Stage, python_path: tuple[Path, ...],
             collecting: Collecting) -> _Process:
        from_parent, to_child = os.pipe()
        from_child, to_parent = os.pipe()
        parent = os.getpid()
        for stream in (sys.stdout, sys.stderr):  # or the child holds (and may print) a copy
            with contextlib.suppress(Exception):
                stream.flush()
        try:
            pid = os.fork()
        except OSError:
            for fd in (from_parent, to_child, from_child, to_parent):
                os.close(fd)
            raise
        if pid == 0:
            os.close(to_child)
            os.close(from_child)
            run_child(Channel(from_parent, to_parent), stage, python_path, parent, collecting)
        with contextlib.suppress(OSError):  # as the child does: no race on who is first
            os.setpgid(pid, pid)
        os.close(from_parent)
        os.close(to_parent)
        return cls(pid, Channel(from_child, to_child))

    def end(self, grace_s: float = 0.0) -> str:
        """Wait up to ``grace_s`` for the process to end, then kill it and its process group
        (whatever user code started in it, an MCP server say); how it ended."""
        self.channel.close()
        if self.status is None:
            deadline = time.monotonic() + grace_s
            while not self._ended() and time.monotonic() < deadline:
                time.sleep(0.005)
            # Killed before it is reaped: until then its pid, the group's id, is not reused.
            for kill in (os.killpg, os.kill):
                with contextlib.suppress(OSError):
                    kill(self.pid, signal.SIGKILL)
            try:
                self.status = os.waitpid(self.pid, 0)[1]
            except ChildProcessError:  # reaped by someone else (SIGCHLD ignored)
                self.status = 0
        return _describe_status(self.status)

    def _ended(self) -> bool:
        """Whether the process has ended, without reaping it (where that cannot be asked:
        yes, so it is killed at once; an ended one keeps its own status)."""
        if not hasattr(os, "waitid"):
            return True
        try:
            return os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
        except ChildProcessError:
            return True


def _describe_status(status: int) -> str:
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        with contextlib.suppress(ValueError):
            return f"killed by signal {signal.Signals(number).name}"
        return f"killed by signal {number}"
    return f"exit status {os.WEXITSTATUS(status)}"


class Certifier:
    """The build's side of a certifying process (see the module's docstring)."""

    def __init__(self, stage: Stage, python_path: tuple[Path, ...],
                 collecting: Collecting = contextlib.nullcontext) -> None:
        self.stage = stage
        self.python_path = python_path
        self.collecting = collecting
        self.process: _Process | None = None
        self.written: dict[str, str] = {}           # file -> text, as written to the stage
        self.announced: dict[str, Announce] = {}    # module -> its announcement
        self.held: list[Announce] = []              # announcements waiting for the INIT file
        # The code of reused modules (``skip``) is written only once a served module needs
        # it (imports it, directly or not): in an incremental build most are never
        # imported, and writing them (then removing them) was most of the staging.
        self.needed: set[str] = set()               # modules the process may import
        self.unwritten: dict[str, tuple[str, str]] = {}  # skipped module -> (file, text)
        self.reached: set[str] = set()              # modules the process started on
        self.serving: str | None = None             # the module it is on now
        self.results: dict[str, Result] = {}
        self.unstaged: OSError | None = None        # why the code could not be written
        self.stopped = False
        # Modules whose verdict the build is handed (toolc.certify.verdicts): announced for the
        # modules that import them (their stand-ins), never served.
        self.skip: set[str] = set()

    @classmethod
    def start(cls, python_path: Sequence[Path],
              collecting: Collecting = contextlib.nullcontext) -> Certifier | None:
        """Fork a certifying process; None when that cannot be done safely."""
        if not can_fork():
            return None
        # Both processes need pydantic (the spec models here, the SDK there): import it
        # once, before the fork, rather than once in each.
        # lazy: imported ahead on purpose, before the fork
        import pydantic.main  # noqa: F401

        try:
            root = Path(tempfile.mkdtemp(prefix="toolc-stage-"))
        except OSError:
            return None  # certification in-process says what is wrong
        stage = Stage(root, f"_toolc_stage_{root.name.replace('-', '_')}")
        certifier = cls(stage, tuple(python_path), collecting)
        try:
            stage.package_dir.mkdir()
            certifier.process = _Process.fork(stage, certifier.python_path, collecting)
        except OSError:
            certifier.stop()
            return None
        return certifier

    def module_generated(self, rel: str, text: str, module: ModuleIR | None) -> None:
        """A generated file is made (``module``: the spec module it is the code of)."""
        if self.unstaged is not None:
            return
        try:
            self._stage(rel, text, module.name if module is not None else None)
            if module is not None:
                self._announce(module)
        except OSError as exc:  # certify() reports it; generation goes on
            self.unstaged = exc

    def certify(self, project: ProjectIR, files: Mapping[str, str], bag: DiagnosticBag,
                reused: Mapping[str, Verdict] | None = None) -> dict[str, Verdict]:
        """Hand over what is not yet, collect every module's listing, compare and report
        (as ``certify_build`` does), and return the verdict of each module served. With
        every result in, the process is let go (it removes its folder and ends by itself;
        :meth:`stop` still ends it, its group and the folder); otherwise it is stopped at
        once. ``reused``: as for ``certify_build`` (they must name the modules in
        ``skip``, when those were set before the modules were generated)."""
        reused = reused or {}
        self.skip = set(reused)
        made: dict[str, Verdict] = {}
        finished = False
        try:
            try:
                self._hand_over(project, files)
            except OSError as exc:
                self.unstaged = exc
            if self.unstaged is not None:
                self._give_up(project, "the generated code could not be written to a "
                                       f"temporary folder: {self.unstaged}")
            else:
                self._compile_from_the_back()
            judged: dict[str, list[Diagnostic]] = {}

            def judge_what_came() -> None:  # while the process serves the next module
                for name in self.results.keys() - judged.keys() - self.skip:
                    before = used_marks(bag)
                    judged[name] = self._judge(project.modules[name], files, bag)
                    made[name] = verdict_of(bag, before, judged[name])

            self._collect(project, judge_what_came)
            judge_what_came()
            finished = True
        finally:
            # Not waited for: winding down (the folder removed, the interpreter left) was
            # a visible part of a build's tail, which now commits meanwhile.
            if finished:
                self._let_go()
            else:
                self.stop()
        for module in project.modules.values():  # in the order certify_build reports them
            if module.name in self.skip:
                replay(bag, reused[module.name])
            else:
                bag.items.extend(judged[module.name])
        return made

    def _hand_over(self, project: ProjectIR, files: Mapping[str, str]) -> None:
        """What was not handed over while generated (all of it, without a module sink)."""
        if self.unstaged is not None:
            return
        for rel, text in files.items():
            if rel.endswith(".py") and self.written.get(rel) != text:
                name = rel.removesuffix(".py")
                if name in project.modules:
                    self._stage(rel, text, name)
                elif rel == INIT:
                    self._stage(rel, text, None)
                # else the code of a module whose component was taken over (not in the
                # project: toolc.reuse.components); no module served imports it
        if INIT not in self.written:
            self._write(INIT, "")
        for module in project.modules.values():
            if module.name not in self.announced:
                self._announce(module)
        self._send(AllSent())

    def _judge(self, module: ModuleIR, files: Mapping[str, str],
               bag: DiagnosticBag) -> list[Diagnostic]:
        # lazy: 4 more toolc module(s), only when this runs
        from .compare import judge_listings, report_unserved

        own = bag.sibling()  # its severities and suppressions apply
        result = self.results[module.name]
        if isinstance(result, Listed):
            judge_listings(module, result.listings, files, own)
        else:
            report_unserved(module, result.why, own)
        return own.items

    def _let_go(self) -> None:
        """Every result is read: the process may remove the folder and end, unwaited."""
        self._send(Finished())

    def stop(self) -> None:
        """Kill the process and its group (whatever user code started), reap it and remove
        its folder if it is still there (again: nothing happens)."""
        if self.process is not None:
            self.process.end()
            self.process = None
        if not self.stopped:
            self.stopped = True
            shutil.rmtree(self.stage.root, ignore_errors=True)

    # -- handing over ---------------------------------------------------------------------

    def _stage(self, rel: str, text: str, module: str | None) -> None:
        """Write a generated file, or keep it unwritten while no served module needs it."""
        if module in self.skip and module not in self.needed:
            self.unwritten[module] = (rel, text)
        else:
            self._write(rel, text)

    def _need(self, name: str) -> None:
        """The process may import ``name`` and what it imports (as far as announced):
        their code is written before the announcement that makes them needed is sent.
        Every needed module that is announced has its imports needed too."""
        stack = [name]
        self.needed.add(name)
        while stack:
            current = stack.pop()
            held = self.unwritten.pop(current, None)
            if held is not None:
                self._write(*held)
            announced = self.announced.get(current)
            for imported in announced.imports if announced is not None else ():
                if imported not in self.needed:
                    self.needed.add(imported)
                    stack.append(imported)

    def _write(self, rel: str, text: str) -> None:
        target = self.stage.package_dir / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        self.written[rel] = text
        if rel == INIT:
            for message in self.held:
                self._send(message)
            self.held.clear()

    def _announce(self, module: ModuleIR) -> None:
        # lazy: 4 more toolc module(s), only when this runs
        from .compare import declared_contexts

        message = Announce(module.name, module.imports, stand_ins(module),
                           tuple(declared_contexts(module)), module.name not in self.skip)
        self.announced[module.name] = message
        if message.serve or module.name in self.needed:
            self._need(module.name)
        if INIT in self.written:
            self._send(message)
        else:  # importing a module imports its package first, which must be complete
            self.held.append(message)

    def _send(self, message: Message) -> None:
        if self.process is not None:
            with contextlib.suppress(BrokenPipeError):  # gone: _collect says what happened
                self.process.channel.send(message)

    def _compile_from_the_back(self) -> None:
        """Compile the modules the process has not reached, from the last one backwards,
        while it imports from the first onwards; each finds the other's bytecode (written
        atomically, so never half a file). Stops where the two meet."""
        for name in reversed(self.announced):
            try:
                self._take_waiting_messages()
            except EOFError:
                return  # the process is gone; _collect says why
            if name in self.reached:
                return
            if name in self.skip:
                continue  # only imported by the modules that need it, if at all
            source = str(self.stage.package_dir / f"{name}.py")
            if not os.path.exists(importlib.util.cache_from_source(source)):
                with contextlib.suppress(OSError):  # an error: the import says it
                    py_compile.compile(source, quiet=2)

    # -- collecting -----------------------------------------------------------------------

    def _take_waiting_messages(self) -> None:
        while self.process is not None:
            message = self.process.channel.receive(0)
            if message is None:
                return
            self._take(message)

    def _take(self, message: Message) -> None:
        if isinstance(message, Started):
            self.reached.add(message.module)
            self.serving = message.module
        elif isinstance(message, Done):
            self.reached.add(message.module)
            self.results[message.module] = self._result(message.module)
            self.serving = None

    def _result(self, name: str) -> Result:
        try:
            result = pickle.loads(self.stage.result_file(name).read_bytes())
        except Exception as exc:  # noqa: BLE001 - a process that fails here failed to serve
            return Failed(f"the certifying process left no readable result ({exc})")
        if not isinstance(result, Listed | Failed):
            return Failed(f"the certifying process left a {type(result).__name__}, not a result")
        return result

    def _collect(self, project: ProjectIR, meanwhile: Callable[[], None]) -> None:
        """Every module's result; a process that dies or hangs is replaced (see _lost).
        ``meanwhile`` runs whenever there may be something to wait for."""
        while any(name not in self.results for name in project.modules
                  if name not in self.skip):
            meanwhile()
            if self.process is None:
                self._give_up(project, "the certifying process could not be started")
                return
            try:
                message = self.process.channel.receive(ANSWER_TIMEOUT_S)
            except EOFError:
                ended = self.process.end(grace_s=5.0)
                self._lost(project, f"the certifying process ended ({ended})")
                continue
            if message is None:
                self.process.end()
                self._lost(project, f"the certifying process had no answer after "
                                    f"{ANSWER_TIMEOUT_S:g} s and was stopped")
                continue
            self._take(message)

    def _lost(self, project: ProjectIR, why: str) -> None:
        """The process is gone: blame the module it was serving and the modules that need
        that one, then serve the rest from a new process."""
        self.process, blamed, self.serving = None, self.serving, None
        if blamed is None or blamed in self.results:  # not while serving a module
            self._give_up(project, f"{why} before serving it")
            return
        self.results[blamed] = Failed(f"{why} while serving it")
        for name in project.modules:
            if name not in self.results and blamed in needed_modules(project, name):
                self.results[name] = Failed(f"it needs module '{blamed}', whose serving "
                                            "ended the certifying process")
        rest = [name for name in self.announced
                if name not in self.results and name not in self.skip]
        if not rest or not can_fork():
            return  # _collect gives up on what is left
        with contextlib.suppress(OSError):
            self.process = _Process.fork(self.stage, self.python_path, self.collecting)
            needed = set().union(*(needed_modules(project, name) for name in rest))
            for name, message in self.announced.items():
                if name in needed:  # those already served only for their stand-ins
                    self._send(dataclasses.replace(message, serve=name in rest))
            self._send(AllSent())

    def _give_up(self, project: ProjectIR, why: str) -> None:
        """Every module without a result fails, for the same reason."""
        for name in project.modules:
            self.results.setdefault(name, Failed(why))


def stand_ins(module: ModuleIR) -> StandIns:
    """What stands in for each of the module's ``mcp`` toolsets: its module attribute and
    its pinned tools, none for a set that pins nothing: no server is started or contacted
    (the same sets as ``toolc.ir.ProjectIR.stand_in_targets(unpinned=True)``)."""
    # lazy: 1 more toolc module(s), only when this runs
    from ..runtime.mcp.pinned import listed_tools

    sets = module.mcp_sets()
    if not sets:
        return []  # most modules
    attributes = module.python_names.toolsets
    return [(attributes[ts.name], listed_tools(ts)) for ts in sets]


def needed_modules(project: ProjectIR, name: str) -> set[str]:
    """``name`` and every module of the project it imports, directly or not."""
    def imports_of(current: str) -> tuple[str, ...]:
        module = project.modules.get(current)
        return module.imports if module is not None else ()

    return module_closure(name, imports_of) & project.modules.keys()
