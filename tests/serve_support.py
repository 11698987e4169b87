"""Helpers for the `toolc serve` tests: a project, the server as a subprocess on 127.0.0.1,
and raw HTTP requests (headers an ordinary client would never send)."""

from __future__ import annotations

import http.client
import json
import signal
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SPEC = """\
toolc: 1
module: desk
description: Tools of the test desk.
tools:
  echo:
    description: Say the text back.
    handler: desk_app:echo
    params:
      text: {type: string, description: What to say back., maxLength: 20}
  boom:
    description: Always fails.
    handler: desk_app:boom
  refuse:
    description: Fails on purpose.
    handler: desk_app:refuse
  shred:
    description: Shred a document, after asking.
    handler: desk_app:shred
    requires_approval: true
    params:
      doc: {type: string, description: Which document.}
"""

HANDLERS = """\
import sys

from toolc.runtime import ToolError

def echo(ctx, text):
    print("stray output that must not reach the protocol")
    return text

def boom(ctx):
    raise RuntimeError("the desk is on fire at /srv/secret/desk.db")

def refuse(ctx):
    raise ToolError("The drawer is locked; ask for the key first.")

SHREDDED = []

async def shred(ctx, doc):
    SHREDDED.append(doc)
    return f"shredded {doc} ({len(SHREDDED)} so far)"
"""

INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "raw", "version": "0"}}}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def make_project(root: Path, name: str = "desk", spec: str = SPEC,
                 handlers: str = HANDLERS) -> Path:
    """A project in ``root`` (made if missing): ``specs/NAME.toolc.yaml`` and its
    handler module ``NAME_app.py`` on the python path."""
    (root / "specs").mkdir(parents=True)
    (root / "pyproject.toml").write_text(
        '[tool.toolc]\nspecs = "specs"\noutput = "generated"\npython-path = ["."]\n')
    (root / "specs" / f"{name}.toolc.yaml").write_text(spec)
    (root / f"{name}_app.py").write_text(textwrap.dedent(handlers))
    return root


def toolc_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "toolc", *args]


def ctrl_c_by_default() -> None:
    """``preexec_fn`` for a child that a test stops with SIGINT: a shell without job
    control starts background jobs with SIGINT ignored (``nohup``, ``cmd &``), a process
    inherits that, and Python then leaves Ctrl-C ignored, as it should."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


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
