"""Helpers for the `toolc serve` tests: the server as a subprocess on 127.0.0.1, a start
that is refused run in this process, and raw HTTP requests (headers an ordinary client
would never send). The project they serve is project_support's desk."""

from __future__ import annotations

import contextlib
import gc
import http.client
import json
import logging
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forkserver_support import python_cmd
from project_support import DESK_SPEC, desk_project

# (tests/commands/test_watch.py imports the desk under these names from here)
SPEC = DESK_SPEC
make_project = desk_project

INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "raw", "version": "0"}}}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def toolc_cmd(*args: str) -> list[str]:
    """``python -m toolc ARGS``, started by the session's forkserver."""
    return python_cmd("-m", "toolc", *args)


def refused_start(project: Path, *args: str,
                  env: Mapping[str, str | None] | None = None) -> tuple[int, str]:
    """`toolc serve ARGS` from ``project`` that is expected to stop before serving (a
    usage error, a target or setting that is wrong): its exit code and stderr. It runs in
    this process through the command line (click's runner: the options parsed as a shell's
    words would be), since what is tested is what toolc says, not a process boundary; an
    exception that escapes fails the test, and so does a start that serves instead (after
    ``REFUSAL_BOUND_S``, never a verdict on speed). ``env``: variables set (None: unset)
    meanwhile.

    Modules of the names the project's own have (its handlers, its ``generated``) are
    set aside meanwhile, so that those of another project imported here earlier are not
    taken for them; what the start leaves in the process is undone afterwards: those
    modules, the python-path, the SIGTERM handler, the logging set up, a start-up frozen
    for serving."""
    # lazy: click's runner and the command line, for the tests that run a start here
    from click.testing import CliRunner
    from toolc.cli import main

    with contextlib.chdir(project), _set_aside(project), _bounded(REFUSAL_BOUND_S):
        result = CliRunner().invoke(main, ["serve", *args], env=env, catch_exceptions=False)
    return result.exit_code, result.stderr


REFUSAL_BOUND_S = 300


@contextmanager
def _bounded(seconds: int) -> Iterator[None]:
    """An AssertionError raised here once ``seconds`` pass (SIGALRM): a start that was
    meant to be refused and serves would otherwise wait for clients forever."""
    def serving(signum: int, frame: object) -> None:
        raise AssertionError(f"toolc serve still ran after {seconds} s: it was meant to "
                             "refuse to start")

    before = signal.signal(signal.SIGALRM, serving)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, before)


@contextmanager
def _set_aside(project: Path) -> Iterator[None]:
    own = {p.stem for p in project.iterdir() if p.suffix == ".py" or (p / "__init__.py").exists()}
    own.add("generated")  # (the repository's own may be imported: the project's is meant)
    mine = {n: m for n, m in sys.modules.items() if n.partition(".")[0] in own}
    for name in mine:
        del sys.modules[name]
    path = list(sys.path)
    sigterm = signal.getsignal(signal.SIGTERM)
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    frozen = gc.get_freeze_count()
    try:
        yield
    finally:
        for name in [n for n in sys.modules if n.partition(".")[0] in own]:
            del sys.modules[name]
        sys.modules.update(mine)
        sys.path[:] = path
        signal.signal(signal.SIGTERM, sigterm)
        root.handlers[:] = handlers
        root.setLevel(level)
        if gc.get_freeze_count() > frozen:
            gc.unfreeze()

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Served:
    proc: subprocess.Popen[str]
    port: int
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def stderr(self) -> str:
        return self.log.read_text()

    def stdout(self) -> str:
        return self.log.with_suffix(".out").read_text()


@contextmanager
def http_server(project: Path, *args: str,
                spec: str = "specs/desk.toolc.yaml") -> Iterator[Served]:
    """`toolc serve SPEC --transport http` on a free port; its stderr goes to a file (a
    pipe nobody reads could fill up and stall the server). Stopped by its PID afterwards."""
    served = _start(project, args, spec)
    proc = served.proc
    try:
        yield served
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)


def _start(project: Path, args: tuple[str, ...], spec: str) -> Served:
    """Start the server on a free port; on another one if a busy machine's other suite
    took that port meanwhile (the server then exits saying so)."""
    for _ in range(5):
        port = free_port()
        log = project / f"serve-{port}.log"
        with log.open("w") as err, log.with_suffix(".out").open("w") as out:
            proc = subprocess.Popen(
                toolc_cmd("serve", spec, "--transport", "http",
                          "--port", str(port), *args),
                cwd=project, stdout=out, stderr=err, text=True)
        served = Served(proc, port, log)
        if _listening(served):
            return served
        proc.wait(timeout=60)
        if "address already in use" not in served.stderr().lower():
            raise RuntimeError(f"server did not start: {served.stderr()}")
    raise RuntimeError("every port tried was taken")


def _listening(served: Served) -> bool:
    """Whether the server accepts connections (False once it has exited); patient,
    as a loaded machine needs, and never a verdict on time."""
    for _ in range(2400):  # 120 s at most
        try:
            socket.create_connection(("127.0.0.1", served.port), timeout=0.5).close()
            return True
        except OSError:
            if served.proc.poll() is not None:
                return False
            time.sleep(0.05)
    served.proc.kill()
    raise RuntimeError(f"server did not start in time: {served.stderr()}")


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: str


def post(port: int, message: dict[str, Any], *, host: str | None = None,
         headers: dict[str, str] | None = None) -> Answer:
    """One raw POST /mcp; ``host`` replaces the Host header the URL implies."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.putrequest("POST", "/mcp", skip_host=True, skip_accept_encoding=True)
        sent = {"Host": f"127.0.0.1:{port}" if host is None else host, "Content-Type": "application/json",
                "Accept": "application/json, text/event-stream", **(headers or {})}
        body = json.dumps(message).encode()
        sent["Content-Length"] = str(len(body))
        for name, value in sent.items():
            conn.putheader(name, value)
        conn.endheaders(body)
        response = conn.getresponse()
        text = response.read().decode("utf-8", "replace")
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, text)
    finally:
        conn.close()


def open_session(port: int, **kwargs: Any) -> str:
    """A raw initialize: the new session's id."""
    answer = post(port, INITIALIZE, **kwargs)
    assert answer.status == 200, (answer.status, answer.body)
    return answer.headers["mcp-session-id"]


def session_alive(port: int, session_id: str) -> bool:
    answer = post(port, INITIALIZED, headers={"mcp-session-id": session_id})
    assert answer.status in (202, 404), (answer.status, answer.body)
    return answer.status == 202


def closed_by_server(sock: socket.socket, bound_s: float = 30.0) -> bytes:
    """Read until the server closes the connection (or ``bound_s`` passes: an error)."""
    received = b""
    sock.settimeout(0.5)
    deadline = time.monotonic() + bound_s
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(4096)
        except TimeoutError:
            continue
        except ConnectionResetError:
            return received
        if not chunk:
            return received
        received += chunk
    raise AssertionError(f"the server kept the connection open for {bound_s} s: {received!r}")
