"""`toolc serve --reload` as a real process: a real mcp client hears tools/list_changed
after the spec gains a tool, and lists it; a broken save keeps the last good toolset."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client

sys.path.insert(0, str(Path(__file__).parents[1]))

from serve_support import SPEC, http_server, make_project

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
    project = make_project(tmp_path)
    spec = project / "specs" / "desk.toolc.yaml"

    async def session(url: str, served: Any) -> tuple[list[str], list[str], list[str]]:
        heard: list[Any] = []

        async def on_message(message: Any) -> None:
            heard.append(message)

        async with Client(url, mode=mode, message_handler=on_message) as client:
            before = [t.name for t in (await client.list_tools()).tools]
            if mode == "legacy":
                await _edit_and_wait(spec, SPEC + PING, served, lambda: bool(heard))
                assert isinstance(heard[0], types.ToolListChangedNotification)
            else:
                async with client.listen(tools_list_changed=True) as subscription:
                    spec.write_text(SPEC + PING)
                    with anyio.fail_after(PATIENCE_S):
                        event = await subscription.__anext__()
                    assert type(event).__name__ == "ToolsListChanged"
            after = [t.name for t in (await client.list_tools()).tools]
            spec.write_text(SPEC.replace("tools:", "tools: [", 1))  # broken mid-edit
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
    assert "Traceback" not in served.stderr()


async def _edit_and_wait(spec: Path, text: str, served: Any, heard: Any) -> None:
    spec.write_text(text)
    with anyio.fail_after(PATIENCE_S):
        while not heard():
            assert served.proc.poll() is None, served.stderr()
            await anyio.sleep(0.02)


def test_over_stdio_the_client_hears_the_change(tmp_path: Path) -> None:
    import os

    from mcp.client.stdio import StdioServerParameters

    project = make_project(tmp_path)
    spec = project / "specs" / "desk.toolc.yaml"

    async def session() -> tuple[list[str], list[str]]:
        heard: list[Any] = []

        async def on_message(message: Any) -> None:
            heard.append(message)

        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "toolc", "serve", "specs/desk.toolc.yaml", "--reload"],
            cwd=str(project), env=dict(os.environ))
        async with Client(params, mode="legacy", message_handler=on_message) as client:
            before = [t.name for t in (await client.list_tools()).tools]
            spec.write_text(SPEC + PING)
            with anyio.fail_after(PATIENCE_S):
                while not any(isinstance(h, types.ToolListChangedNotification) for h in heard):
                    await anyio.sleep(0.02)
            return before, [t.name for t in (await client.list_tools()).tools]

    before, after = anyio.run(session)
    assert "ping" not in before and "ping" in after
