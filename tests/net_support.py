"""Ports on 127.0.0.1 for the tests' servers, safe while another suite runs at once.

A port found free and let go may be taken by another process before the server binds
it; so an in-process server is handed a socket already listening
(:func:`listening_socket`), a server started as a subprocess is started again on
another port if its port was taken (:func:`start_on_free_port`), and a port that must
refuse connections stays bound, not listening, for as long as it is used
(:func:`refusing_port`).
"""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

HOST = "127.0.0.1"
START_PATIENCE_S = 120.0  # a server's start on a busy machine: generous, only a bound
ATTEMPTS = 5


def listening_socket() -> socket.socket:
    """A socket bound to a free port and listening: no one else can take that port."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((HOST, 0))
    sock.listen(128)
    return sock


@contextmanager
def refusing_port() -> Iterator[int]:
    """A port that refuses connections: bound but not listening, so nothing can serve it."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        yield int(sock.getsockname()[1])


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def start_on_free_port(
    start: Callable[[int], subprocess.Popen[str]],
    stderr: Callable[[subprocess.Popen[str]], str] | None = None,
) -> tuple[subprocess.Popen[str], int]:
    """``start(port)`` a server (stderr piped, or read by ``stderr(proc)`` once it has
    exited) until it accepts connections on its port; another free port if the server
    exits because the port was taken meanwhile."""
    taken = ""
    for _ in range(ATTEMPTS):
        port = free_port()
        proc = start(port)
        if _accepts(proc, port):
            return proc, port
        if stderr is None:
            err = proc.communicate()[1] or ""
        else:
            proc.wait()
            err = stderr(proc)
        if "address already in use" not in err.lower():
            raise RuntimeError(f"the server did not start (exit {proc.returncode}):\n{err}")
        taken = err
    raise RuntimeError(f"every port tried was taken:\n{taken}")


def _accepts(proc: subprocess.Popen[str], port: int) -> bool:
    """Whether the server accepts connections on ``port`` (False once it has exited)."""
    deadline = time.monotonic() + START_PATIENCE_S
    while proc.poll() is None:
        try:
            socket.create_connection((HOST, port), timeout=1).close()
            return True
        except OSError:
            if time.monotonic() > deadline:
                proc.kill()
                break
            time.sleep(0.05)
    return False
