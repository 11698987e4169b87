"""toolc.adapters.claude_agent_sdk: the SDK MCP server config's instance, driven by a
real mcp Client in process (as the SDK drives it for Claude Code), no network."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from adapter_support import Deps, asking_toolset, assert_sent_as_published
from mcp import Client

pytest.importorskip("claude_agent_sdk")

from claude_agent_sdk import ClaudeAgentOptions
from toolc.adapters.claude_agent_sdk import (
    approval_tool_names,
    sdk_mcp_server,
    tool_names,
)


async def approve(context: Any, params: Any) -> types.ElicitResult:
    return types.ElicitResult(action="accept", content={"confirm": True})


@pytest.mark.anyio
async def test_the_config_serves_the_published_tools(showcase: Any) -> None:
    config = sdk_mcp_server(showcase.toolset, name="desk", deps=Deps())
    options = ClaudeAgentOptions(mcp_servers={"desk": config}, allowed_tools=tool_names(config))
    assert config["type"] == "sdk" and options.mcp_servers["desk"] is config  # type: ignore[index]
    async with Client(config["instance"]) as client:
        listed = (await client.list_tools()).tools
    for tool in listed:
        assert_sent_as_published("showcase", tool.name, tool.description, tool.input_schema)
    assert tool_names(config) == sorted(f"mcp__desk__{t.name}" for t in listed)
    assert approval_tool_names(config) == ["mcp__desk__draw_measure",
                                           "mcp__desk__draw_removeShape",
                                           "mcp__desk__wb_saveNote"]


@pytest.mark.anyio
async def test_deps_reach_the_predicates(showcase: Any) -> None:
    config = sdk_mcp_server(showcase.toolset, deps=Deps(drawing_disabled=True))
    async with Client(config["instance"]) as client:
        names = [t.name for t in (await client.list_tools()).tools]
    assert "draw_measure" not in names and "wb_readLog" in names


@pytest.mark.anyio
async def test_a_call_bad_arguments_and_a_handler_error(
    showcase: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    config = sdk_mcp_server(showcase.toolset, deps=Deps())
    async with Client(config["instance"]) as client:
        ok = await client.call_tool("wb_readLog", {"lines": 1, "level": "error"})
        bad = await client.call_tool("wb_readLog", {"lines": 0})
        monkeypatch.setenv("WORKBENCH_LOG", str(tmp_path / "missing.log"))
        failed = await client.call_tool("wb_readLog", {})
    assert not ok.is_error and ok.content[0].text.endswith("GET /weather")
    assert bad.is_error and bad.content[0].text == \
        "Invalid arguments:\n- lines: 0 is less than the minimum of 1"
    assert failed.is_error and failed.content[0].text.startswith("internal error in tool readLog")

    exposing = sdk_mcp_server(showcase.toolset, deps=Deps(), expose_errors=True)
    async with Client(exposing["instance"]) as client:
        failed = await client.call_tool("wb_readLog", {})
    assert failed.is_error and failed.content[0].text.startswith("readLog failed: FileNotFound")


@pytest.mark.anyio
async def test_approval_by_elicitation_or_by_claude_permissions(showcase: Any) -> None:
    asking = sdk_mcp_server(showcase.toolset, deps=Deps())
    async with Client(asking["instance"], elicitation_callback=approve) as client:
        saved = await client.call_tool("wb_saveNote", {"text": "asked"})
    assert not saved.is_error and saved.structured_content == {"line": 1}

    async with Client(asking["instance"]) as client:  # as the SDK is today: no elicitation
        refused = await client.call_tool("wb_saveNote", {"text": "x"})
    assert refused.is_error and "needs the user's approval" in refused.content[0].text

    trusting = sdk_mcp_server(showcase.toolset, deps=Deps(), approval="permissions")
    async with Client(trusting["instance"]) as client:
        saved = await client.call_tool("wb_saveNote", {"text": "let through"})
    assert not saved.is_error and saved.structured_content == {"line": 2}


@pytest.mark.anyio
async def test_external_tools_say_they_cannot_run(showcase: Any) -> None:
    config = sdk_mcp_server(showcase.toolset, deps=Deps())
    async with Client(config["instance"]) as client:
        result = await client.call_tool("openPage", {"url": "https://example.com"})
    assert result.is_error and "external tool" in result.content[0].text


def test_approval_is_checked(showcase: Any) -> None:
    with pytest.raises(ValueError, match="approval"):
        sdk_mcp_server(showcase.toolset, approval="always")  # type: ignore[arg-type]


@pytest.mark.anyio
async def test_a_handler_reaches_the_client_as_any_served_one() -> None:
    """Progress and log messages go to the client; Claude Code declares neither
    elicitation nor sampling, so a question says so."""
    progress: list[float] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append(value)

    config = sdk_mcp_server(asking_toolset(), name="asking")
    async with Client(config["instance"], mode="legacy") as client:
        stepped = await client.call_tool("steps", {}, progress_callback=on_progress)
        asked = await client.call_tool("ask", {})
        sampled = await client.call_tool("shade", {})
    assert (stepped.content[0].text, progress) == ("stepped", [1, 2])  # type: ignore[union-attr]
    assert asked.is_error and asked.content[0].text == (  # type: ignore[union-attr]
        "ctx.elicit is not available to this MCP client: it cannot ask the user (it declared "
        "no elicitation support)")
    assert sampled.is_error and "declared no sampling support" in sampled.content[0].text  # type: ignore[union-attr]
