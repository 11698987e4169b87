"""``python_cmd`` (and ``python_args``): the command line that runs ``python ARGS`` through
the session's forkserver (forkserver.py). conftest starts it as the session starts (so it
imports while the tests are collected, with the session's environment, not a test's) and
the first command waits until it listens; it is stopped when the session ends.

``TOOLC_TEST_FORKSERVER=0`` turns it off: every command is then a fresh python, as it
would be without it (the way to tell whether a failure has to do with the forkserver).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SERVER, LAUNCH = HERE / "forkserver.py", HERE / "forkserver_launch.py"


class _Forkserver:
    """The session's one forkserver process and the socket it listens on."""

    def __init__(self) -> None:
        self.folder = tempfile.mkdtemp(prefix="toolc-fork-")
        self.socket = os.path.join(self.folder, "socket")
        self.log = Path(self.folder, "stderr")
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, str(SERVER), self.socket], cwd=self.folder,
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=log,
                preexec_fn=ctrl_c_by_default)  # noqa: PLW1509  # one signal reset
        self.process.wait()  # (it forks and leaves at once: the server is not our child)
        self.pid: int | None = None
        atexit.register(self.stop)

    def wait_ready(self) -> str:
        if self.pid is None:
            assert self.process.stdout is not None
            said = self.process.stdout.readline().split()
            self.process.stdout.close()
            if len(said) != 2 or said[0] != b"ready":
                raise RuntimeError("the forkserver did not start:\n"
                                   f"{self.log.read_text(errors='replace')}")
            self.pid = int(said[1])
        return self.socket

    def stop(self) -> None:
        with contextlib.suppress(RuntimeError, OSError):  # (never started, or gone)
            self.wait_ready()  # (its pid is known once it has said it listens)
            assert self.pid is not None
            os.kill(self.pid, signal.SIGTERM)
        shutil.rmtree(self.folder, ignore_errors=True)


_started: list[_Forkserver | None] = []  # (one per session, made by start())


def start() -> None:
    """Start the session's forkserver, without waiting for it (idempotent)."""
    if not _started:
        off = os.environ.get("TOOLC_TEST_FORKSERVER") == "0"
        _started.append(None if off else _Forkserver())


def python_cmd(*args: str) -> list[str]:
    """``[python, *args]`` as a test runs it: started by the forkserver when there is one."""
    start()
    server = _started[0]
    if server is None:
        return [sys.executable, *args]
    return [sys.executable, "-S", str(LAUNCH), server.wait_ready(), *args]


def python_args(*args: str) -> list[str]:
    """What follows ``sys.executable`` in ``python_cmd(*args)``, for an API that takes the
    command and its arguments apart (an MCP stdio server's parameters)."""
    return python_cmd(*args)[1:]


def ctrl_c_by_default() -> None:
    """``preexec_fn`` for a child that a test stops with SIGINT (and for the forkserver,
    whose workers inherit its signals): a shell without job control starts background
    jobs with SIGINT ignored (``nohup``, ``cmd &``), a process inherits that, and Python
    then leaves Ctrl-C ignored, as it should."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
