from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path
from typing import Any, ClassVar

import pytest
import toolc.runtime as rt
from runtime_support import function_set, make_tool, names, write_module

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


class Audit(rt.WrapperToolset):
    """Logs every call after it ran or paused: what the issue's logging wrapper missed."""

    pauses_as_results = True

    def __init__(self, inner: rt.AbstractToolset[Any]) -> None:
        super().__init__(inner)
        self.log: list[tuple[str, str]] = []

    async def call_tool(
        self, ctx: Any, name: str, args: dict[str, Any], next: rt.CallNext
    ) -> rt.ToolResult:
        result = await next(ctx, name, args)
        if isinstance(result, rt.PausedResult):
            self.log.append((name, f"paused: {[r.call_id for r in result.requests]}"))
        else:
            self.log.append((name, "error" if result.is_error else "ran"))
        return result


class Blind(rt.WrapperToolset):
    """A wrapper as written before: code after `next` never sees a pause."""

    log: ClassVar[list[str]] = []

    async def call_tool(
        self, ctx: Any, name: str, args: dict[str, Any], next: rt.CallNext
    ) -> rt.ToolResult:
        result = await next(ctx, name, args)
        Blind.log.append(name)
        return result


def approval_set() -> rt.FunctionToolset:
    return rt.FunctionToolset([make_tool("drop", requires_approval=True), make_tool("echo")])


async def test_a_wrapper_that_asks_sees_a_paused_call_and_the_caller_still_pauses() -> None:
    audit = Audit(approval_set())
    ctx = rt.RunContext(deps=None, tool_call_id="c1")
    with pytest.raises(rt.ApprovalRequiredError) as paused:
        await rt.PrefixedToolset(audit, "w_").call_tool(ctx, "w_drop", {"text": "x"})
    [request] = paused.value.requests
    assert (request.call_id, request.tool_name) == ("c1", "w_drop")  # named as the caller knows
    assert audit.log == [("drop", "paused: ['c1']")]
    resumed = ctx.resume(approvals={"c1": rt.Approved()})
    assert (await audit.call_tool(resumed, "drop", {"text": "x"})).text_content == "x"
    await audit.call_tool(ctx, "echo", {"text": "y"})
    assert audit.log[1:] == [("drop", "ran"), ("echo", "ran")]


async def test_an_external_call_is_seen_as_paused_too() -> None:
    tool = rt.ExternalTool("open", "Open a page.", {"type": "object"})
    audit = Audit(rt.ExternalToolset([tool]))
    with pytest.raises(rt.ExternalCallRequired):
        await audit.call_tool(rt.RunContext(deps=None, tool_call_id="e1"), "open", {})
    assert audit.log == [("open", "paused: ['e1']")]


async def test_a_wrapper_that_does_not_ask_works_as_before(ctx: rt.RunContext[None]) -> None:
    Blind.log.clear()
    with pytest.raises(rt.ApprovalRequiredError):
        await Blind(approval_set()).call_tool(ctx, "drop", {"text": "x"})
    assert Blind.log == []
    # and one that asks, nested inside it, hands the pause on as a pause
    audit = Audit(approval_set())
    with pytest.raises(rt.ApprovalRequiredError):
        await Blind(audit).call_tool(ctx.for_call("c2"), "drop", {"text": "x"})
    assert (Blind.log, audit.log) == ([], [("drop", "paused: ['c2']")])


class Policy(rt.WrapperToolset):
    """Answers a pause itself: this deployment refuses every approval."""

    pauses_as_results = True

    async def call_tool(
        self, ctx: Any, name: str, args: dict[str, Any], next: rt.CallNext
    ) -> rt.ToolResult:
        result = await super().call_tool(ctx, name, args, next)  # a super() call sees it too
        if isinstance(result, rt.PausedResult):
            return rt.ToolResult.error(f"{name} needs an approval nobody here can give.")
        return result


async def test_a_wrapper_may_answer_a_pause_in_its_place(ctx: rt.RunContext[None]) -> None:
    policy = Policy(approval_set())
    refused = await policy.call_tool(ctx, "drop", {"text": "x"})
    assert (refused.is_error, refused.text_content) == (
        True, "drop needs an approval nobody here can give.")
    assert (await policy.call_tool(ctx, "echo", {"text": "y"})).text_content == "y"


async def test_a_paused_result_says_the_call_has_not_run() -> None:
    pause = rt.ApprovalRequiredError([rt.DeferredToolRequest("c9", "drop", {"text": "x"})])
    result = rt.PausedResult(pause)
    assert (result.is_error, result.pause, result.requests) == (True, pause, pause.requests)
    assert result.text_content == "Paused, approval required: 'drop' (call c9); not run yet."


async def test_a_lazy_wrapper_that_asks_sees_the_pause(user_code: Path) -> None:
    write_module(user_code, "user_audit", "import toolc.runtime as rt\n"
                 "class Audit(rt.WrapperToolset):\n"
                 "    pauses_as_results = True\n"
                 "    seen = []\n"
                 "    async def call_tool(self, ctx, name, args, next):\n"
                 "        result = await next(ctx, name, args)\n"
                 "        Audit.seen.append(type(result).__name__)\n"
                 "        return result\n")
    toolset = rt.lazy_wrapper(approval_set(), "user_audit:Audit")
    with pytest.raises(rt.ApprovalRequiredError):
        await toolset.call_tool(rt.RunContext(deps=None), "drop", {"text": "x"})
    assert sys.modules["user_audit"].Audit.seen == ["PausedResult"]


# Before 2026-07-28 the server asks mid-call; from it the client calls again with the
# answer, a second call that pauses too until the server reads the answer.
@pytest.mark.parametrize(("mode", "seen"), [("legacy", ["paused", "ran"]),
                                            ("auto", ["paused", "paused", "ran"])])
async def test_served_an_asking_wrapper_still_asks_the_user(mode: str, seen: list[str]) -> None:
    """Through a real MCP client: the pause reaches the server's approval flow."""
    import mcp_types as types
    from mcp import Client

    async def yes(context: Any, params: Any) -> types.ElicitResult:
        return types.ElicitResult(action="accept", content={"confirm": True})

    audit = Audit(approval_set())
    async with Client(rt.to_mcp_server(audit), mode=mode, elicitation_callback=yes) as client:
        result = await client.call_tool("drop", {"text": "x"})
    assert (result.is_error, result.content[0].text) == (False, "x")
    assert [entry.split(":")[0] for _, entry in audit.log] == seen
