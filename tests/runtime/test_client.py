"""What a handler asks of whoever made the call, in process (toolc.runtime.client and
RunContext's side of it): nothing asked for progress, log messages to `logging`,
questions refused with a clear error, a caller's own client, and cancellation."""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from typing import Any

import anyio
import pytest
from toolc import runtime as rt
from toolc.runtime.client import CallClient

FORM = {"type": "object", "properties": {"colour": {"type": "string", "enum": ["red", "blue"]}},
        "required": ["colour"]}


async def asking(ctx: rt.RunContext[Any]) -> str:
    await ctx.report_progress(1, 2, "half way")
    await ctx.log("warning", {"note": "low on paint"}, logger="paint")
    answer = await ctx.elicit("Which colour?", FORM)
    model = await ctx.sample("Name a shade of it.", max_tokens=20, system_prompt="Be brief.")
    return f"{answer.action} {answer.content} {model.text}"


def call(handler: Any, ctx: rt.RunContext[Any], args: dict[str, Any] | None = None
         ) -> rt.ToolResult:
    tool = rt.Tool("paint", "Paint.", handler=handler, input_schema={"type": "object"})
    return anyio.run(rt.FunctionToolset([tool]).call_tool, ctx, "paint", args or {})


def test_without_a_client_a_question_is_a_clear_error_and_logs_go_to_logging(
        caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG, logger="toolc.client"):
        result = call(asking, rt.RunContext(deps=None))
    assert result.is_error
    assert result.text_content == (
        "ctx.elicit is not available outside an MCP server (this call comes from Python or "
        "an agent framework): there is no user to ask (it works when the tool is served by "
        "toolc serve or rt.to_mcp_server, to an MCP client that supports it: elicitation)")
    [record] = [r for r in caplog.records if r.name == "toolc.client.paint"]
    assert (record.levelname, record.getMessage()) == ("WARNING", "{'note': 'low on paint'}")


def test_sampling_without_a_client_is_a_clear_error() -> None:
    async def sampling(ctx: rt.RunContext[Any]) -> str:
        return (await ctx.sample("Hello?", max_tokens=5)).text

    result = call(sampling, rt.RunContext(deps=None))
    assert result.is_error and result.text_content.startswith(
        "ctx.sample is not available outside an MCP server")
    with pytest.raises(rt.ClientUnavailable):
        anyio.run(lambda: rt.RunContext(deps=None).sample("Hello?", max_tokens=5))


class Canned(CallClient):
    """A caller's own client, as a test of a handler would give one."""

    def __init__(self) -> None:
        self.seen: list[Any] = []

    async def report_progress(self, progress: float, total: float | None = None,
                              message: str | None = None) -> None:
        self.seen.append(("progress", progress, total, message))

    async def log(self, level: Any, data: Any, logger: str | None = None) -> None:
        self.seen.append(("log", level, data, logger))

    async def elicit(self, message: str, schema: Mapping[str, Any]) -> rt.Elicited:
        self.seen.append(("elicit", message))
        return rt.Elicited("accept", {"colour": "blue"})

    async def sample(self, messages: list[dict[str, Any]], *, max_tokens: int,
                     options: Mapping[str, Any]) -> rt.Sampled:
        self.seen.append(("sample", messages, max_tokens, dict(options)))
        return rt.Sampled("assistant", [{"type": "text", "text": "navy"}], "canned")


def test_a_callers_own_client_answers_in_process() -> None:
    client = Canned()
    result = call(asking, rt.RunContext(deps=None, client=client))
    assert (result.is_error, result.text_content) == (False, "accept {'colour': 'blue'} navy")
    assert client.seen == [
        ("progress", 1, 2, "half way"), ("log", "warning", {"note": "low on paint"}, "paint"),
        ("elicit", "Which colour?"),
        ("sample", [{"role": "user", "content": {"type": "text",
                                                 "text": "Name a shade of it."}}],
         20, {"systemPrompt": "Be brief."})]
    ctx = rt.RunContext(deps=None, client=client)
    assert ctx.for_call("c1").client is client and ctx.next_turn().client is client


def test_an_answer_that_does_not_fit_the_form_is_refused() -> None:
    class Careless(Canned):
        async def elicit(self, message: str, schema: Mapping[str, Any]) -> rt.Elicited:
            return rt.Elicited("accept", {"colour": "green"})

    result = call(asking, rt.RunContext(deps=None, client=Careless()))
    assert result.is_error and result.text_content.startswith(
        "The user's answer does not fit the form:\n- colour:")


def test_a_bad_form_or_log_level_is_refused_before_anything_is_sent() -> None:
    client = Canned()

    async def bad_form(ctx: rt.RunContext[Any]) -> str:
        await ctx.elicit("?", {"type": "object", "properties": {"a": {"type": "object"}}})
        return "asked"

    async def bad_level(ctx: rt.RunContext[Any]) -> str:
        await ctx.log("loud", "x")  # type: ignore[arg-type]
        return "logged"

    ctx = rt.RunContext(deps=None, client=client)
    with pytest.raises(ValueError, match=r"properties\.a"):
        anyio.run(bad_form, ctx)
    with pytest.raises(ValueError, match="'loud' is not an MCP log level"):
        anyio.run(bad_level, ctx)
    assert client.seen == []


def test_a_sync_handler_sees_its_call_cancelled() -> None:
    """A plain `def` handler runs in a worker thread: `ctx.cancelled` and
    `raise_if_cancelled()` see the caller's cancel scope."""
    started, seen = threading.Event(), []

    def long_job(ctx: rt.RunContext[Any]) -> str:
        started.set()
        while not ctx.cancelled:
            threading.Event().wait(0.01)
        seen.append("saw it")
        ctx.raise_if_cancelled()
        seen.append("not raised")
        return "done"

    async def main() -> None:
        ctx = rt.RunContext(deps=None)
        tool = rt.Tool("job", "Job.", handler=long_job, input_schema={"type": "object"})
        with anyio.fail_after(300):  # (a bug fails instead of hanging)
            async with anyio.create_task_group() as tg:
                tg.start_soon(rt.FunctionToolset([tool]).call_tool, ctx, "job", {})
                await anyio.to_thread.run_sync(started.wait, 300)
                tg.cancel_scope.cancel()
        assert not ctx.cancelled  # (outside the handler's thread: nothing cancelled here)

    anyio.run(main)
    assert seen == ["saw it"]
