from __future__ import annotations

import pytest
import toolc.runtime as rt
from pydantic import BaseModel

pytestmark = pytest.mark.anyio

SCHEMA = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "minLength": 1},
        "mode": {"enum": ["r", "w"]},
    },
    "required": ["path"],
    "additionalProperties": False,
}


def browser() -> rt.ExternalToolset:
    return rt.ExternalToolset(
        [
            rt.ExternalTool(
                "openFile",
                "Open a file on the user's machine.",
                SCHEMA,
                title="Open",
                annotations={"openWorldHint": True},
                meta={"x": 1},
            )
        ]
    )


async def test_publishes_the_raw_schema_exactly(ctx: rt.RunContext[None]) -> None:
    (tool,) = await browser().list_tools(ctx)
    assert tool.published() == {
        "name": "openFile",
        "title": "Open",
        "description": "Open a file on the user's machine.",
        "inputSchema": SCHEMA,
        "annotations": {"openWorldHint": True},
        "_meta": {"x": 1},
    }
    assert tool.input_schema is SCHEMA


async def test_invalid_args_are_an_error_result_before_pausing(ctx: rt.RunContext[None]) -> None:
    result = await browser().call_tool(ctx, "openFile", {"path": "", "mode": "x", "extra": 1})
    assert result.is_error
    assert result.text_content == (
        "Invalid arguments:\n"
        '- path: "" is shorter than 1 character\n'
        '- mode: "x" is not one of "r", "w"\n'
        "- (arguments): Additional properties are not allowed ('extra' was unexpected)"
    )


async def test_a_valid_call_pauses_with_the_request() -> None:
    ctx = rt.RunContext(deps=None, tool_call_id="ext-1")
    with pytest.raises(rt.ExternalCallRequired) as info:
        await browser().call_tool(ctx, "openFile", {"path": "/etc/hosts"})
    assert info.value.requests == [
        rt.DeferredToolRequest("ext-1", "openFile", {"path": "/etc/hosts"})
    ]


async def test_the_result_comes_from_the_caller() -> None:
    class Opened(BaseModel):
        size: int

    base = rt.RunContext(deps=None, tool_call_id="ext-1")
    answers = {
        "plain text": ("plain text", None, False),
        "result": (rt.ToolResult.error("no such file"), None, True),
        "dict": ({"size": 3}, {"size": 3}, False),
        "model": (Opened(size=4), {"size": 4}, False),
    }
    for given, structured, is_error in answers.values():
        ctx = base.resume(external_results={"ext-1": given})
        result = await browser().call_tool(ctx, "openFile", {"path": "/x"})
        assert (result.structured_content, result.is_error) == (structured, is_error)
    text = await browser().call_tool(
        base.resume(external_results={"ext-1": "hi"}), "openFile", {"path": "/x"}
    )
    assert text.text_content == "hi"


async def test_unknown_names_and_duplicates(ctx: rt.RunContext[None]) -> None:
    assert (await browser().call_tool(ctx, "nope", {})).text_content == "Unknown tool 'nope'."
    with pytest.raises(ValueError, match="two external tools"):
        rt.ExternalToolset([rt.ExternalTool("a", "d", {}), rt.ExternalTool("a", "d", {})])
