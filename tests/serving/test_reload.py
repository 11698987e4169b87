"""`toolc serve --reload` as a real process: a real mcp client hears tools/list_changed
after the spec gains a tool, and lists it; a broken save keeps the last good toolset."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from forkserver_support import python_args
from mcp import Client

sys.path.insert(0, str(Path(__file__).parents[1]))

from project_support import DESK_SPEC, desk_project
from serve_support import http_server

PATIENCE_S = 120.0  # a bound on waiting, never a verdict on speed
PING = ("  ping:\n    description: Answer pong.\n    handler: desk_app:echo\n"
        "    params:\n      text: {type: string, description: Said.}\n")


def _wait_for_log(log: Any, needle: str, count: int) -> None:
    deadline = time.monotonic() + PATIENCE_S
    while log().count(needle) < count:
        assert time.monotonic() < deadline, f"no {needle!r} x{count} in:\n{log()}"
        time.sleep(0.05)


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_an_added_tool_is_announced_and_listed(tmp_path: Path, mode: str) -> None:
    project = desk_project(tmp_path)
    spec = project / "specs" / "desk.toolc.yaml"

    async def session(url: str, served: Any) -> tuple[list[str], list[str], list[str]]:
        heard: list[Any] = []

        async def on_message(message: Any) -> None:
            heard.append(message)

        async with Client(url, mode=mode, message_handler=on_message) as client:
            before = [t.name for t in (await client.list_tools()).tools]
            if mode == "legacy":
                await _edit_and_wait(spec, DESK_SPEC + PING, served, lambda: bool(heard))
                assert isinstance(heard[0], types.ToolListChangedNotification)
            else:
                async with client.listen(tools_list_changed=True) as subscription:
                    spec.write_text(DESK_SPEC + PING)
                    with anyio.fail_after(PATIENCE_S):
                        event = await subscription.__anext__()
                    assert type(event).__name__ == "ToolsListChanged"
            after = [t.name for t in (await client.list_tools()).tools]
            spec.write_text(DESK_SPEC.replace("tools:", "tools: [", 1))  # broken mid-edit
            await anyio.to_thread.run_sync(_wait_for_log, served.stderr, "not reloaded", 1)
            still = [t.name for t in (await client.list_tools()).tools]
            called = await client.call_tool("ping", {"text": "pong"})
            assert called.content[0].text == "pong"
        return before, after, still

    with http_server(project, "--reload") as served:
        _wait_for_log(served.stderr, "reloading on changes in specs", 1)
        before, after, still = anyio.run(session, served.url, served)
    assert "ping" not in before and "ping" in after and "ping" in still
    assert "YAML syntax error" in served.stderr()  # the diagnostics of the broken save
    # ... and what is served instead, exactly: which load, and what it lists
    assert re.search(r"not reloaded: the specs have errors\. Still serving "
                     r"specs/desk\.toolc\.yaml as reloaded at \d\d:\d\d:\d\d: 5 tools: "
                     r"echo, boom, refuse, shred, ping\n", served.stderr()), served.stderr()
    assert "nothing is served" not in served.stderr()
    assert "Traceback" not in served.stderr()


async def _edit_and_wait(spec: Path, text: str, served: Any, heard: Any) -> None:
    spec.write_text(text)
    with anyio.fail_after(PATIENCE_S):
        while not heard():
            assert served.proc.poll() is None, served.stderr()
            await anyio.sleep(0.02)


def test_over_stdio_the_client_hears_the_change(tmp_path: Path) -> None:
    from mcp.client.stdio import StdioServerParameters

    project = desk_project(tmp_path)
    spec = project / "specs" / "desk.toolc.yaml"

    async def session() -> tuple[list[str], list[str]]:
        heard: list[Any] = []

        async def on_message(message: Any) -> None:
            heard.append(message)

        params = StdioServerParameters(
            command=sys.executable,
            args=python_args("-m", "toolc", "serve", "specs/desk.toolc.yaml", "--reload"),
            cwd=str(project), env=dict(os.environ))
        async with Client(params, mode="legacy", message_handler=on_message) as client:
            before = [t.name for t in (await client.list_tools()).tools]
            spec.write_text(DESK_SPEC + PING)
            with anyio.fail_after(PATIENCE_S):
                while not any(isinstance(h, types.ToolListChangedNotification) for h in heard):
                    await anyio.sleep(0.02)
            return before, [t.name for t in (await client.list_tools()).tools]

    before, after = anyio.run(session)
    assert "ping" not in before and "ping" in after


# An upstream MCP server for the hub spec below: the toy server, once `gate` exists;
# before that, one that has started but not answered yet (it reads its input to the end
# and leaves), so that a connect made then is still under way whenever a test looks.
UPSTREAM = """\
import os, runpy, sys
from pathlib import Path

