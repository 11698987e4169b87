from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path
from typing import Any, ClassVar

import pytest
import toolc.runtime as rt
from runtime_support import function_set, names, write_module

pytestmark = pytest.mark.anyio


class Shouting(rt.WrapperToolset):
    """Changes the arguments before and the result after."""

    async def call_tool(
        self, ctx: Any, name: str, args: dict[str, Any], next: Any
    ) -> rt.ToolResult:
        result = await next(ctx, name, {**args, "text": args["text"] + "!"})
        return rt.ToolResult.text(result.text_content.upper())


class Guard(rt.WrapperToolset):
    """Answers without calling the inner tool."""

    async def call_tool(
        self, ctx: Any, name: str, args: dict[str, Any], next: Any
    ) -> rt.ToolResult:
        if args.get("text") == "secret":
            return rt.ToolResult.error("refused by the guard")
        return await super().call_tool(ctx, name, args, next)


class Described(rt.WrapperToolset):
    async def list_tools(self, ctx: Any) -> list[rt.ToolDefinition]:
        return [
            dataclasses.replace(t, description="wrapped") for t in await self.inner.list_tools(ctx)
        ]


async def test_a_wrapper_changes_args_and_results(ctx: rt.RunContext[None]) -> None:
    toolset = Shouting(function_set("echo"))
    assert (await toolset.call_tool(ctx, "echo", {"text": "hi"})).text_content == "HI!"


async def test_outer_sets_call_wrappers_like_any_toolset(ctx: rt.RunContext[None]) -> None:
    toolset = rt.PrefixedToolset(Guard(Shouting(function_set("echo"))), "w_")
    assert (await toolset.call_tool(ctx, "w_echo", {"text": "hi"})).text_content == "HI!"
    refused = await toolset.call_tool(ctx, "w_echo", {"text": "secret"})
    assert refused.is_error and refused.text_content == "refused by the guard"


class Returning(rt.WrapperToolset):
    """Answers with whatever value the arguments name, as a handler may."""

    VALUES: ClassVar[dict[str, Any]] = {
        "text": "plain text",
        "dict": {"answer": 42},
        "block": rt.ImageContent("AAAA", "image/png"),
        "blocks": [rt.TextContent("one"), rt.TextContent("two")],
        "result": rt.ToolResult.error("said as written"),
        "number": 7,
    }

    async def call_tool(self, ctx: Any, name: str, args: dict[str, Any], next: Any) -> Any:
        if args["text"] == "raise":
            raise RuntimeError("the wrapper broke")
        return self.VALUES[args["text"]]


EXPECTED_WIRE = {
    "text": {"content": [{"type": "text", "text": "plain text"}], "isError": False},
    "dict": {"content": [{"type": "text", "text": '{"answer": 42}'}],
             "structuredContent": {"answer": 42}, "isError": False},
    "block": {"content": [{"type": "image", "data": "AAAA", "mimeType": "image/png"}],
              "isError": False},
    "blocks": {"content": [{"type": "text", "text": "one"}, {"type": "text", "text": "two"}],
               "isError": False},
    "result": {"content": [{"type": "text", "text": "said as written"}], "isError": True},
    "number": {"content": [{"type": "text", "text": "7"}], "isError": False},
}


@pytest.mark.parametrize("kind", sorted(EXPECTED_WIRE))
async def test_a_wrapper_may_return_what_a_handler_may(kind: str) -> None:
    """Through a real MCP client: every kind of value is a normal result, never a
    protocol error (issue 16: a wrapper returning a dict broke the served call)."""
    from mcp import Client

    server = rt.to_mcp_server(Returning(function_set("echo")))
    async with Client(server) as client:
        result = await client.call_tool("echo", {"text": kind})
    wire = result.model_dump(by_alias=True, exclude_none=True, mode="json")
    wire.pop("_meta", None)
    wire.pop("resultType", None)
    assert wire == EXPECTED_WIRE[kind]


async def test_a_raising_wrapper_is_an_error_result(ctx: rt.RunContext[None]) -> None:
    result = await Returning(function_set("echo")).call_tool(ctx, "echo", {"text": "raise"})
    assert result.is_error and "the wrapper broke" in result.text_content


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


TYPED_WRAPPERS = """
from __future__ import annotations
from typing import Any, ClassVar
import toolc.runtime as rt

class Audit(rt.WrapperToolset):
    async def call_tool(
        self, ctx: rt.RunContext[Any], name: str, args: dict[str, Any], next: rt.CallNext
    ) -> rt.ToolResult:
        return await super().call_tool(ctx, name, args, next)

def build(inner: rt.AbstractToolset[Any]) -> rt.AbstractToolset[Any]:
    return rt.lazy_wrapper(inner, Audit)

class Wrong(rt.WrapperToolset):
    async def call_tool(
        self, ctx: rt.RunContext[Any], name: str, args: dict[str, Any], next: rt.CallNext
    ) -> str:
        return "not a result"
"""


def test_wrapper_overrides_type_check_and_wrong_ones_do_not(
    tmp_path: Path, mypy_cache: Path
) -> None:
    source = tmp_path / "typed_wrappers.py"
    source.write_text(TYPED_WRAPPERS, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(mypy_cache), str(source)],
        check=False,
        capture_output=True,
        text=True,
        timeout=600,
    )
    errors = [line for line in run.stdout.splitlines() if ": error:" in line]
    wrong_line = TYPED_WRAPPERS.splitlines().index("class Wrong(rt.WrapperToolset):") + 2
    assert len(errors) == 1, run.stdout
    assert f"typed_wrappers.py:{wrong_line}: error: Return type" in errors[0]
    assert 'incompatible with return type "Coroutine[Any, Any, ToolResult]"' in errors[0]
