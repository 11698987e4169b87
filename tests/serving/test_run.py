"""`toolc serve` as a real subprocess, driven by the mcp SDK's clients over stdio and HTTP:
serving, the deps per session, and the end on a signal (toolc.serving.run)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from forkserver_support import python_args
from mcp import Client
from mcp.client.stdio import StdioServerParameters

sys.path.insert(0, str(Path(__file__).parents[1]))

from project_support import desk_project
from serve_support import Served, http_server, refused_start, toolc_cmd

SECRET = "/srv/secret/desk.db"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return desk_project(tmp_path)


def answering(action: str, confirm: bool | None = None) -> Any:
    async def callback(context: Any, params: Any) -> types.ElicitResult:
        content = None if confirm is None else {"confirm": confirm}
        return types.ElicitResult(action=action, content=content)  # type: ignore[arg-type]
    return callback


async def exercise(target: Any) -> None:
    """List, call, bad arguments, a raising handler, and approval accepted and declined."""
    async with Client(target, elicitation_callback=answering("accept", True)) as client:
        listed = await client.list_tools()
        assert [t.name for t in listed.tools] == ["echo", "boom", "refuse", "shred"]
        assert listed.tools[0].input_schema["properties"]["text"]["description"] == (
            "What to say back.")
        result = await client.call_tool("echo", {"text": "hello"})
        assert (result.is_error, result.content[0].text) == (False, "hello")
        bad = await client.call_tool("echo", {"text": "x" * 30})
        assert bad.is_error and "text" in bad.content[0].text
        assert "is longer than 20 characters" in bad.content[0].text
        boom = await client.call_tool("boom", {})
        assert boom.is_error and boom.content[0].text == "internal error in tool boom (ref 1)"
        refused = await client.call_tool("refuse", {})
        assert (refused.is_error, refused.content[0].text) == (
            True, "The drawer is locked; ask for the key first.")
        again = await client.call_tool("echo", {"text": "still here"})
        assert again.content[0].text == "still here"
        ok = await client.call_tool("shred", {"doc": "minutes"})
        assert (ok.is_error, ok.content[0].text) == (False, "shredded minutes (1 so far)")
    async with Client(target, elicitation_callback=answering("decline")) as client:
        no = await client.call_tool("shred", {"doc": "contract"})
        assert no.is_error and "declined" in no.content[0].text


def test_stdio(project: Path) -> None:
    params = StdioServerParameters(command=sys.executable,
                                   args=python_args("-m", "toolc", "serve", "specs/desk.toolc.yaml"),
                                   cwd=str(project), env=dict(os.environ))
    anyio.run(exercise, params)


@pytest.fixture
def served(project: Path) -> Iterator[Served]:
    with http_server(project) as server:
        yield server


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_http_then_clean_shutdown_on_signal(served: Served, signum: int) -> None:
    anyio.run(exercise, served.url)
    served.proc.send_signal(signum)
    assert served.proc.wait(timeout=300) == 0, served.stderr()
    err = served.stderr()
    assert "toolc serve" not in served.stdout()  # logs go to stderr (handlers may print)
    assert f"serving desk at {served.url}" in err and "shutting down" in err
    assert "KeyboardInterrupt" not in err and "CancelledError" not in err
    # the masked exception's details are in the server's log, under the ref the client saw
    assert "internal error in tool boom (ref 1)\nTraceback" in err and SECRET in err


def test_expose_errors_sends_the_exception_text(project: Path) -> None:
    async def call_boom(url: str) -> Any:
        async with Client(url) as client:
            return await client.call_tool("boom", {}), await client.call_tool("refuse", {})

    with http_server(project, "--expose-errors") as server:
        boom, refused = anyio.run(call_boom, server.url)
    assert boom.is_error and boom.content[0].text == (
        f"boom failed: RuntimeError: the desk is on fire at {SECRET}")
    assert refused.content[0].text == "The drawer is locked; ask for the key first."


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


def test_serving_a_spec_writes_nothing(project: Path, tmp_path: Path) -> None:
    """A spec's fresh build is imported from memory under its real names: nothing is
    staged in the temporary folder, and `generated/` is left to `toolc build`."""
    temp = tmp_path / "temp"
    temp.mkdir()
    proc = subprocess.Popen(toolc_cmd("serve", "specs/desk.toolc.yaml"), cwd=project,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, TMPDIR=str(temp)))
    deadline = time.monotonic() + 300
    assert proc.stderr is not None
    line = proc.stderr.readline()
    while "serving desk over stdio" not in line and time.monotonic() < deadline:
        line = proc.stderr.readline()
    assert list(temp.iterdir()) == []
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert list(temp.iterdir()) == [] and "Traceback" not in err
    assert not (project / "generated").exists()


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


WHOAMI_SPEC = """\
toolc: 1
module: who
tools:
  whoami:
    description: Say whose session this is.
    handler: who_app:whoami
