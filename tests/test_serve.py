"""`toolc serve` as a real subprocess, driven by the mcp SDK's clients over stdio and HTTP."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from net_support import start_on_free_port

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
  shred:
    description: Shred a document, after asking.
    handler: desk_app:shred
    requires_approval: true
    params:
      doc: {type: string, description: Which document.}
"""

HANDLERS = """\
import sys

def echo(ctx, text):
    print("stray output that must not reach the protocol")
    return text

def boom(ctx):
    raise RuntimeError("the desk is on fire")

SHREDDED = []

async def shred(ctx, doc):
    SHREDDED.append(doc)
    return f"shredded {doc} ({len(SHREDDED)} so far)"
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolc]\nspecs = "specs"\noutput = "generated"\npython-path = ["."]\n')
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "desk.toolc.yaml").write_text(SPEC)
    (tmp_path / "desk_app.py").write_text(textwrap.dedent(HANDLERS))
    return tmp_path


def toolc_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "toolc", *args]


def answering(action: str, confirm: bool | None = None) -> Any:
    async def callback(context: Any, params: Any) -> types.ElicitResult:
        content = None if confirm is None else {"confirm": confirm}
        return types.ElicitResult(action=action, content=content)  # type: ignore[arg-type]
    return callback


async def exercise(target: Any) -> None:
    """List, call, bad arguments, a raising handler, and approval accepted and declined."""
    async with Client(target, elicitation_callback=answering("accept", True)) as client:
        listed = await client.list_tools()
        assert [t.name for t in listed.tools] == ["echo", "boom", "shred"]
        assert listed.tools[0].input_schema["properties"]["text"]["description"] == (
            "What to say back.")
        result = await client.call_tool("echo", {"text": "hello"})
        assert (result.is_error, result.content[0].text) == (False, "hello")
        bad = await client.call_tool("echo", {"text": "x" * 30})
        assert bad.is_error and "text" in bad.content[0].text
        assert "at most 20 characters" in bad.content[0].text
        boom = await client.call_tool("boom", {})
        assert boom.is_error and "the desk is on fire" in boom.content[0].text
        again = await client.call_tool("echo", {"text": "still here"})
        assert again.content[0].text == "still here"
        ok = await client.call_tool("shred", {"doc": "minutes"})
        assert (ok.is_error, ok.content[0].text) == (False, "shredded minutes (1 so far)")
    async with Client(target, elicitation_callback=answering("decline")) as client:
        no = await client.call_tool("shred", {"doc": "contract"})
        assert no.is_error and "declined" in no.content[0].text


def test_stdio(project: Path) -> None:
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "toolc", "serve", "specs/desk.toolc.yaml"],
                                   cwd=str(project), env=dict(os.environ))
    anyio.run(exercise, params)


@pytest.fixture
def http_server(project: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    def start(port: int) -> subprocess.Popen[str]:
        return subprocess.Popen(toolc_cmd("serve", "specs/desk.toolc.yaml", "--transport",
                                          "http", "--port", str(port)),
                                cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)

    proc, port = start_on_free_port(start)
    try:
        yield proc, f"http://127.0.0.1:{port}/mcp"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_http_then_clean_shutdown_on_signal(http_server: tuple[subprocess.Popen[str], str],
                                            signum: int) -> None:
    proc, url = http_server
    anyio.run(exercise, url)
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert "toolc serve" not in out  # logs go to stderr (a handler may print to stdout)
    assert f"serving desk at {url}" in err and "shutting down" in err
    assert "KeyboardInterrupt" not in err and "CancelledError" not in err


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_stdio_stops_cleanly_on_signal(project: Path, signum: int) -> None:
    proc = subprocess.Popen(toolc_cmd("serve", "specs/desk.toolc.yaml"), cwd=project,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 300
    assert proc.stderr is not None
    line = proc.stderr.readline()
    while "serving desk over stdio" not in line and time.monotonic() < deadline:
        line = proc.stderr.readline()
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert out == "" and "Traceback" not in err and "shutting down" in err


def test_stdout_stays_clean_for_the_protocol(project: Path) -> None:
    request = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"}}}
    proc = subprocess.run(toolc_cmd("serve", "specs/desk.toolc.yaml"), cwd=project,
                          input=json.dumps(request) + "\n", capture_output=True, text=True,
                          timeout=300, check=False)
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert lines and all(msg.get("jsonrpc") == "2.0" for msg in lines)
    assert lines[0]["id"] == 1 and "result" in lines[0]


def test_bad_targets_are_clear_errors(project: Path) -> None:
    missing = subprocess.run(toolc_cmd("serve", "specs/nope.toolc.yaml"), cwd=project,
                             capture_output=True, text=True, timeout=300, check=False)
    assert missing.returncode == 1 and "no such spec" in missing.stderr
    wrong = subprocess.run(toolc_cmd("serve", "specs/desk.toolc.yaml", "--toolset", "nope"),
                           cwd=project, capture_output=True, text=True, timeout=300, check=False)
    assert wrong.returncode == 1 and "has no toolset 'nope'" in wrong.stderr
    typo = SPEC.replace("description: Always", "descripton: Always")
    (project / "specs" / "desk.toolc.yaml").write_text(typo)
    broken = subprocess.run(toolc_cmd("serve", "specs/desk.toolc.yaml"), cwd=project,
                            capture_output=True, text=True, timeout=300, check=False)
    assert broken.returncode == 1
    assert "error[TC101]" in broken.stderr and "nothing is served" in broken.stderr
    assert "Traceback" not in broken.stderr
