"""A Python that has already imported toolc and the mcp SDK, forking a child per command.

The suite starts `toolc` (and its MCP test servers) as real processes some two hundred
times; each paid for importing the SDK, pydantic and toolc again, most of its CPU. This
server imports them once; a test runs ``forkserver_launch.py`` (see there) in place of
``python``, which hands this server its arguments, working folder, environment and
standard streams over a unix socket. For each such request the server forks a *monitor*,
which forks the *worker*: the worker takes the launcher's streams as its 0, 1 and 2,
its folder, environment, ``sys.argv`` and ``sys.path`` (as ``python`` would set them from
``PYTHONPATH`` and ``-m``), and runs the module or script as ``__main__``. The monitor
tells the launcher the worker's pid (signals go straight to it), lets the worker start once
the launcher says it passes signals on, and, at the end, tells it the worker's wait
status, which the launcher exits with; if the launcher dies first (SIGKILL), the monitor
kills the worker. What runs is the product's own code in a process of its own, over the
same pipes and sockets: only the start is shared.

    python tests/forkserver.py SOCKET        (started by conftest, one per session)

It leaves its parent at once (a fork whose parent exits): the suite's tests that check
no child process of theirs is left over must not find it. It prints "ready PID" when it
listens; SIGTERM to that pid stops it.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import importlib
import io
import marshal
import os
import resource
import runpy
import select
import signal
import socket
import struct
import sys
import tempfile
import threading
import traceback

# What a `toolc` command or a test server imports on its way to work.
PRELOAD = (
    "toolc.cli", "toolc.commands", "toolc.pipeline", "toolc.runtime", "toolc.serving",
    "mcp", "mcp.server", "mcp.server.stdio", "mcp.server.streamable_http",
    "mcp.client.stdio", "anyio", "httpx", "starlette", "uvicorn", "pydantic", "yaml",
    "jinja2", "jsonschema", "click",
)
HEADER = struct.Struct("!I")
LARGEST_REQUEST = 1 << 20
# Settings a worker takes from its own environment; any other PYTHON* one must match the
# forkserver's, since python read it at start-up (the launcher then runs a fresh python).
HANDLED = ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED")


def python_settings(env: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in env.items() if k.startswith("PYTHON") and k not in HANDLED}


def preload() -> None:
    for name in PRELOAD:
        # (an optional part missing: its commands import it themselves)
        with contextlib.suppress(ImportError):
            importlib.import_module(name)


def serve(path: str) -> None:
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # (monitors are reaped by the kernel)
    gc.collect()
    gc.freeze()  # (children's collections then leave the shared pages alone)
    print(f"ready {os.getpid()}", flush=True)
    sys.stderr.flush()
    while True:
        conn, _ = listener.accept()
        if os.fork() == 0:
            listener.close()
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            try:
                monitor(conn)
            except BaseException:  # noqa: BLE001  # (to the log; the launcher says it failed)
                traceback.print_exc()
            finally:
                os._exit(0)
        conn.close()


Request = tuple[list[str], str, dict[str, str], dict[str, tuple[int, int]], list[int]]


def receive(conn: socket.socket) -> tuple[Request, list[int]]:
    data, fds, _, _ = socket.recv_fds(conn, 65536, 3)
    while len(data) < HEADER.size or len(data) < HEADER.size + HEADER.unpack_from(data)[0]:
        if len(data) > LARGEST_REQUEST:
            raise ValueError("request too large")
        more = conn.recv(65536)
        if not more:
            raise EOFError("the launcher left before its request was whole")
        data += more
    return marshal.loads(data[HEADER.size:]), fds


def monitor(conn: socket.socket) -> None:
    (argv, cwd, env, limits, ignored), fds = receive(conn)
    if python_settings(env) != STARTED_WITH:
        conn.sendall(b"X" + HEADER.pack(0))
        return
    # The worker runs nothing of the command until the launcher has its pid and passes
    # signals on: a test that signals once it sees output must reach the worker.
    hold, release = os.pipe()
    pid = os.fork()
    if pid == 0:
        conn.close()
        os.close(release)
        if not os.read(hold, 1):  # (the monitor is gone, without releasing it)
            os._exit(1)
        os.close(hold)
        inherit(limits, ignored)
        os._exit(work(argv, cwd, env, fds))
    os.close(hold)
    for fd in fds:
        os.close(fd)
    conn.sendall(b"P" + HEADER.pack(pid))
    with contextlib.suppress(OSError):  # (a launcher gone first: its worker never runs)
        if conn.recv(1) == b"A":  # (the launcher forwards signals from here on)
            os.write(release, b"R")
    os.close(release)
    exited = os.pidfd_open(pid)
    ready, _, _ = select.select([exited, conn], [], [])
    if exited not in ready:  # the launcher is gone: so is what it stood for
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    with contextlib.suppress(OSError):  # (the launcher may be gone)
        conn.sendall(b"S" + HEADER.pack(status & 0xFFFF))


def inherit(limits: dict[str, tuple[int, int]], ignored: list[int]) -> None:
    """The launcher's resource limits and ignored signals, as an exec would have kept them."""
    for name, limit in limits.items():
        which = getattr(resource, name)
        if resource.getrlimit(which) != limit:
            resource.setrlimit(which, limit)
    for number in ignored:
        signal.signal(number, signal.SIG_IGN)