toolsets:
  main: {kind: function, tools: [whoami]}
export: main
"""

WHOAMI = """\
import itertools

SESSIONS = itertools.count(1)

def make():
    return {"session": next(SESSIONS)}

def whoami(ctx):
    return f"session {ctx.deps['session']}"
"""


def test_deps_come_from_the_factory_per_session(project: Path) -> None:
    desk_project(project, "who", WHOAMI_SPEC, WHOAMI)  # beside the desk

    async def ask(*extra: str) -> str:
        params = StdioServerParameters(
            command=sys.executable, args=python_args("-m", "toolc", "serve", "specs/who.toolc.yaml", *extra),
            cwd=str(project), env=dict(os.environ))
        async with Client(params) as client:
            first = await client.call_tool("whoami", {})
            again = await client.call_tool("whoami", {})
        assert first.content[0].text == again.content[0].text  # kept for the session
        return str(first.content[0].text)

    assert anyio.run(ask, "--deps", "who_app:make") == "session 1"
    with (project / "pyproject.toml").open("a") as f:
        f.write('serve-deps = "who_app:make"\n')
    assert anyio.run(ask) == "session 1"


def test_a_bad_deps_factory_is_a_clear_error(project: Path) -> None:
    for reference, message in (("nowhere:make", "cannot import nowhere:make"),
                               ("desk_app", "a reference is 'package.module:attribute'"),
                               ("desk_app:SHREDDED", "is not callable")):
        code, err = refused_start(project, "specs/desk.toolc.yaml", "--deps", reference)
        assert code == 2 and message in err, err
        assert "Traceback" not in err


WRAPPED_SPEC = """\
toolc: 1
module: wrapped
tools:
  ask:
    description: Answer with a value of the kind asked for.
    handler: wrapped_app:ask
    params:
      kind: {type: string, description: Which kind of value.}
toolsets:
  app: {kind: function, tools: [ask]}
  main: {kind: wrapper, inner: app, wrapper: wrapped_app:Answering}
export: main
"""

WRAPPED_APP = """\
from toolc import runtime as rt


def ask(ctx, kind):
    return "the handler's own answer"


class Answering(rt.WrapperToolset):
    async def call_tool(self, ctx, name, args, next):
        kind = args["kind"]
        if kind == "dict":
            return {"answer": 42}
        if kind == "text":
            return "plain text"
        if kind == "blocks":
            return [rt.TextContent("one"), rt.TextContent("two")]
        if kind == "result":
            return rt.ToolResult.error("said as written")
        if kind == "number":
            return 7
        return await next(ctx, name, args)
"""


def test_a_wrapper_may_return_any_value_through_toolc_serve(tmp_path: Path) -> None:
    """Issue 16 item 6, through the real `toolc serve` over stdio: a wrapper's value is
    converted as a handler's is, never a JSON-RPC error."""
    desk_project(tmp_path, "wrapped", WRAPPED_SPEC, WRAPPED_APP)
    params = StdioServerParameters(command=sys.executable,
                                   args=python_args("-m", "toolc", "serve", "specs/wrapped.toolc.yaml"),
                                   cwd=str(tmp_path), env=dict(os.environ))

    async def session() -> dict[str, Any]:
        seen = {}
        async with Client(params) as client:
            for kind in ("dict", "text", "blocks", "result", "number", "inner"):
                result = await client.call_tool("ask", {"kind": kind})
                seen[kind] = (result.is_error, [c.text for c in result.content],
                              result.structured_content)
        return seen

    assert anyio.run(session) == {
        "dict": (False, ['{"answer": 42}'], {"answer": 42}),
        "text": (False, ["plain text"], None),
        "blocks": (False, ["one", "two"], None),
        "result": (True, ["said as written"], None),
        "number": (False, ["7"], None),
        "inner": (False, ["the handler's own answer"], None),
    }