log, gate, toy = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
with log.open("a") as f:
    f.write(f"start {os.getpid()}\\n")
if not gate.exists():
    sys.stdin.read()
    sys.exit(0)
sys.argv = [toy, "stdio"]
runpy.run_path(toy, run_name="__main__")
"""
HUB = """\
toolc: 1
module: hub
description: The toy server's tools{mark}.
toolsets:
  up:
    kind: mcp
    stdio: {{command: {python}, args: [upstream.py, upstream.log, gate, {toy}]}}
export: up
"""
TOY = Path(__file__).parents[1] / "runtime" / "servers" / "toy_server.py"


def _upstream_pids(log: Path) -> list[int]:
    return [int(line.split()[1]) for line in log.read_text().splitlines()]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}").exists() and "zombie" not in _proc_state(pid)


def _proc_state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/status").read_text().lower()
    except OSError:
        return "zombie"  # gone meanwhile


def test_sigterm_while_a_reload_connects_its_upstream_ends_the_server(tmp_path: Path) -> None:
    """A broken save, a fixed one, and SIGTERM while the reload connects to its upstream
    server: the server ends by itself, and leaves no upstream process behind."""
    project = desk_project(tmp_path)
    (project / "upstream.py").write_text(UPSTREAM)
    gate, log = project / "gate", project / "upstream.log"
    gate.touch()
    hub = project / "specs" / "hub.toolc.yaml"
    hub.write_text(HUB.format(mark="", python=sys.executable, toy=TOY))
    with http_server(project, "--reload", spec="specs/hub.toolc.yaml") as served:
        _wait_for_log(served.stderr, "reloading on changes in specs", 1)
        hub.write_text("toolc: 1\nmodule: [\n")  # broken mid-edit
        _wait_for_log(served.stderr, "not reloaded", 1)
        gate.unlink()  # from now on the upstream server starts and does not answer
        hub.write_text(HUB.format(mark=" (again)", python=sys.executable, toy=TOY))
        _wait_for_log(log.read_text, "start", 2)  # the reload's upstream has started
        served.proc.send_signal(signal.SIGTERM)
        try:
            served.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running 60 s after SIGTERM:\n{served.stderr()}")
    assert "SIGTERM received" in served.stderr()
    assert "Traceback" not in served.stderr()
    left = [pid for pid in _upstream_pids(log) if _alive(pid)]
    assert not left, f"upstream servers left running: {left}"


def _readme_listen_example() -> str:
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", readme, re.DOTALL)
    (listen,) = [b for b in blocks if "client.listen(" in b]
    return listen


def test_the_readmes_listen_example_hears_each_reload(tmp_path: Path) -> None:
    """The README's 2026-07-28 subscriber, run as written (its URL pointed at the test's
    server), prints the new tool list after a save: the only way such a client is told."""
    import queue
    import threading

    project = desk_project(tmp_path)
    spec = project / "specs" / "desk.toolc.yaml"
    with http_server(project, "--reload") as served:
        _wait_for_log(served.stderr, "reloading on changes in specs", 1)
        script = project / "listen.py"
        script.write_text(_readme_listen_example().replace(
            "http://127.0.0.1:8000/mcp", served.url))
        listener = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)
        lines: queue.Queue[str] = queue.Queue()
        out = listener.stdout
        assert out is not None
        threading.Thread(target=lambda: [lines.put(x) for x in out], daemon=True).start()
        try:
            printed = None
            deadline = time.monotonic() + PATIENCE_S
            saves = 0
            while printed is None:  # (saved again until the subscription is up to hear one)
                assert time.monotonic() < deadline and listener.poll() is None, (
                    listener.stderr.read() if listener.stderr else "")
                saves += 1
                spec.write_text(DESK_SPEC + PING.replace("ping:", f"ping{saves}:"))
                _wait_for_log(served.stderr, "reloaded specs/desk.toolc.yaml", saves)
                try:
                    printed = lines.get(timeout=1)
                except queue.Empty:
                    continue
        finally:
            listener.kill()
            listener.wait(timeout=60)
    assert printed.startswith("['echo', 'boom', 'refuse', 'shred', 'ping")