def work(argv: list[str], cwd: str, env: dict[str, str], fds: list[int]) -> int:
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(env)
    sys.dont_write_bytecode = bool(env.get("PYTHONDONTWRITEBYTECODE"))
    tempfile.tempdir = None  # (found from TMPDIR again when first asked)
    fresh_streams(buffered=not env.get("PYTHONUNBUFFERED"))
    return run_main(argv, cwd, env)


def fresh_streams(buffered: bool) -> None:
    """Streams over the launcher's descriptors, made as python makes them at start-up for
    a pipe or a file (a terminal never gets here): ``PYTHONUNBUFFERED`` writes through."""
    encoding = sys.stdout.encoding
    sys.stdin = sys.__stdin__ = _stream(0, "r", encoding, "strict", buffered, False)
    sys.stdout = sys.__stdout__ = _stream(1, "w", encoding, "strict", buffered, False)
    sys.stderr = sys.__stderr__ = _stream(2, "w", encoding, "backslashreplace", buffered,
                                          buffered)


def _stream(fd: int, mode: str, encoding: str, errors: str, buffered: bool,
            by_line: bool) -> io.TextIOWrapper:
    raw = io.FileIO(fd, mode, closefd=False)
    binary: io.RawIOBase | io.BufferedIOBase = raw
    if buffered or mode == "r":
        binary = io.BufferedReader(raw) if mode == "r" else io.BufferedWriter(raw)
    return io.TextIOWrapper(binary, encoding=encoding, errors=errors,  # type: ignore[arg-type]
                            line_buffering=by_line, write_through=not buffered)


def run_main(argv: list[str], cwd: str, env: dict[str, str]) -> int:
    extra = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    try:
        if argv[0] == "-m":
            sys.path[:] = [cwd, *extra, *BASE_PATH]
            sys.argv = [argv[1], *argv[2:]]
            importlib.invalidate_caches()
            runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
        elif argv[0] == "-c":
            sys.path[:] = ["", *extra, *BASE_PATH]
            importlib.invalidate_caches()
            sys.argv = ["-c", *argv[2:]]
            main = {"__name__": "__main__", "__builtins__": __builtins__}
            exec(compile(argv[1], "<string>", "exec"), main)  # noqa: S102  # python -c
        else:
            script = os.path.abspath(argv[0])
            sys.path[:] = [os.path.dirname(script), *extra, *BASE_PATH]
            sys.argv = list(argv)
            importlib.invalidate_caches()
            runpy.run_path(argv[0], run_name="__main__")
        code = 0
    except SystemExit as stop:
        code = exit_code(stop.code)
    except BaseException:  # noqa: BLE001  # (what python prints for an uncaught one)
        traceback.print_exc()
        code = 1
    return finish(code)


def exit_code(value: object) -> int:
    if value is None:
        return 0
    if isinstance(value, int):
        return value & 0xFF
    print(value, file=sys.stderr)
    return 1


def finish(code: int) -> int:
    """What python does on the way out: wait for threads, run atexit, flush."""
    try:
        threading._shutdown()  # type: ignore[attr-defined]
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:  # noqa: BLE001  # (python reports these and exits all the same)
        traceback.print_exc()
    return code


if __name__ == "__main__":
    if os.fork() != 0:
        os._exit(0)
    here = os.path.dirname(os.path.abspath(__file__))
    own = {p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p}
    BASE_PATH = [p for p in sys.path[1:] if p not in own and p != here]
    STARTED_WITH = python_settings(dict(os.environ))
    preload()
    serve(sys.argv[1])
