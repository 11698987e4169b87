from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import Any

import pytest
from runtime_support import function_set, names, write_module

import toolc.runtime as rt

pytestmark = pytest.mark.anyio


class Shouting(rt.WrapperToolset):
    """Changes the arguments before and the result after."""

    async def call_tool(self, ctx: Any, name: str, args: dict[str, Any], next: Any) -> rt.ToolResult:
        result = await next(ctx, name, {**args, "text": args["text"] + "!"})
        return rt.ToolResult.text(result.text_content.upper())


class Guard(rt.WrapperToolset):
    """Answers without calling the inner tool."""

    async def call_tool(self, ctx: Any, name: str, args: dict[str, Any], next: Any) -> rt.ToolResult:
        if args.get("text") == "secret":
            return rt.ToolResult.error("refused by the guard")
        return await super().call_tool(ctx, name, args, next)


class Described(rt.WrapperToolset):
    async def list_tools(self, ctx: Any) -> list[rt.ToolDefinition]:
        return [dataclasses.replace(t, description="wrapped") for t in await self.inner.list_tools(ctx)]


async def test_a_wrapper_changes_args_and_results(ctx: rt.RunContext[None]) -> None:
    toolset = Shouting(function_set("echo"))
    assert (await toolset.call_tool(ctx, "echo", {"text": "hi"})).text_content == "HI!"


async def test_outer_sets_call_wrappers_like_any_toolset(ctx: rt.RunContext[None]) -> None:
    toolset = rt.PrefixedToolset(Guard(Shouting(function_set("echo"))), "w_")
    assert (await toolset.call_tool(ctx, "w_echo", {"text": "hi"})).text_content == "HI!"
    refused = await toolset.call_tool(ctx, "w_echo", {"text": "secret"})
    assert refused.is_error and refused.text_content == "refused by the guard"


async def test_the_base_wrapper_passes_through(ctx: rt.RunContext[None]) -> None:
    toolset = rt.WrapperToolset(function_set("echo"))
    assert (await toolset.call_tool(ctx, "echo", {"text": "x"})).text_content == "x"


async def test_a_wrapper_may_edit_the_listing(ctx: rt.RunContext[None]) -> None:
    listed = await Described(function_set("a")).list_tools(ctx)
    assert names(listed) == ["a"] and listed[0].description == "wrapped"


WRAPPER_SOURCE = """
import toolc.runtime as rt

class Audit(rt.WrapperToolset):
    log = []

    async def call_tool(self, ctx, name, args, next):
        Audit.log.append(name)
        return await next(ctx, name, args)

class NotAWrapper:
    pass
"""


async def test_lazy_wrapper_imports_the_class_at_first_use(
    user_code: Path, ctx: rt.RunContext[None]
) -> None:
    write_module(user_code, "user_wrappers", WRAPPER_SOURCE)
    toolset = rt.lazy_wrapper(function_set("a"), rt.LazyRef("user_wrappers", "Audit"))
    assert "user_wrappers" not in sys.modules
    assert (await toolset.call_tool(ctx, "a", {"text": "x"})).text_content == "x"
    assert sys.modules["user_wrappers"].Audit.log == ["a"]
    assert isinstance(toolset.wrapper(), sys.modules["user_wrappers"].Audit)
    assert names(await toolset.list_tools(ctx)) == ["a"]


async def test_lazy_wrapper_that_does_not_import_names_the_reference(
    user_code: Path, ctx: rt.RunContext[None]
) -> None:
    write_module(user_code, "user_wrappers2", WRAPPER_SOURCE)
    missing = rt.lazy_wrapper(function_set("a"), "user_wrappers2:Gone", id="wrapped")
    result = await missing.call_tool(ctx, "a", {"text": "x"})
    assert result.is_error
    assert "the wrapper of wrapped: cannot import user_wrappers2:Gone" in result.text_content
    with pytest.raises(rt.ToolsetError, match="cannot import user_wrappers2:Gone"):
        await missing.list_tools(ctx)
    wrong = rt.lazy_wrapper(function_set("a"), "user_wrappers2:NotAWrapper")
    with pytest.raises(rt.ToolsetError, match="is not a WrapperToolset subclass"):
        await wrong.list_tools(ctx)
