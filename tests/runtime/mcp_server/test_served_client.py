"""A served handler's RunContext reaches its MCP client (toolc.runtime.mcp_server.served_client):
progress, log messages, elicitation with the handler's form, sampling and cancellation,
through the real SDK client, in both protocol eras ("auto" negotiates 2026-07-28, where
questions ride an InputRequiredResult; "legacy" the 2025-11-25 handshake, where they are
requests in the middle of the call). The tools are the conformance suite's."""

from __future__ import annotations

import json
import os
import sys
import textwrap
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
import toolc.runtime as rt
from forkserver_support import python_args
from mcp import Client
from mcp.client.stdio import StdioServerParameters

pytestmark = pytest.mark.anyio
ERAS = pytest.mark.parametrize("mode", ["auto", "legacy"])

# The conformance suite's forms: SEP-1034 (defaults) and SEP-1330 (every kind of choice).
DEFAULTS = {"type": "object", "properties": {
    "name": {"type": "string", "default": "John Doe"},
    "age": {"type": "integer", "default": 30},
    "score": {"type": "number", "default": 95.5},
    "status": {"type": "string", "enum": ["active", "inactive", "pending"], "default": "active"},
    "verified": {"type": "boolean", "default": True},
}}
ENUMS = {"type": "object", "properties": {
    "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
    "titledSingle": {"type": "string", "oneOf": [{"const": "value1", "title": "First Option"},
                                                 {"const": "value2", "title": "Second Option"}]},
    "legacyEnum": {"type": "string", "enum": ["opt1", "opt2"],
                   "enumNames": ["Option One", "Option Two"]},
    "untitledMulti": {"type": "array", "items": {"type": "string",
                                                  "enum": ["option1", "option2"]}},
    "titledMulti": {"type": "array", "items": {"anyOf": [
        {"const": "value1", "title": "First Choice"},
        {"const": "value2", "title": "Second Choice"}]}},
}}
RAN: list[str] = []


async def with_progress(ctx: rt.RunContext[Any]) -> str:
    for step in (0, 50, 100):
        await ctx.report_progress(step, 100, f"Completed step {step} of 100")
    return "done"


async def with_logging(ctx: rt.RunContext[Any]) -> str:
    await ctx.log("info", "Tool execution started")
    await ctx.log("error", {"failed": "nothing really"}, logger="test")
    return "logged"


async def ask_defaults(ctx: rt.RunContext[Any]) -> str:
    answer = await ctx.elicit("Please review the defaults.", DEFAULTS)
    RAN.append("defaults")  # (after the question: from 2026-07-28 the handler runs again)
    return f"Elicitation completed: action={answer.action}, content={json.dumps(answer.content)}"


async def ask_enums(ctx: rt.RunContext[Any]) -> str:
    answer = await ctx.elicit("Pick some options.", ENUMS)
    return f"Elicitation completed: action={answer.action}, content={json.dumps(answer.content)}"


async def sampling(ctx: rt.RunContext[Any], prompt: str) -> str:
    reply = await ctx.sample(prompt, max_tokens=100)
    return f"LLM response: {reply.text}"


async def two_questions(ctx: rt.RunContext[Any]) -> str:
    first = await ctx.elicit("Your name?", {"type": "object", "properties": {
        "name": {"type": "string"}}, "required": ["name"]})
    reply = await ctx.sample(f"Greet {(first.content or {}).get('name')}.", max_tokens=20)
    RAN.append("two")
    return reply.text


def _tool(name: str, handler: Any, schema: dict[str, Any] | None = None, **kw: Any) -> rt.Tool:
    return rt.Tool(name, name, handler=handler,
                   input_schema=schema or {"type": "object", "properties": {}}, **kw)


PROMPT = {"type": "object", "properties": {"prompt": {"type": "string"}}, "required": ["prompt"]}
TOOLSET = rt.FunctionToolset([
    _tool("test_tool_with_progress", with_progress),
    _tool("test_tool_with_logging", with_logging),
    _tool("test_elicitation_sep1034_defaults", ask_defaults),
    _tool("test_elicitation_sep1330_enums", ask_enums),
    _tool("test_sampling", sampling, PROMPT),
    _tool("two_questions", two_questions),
    _tool("approved_questions", two_questions, requires_approval=True),
])


class Asked:
    """The client's side: what the server asked, and the answers it gets."""

    def __init__(self, content: dict[str, Any] | None = None) -> None:
        self.content = content
        self.forms: list[types.ElicitRequestParams] = []
        self.samples: list[types.CreateMessageRequestParams] = []

    async def elicit(self, context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        self.forms.append(params)
        if "Allow the tool" in params.message:  # toolc's own approval form
            return types.ElicitResult(action="accept", content={"confirm": True})
        if "name" in params.requested_schema["properties"] and self.content is None:
            return types.ElicitResult(action="accept", content={"name": "Ada"})
        return types.ElicitResult(action="accept", content=self.content)

    async def sample(self, context: Any, params: types.CreateMessageRequestParams
                     ) -> types.CreateMessageResult:
        self.samples.append(params)
        text = params.messages[0].content.text  # type: ignore[union-attr]
        return types.CreateMessageResult(role="assistant", model="echo-1",
                                         content=types.TextContent(type="text",
                                                                   text=f"echo: {text}"))

    def client(self, mode: str, states: rt.ApprovalStates | None = None, **kw: Any) -> Client:
        return Client(rt.to_mcp_server(TOOLSET, approval_states=states), mode=mode,
                      elicitation_callback=self.elicit, sampling_callback=self.sample, **kw)


def text(result: types.CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, types.TextContent)
    return block.text


@ERAS
async def test_progress_reaches_the_client(mode: str) -> None:
    seen: list[tuple[float, float | None, str | None]] = []

    async def progress(value: float, total: float | None, message: str | None) -> None:
        seen.append((value, total, message))

    async with Asked().client(mode) as client:
        result = await client.call_tool("test_tool_with_progress", {}, progress_callback=progress)
    assert text(result) == "done"
    assert seen == [(0, 100, "Completed step 0 of 100"), (50, 100, "Completed step 50 of 100"),
                    (100, 100, "Completed step 100 of 100")]


@pytest.mark.filterwarnings("ignore:The logging capability is deprecated")
async def test_log_messages_reach_a_legacy_client_at_the_level_it_set() -> None:
    heard: list[tuple[str, Any, str | None]] = []

    async def logged(params: types.LoggingMessageNotificationParams) -> None:
        heard.append((params.level, params.data, params.logger))

    async with Asked().client("legacy", logging_callback=logged) as client:
        await client.call_tool("test_tool_with_logging", {})
        await client.session.set_logging_level("warning")
        await client.call_tool("test_tool_with_logging", {})
    assert heard == [("info", "Tool execution started", None),
                     ("error", {"failed": "nothing really"}, "test"),
                     ("error", {"failed": "nothing really"}, "test")]


async def test_log_messages_reach_a_2026_client_that_asks_for_them() -> None:
    heard: list[str] = []

    async def logged(params: types.LoggingMessageNotificationParams) -> None:
        heard.append(params.level)

    async with Asked().client("auto", logging_callback=logged) as client:
        await client.call_tool("test_tool_with_logging", {})  # asked for none: none sent
    async with Asked().client("auto", logging_callback=logged, log_level="error") as client:
        await client.call_tool("test_tool_with_logging", {})
    assert heard == ["error"]


@ERAS
@pytest.mark.parametrize(("tool", "form", "answer"), [
    ("test_elicitation_sep1034_defaults", DEFAULTS,
     {"name": "Jane Smith", "age": 25, "score": 88.0, "status": "inactive", "verified": False}),
    ("test_elicitation_sep1330_enums", ENUMS,
     {"untitledSingle": "option1", "titledSingle": "value1", "legacyEnum": "opt1",
      "untitledMulti": ["option1", "option2"], "titledMulti": ["value1", "value2"]}),
])
async def test_the_handlers_form_reaches_the_client_as_written(
        mode: str, tool: str, form: dict[str, Any], answer: dict[str, Any]) -> None:
    asked = Asked(answer)
    async with asked.client(mode) as client:
        result = await client.call_tool(tool, {})
    assert not result.is_error, text(result)
    assert text(result) == f"Elicitation completed: action=accept, content={json.dumps(answer)}"
    [question] = asked.forms
    assert isinstance(question, types.ElicitRequestFormParams)
    assert question.requested_schema == form


@ERAS
async def test_an_answer_that_does_not_fit_the_form_is_an_error_result(mode: str) -> None:
    async with Asked({"name": 7, "status": "gone"}).client(mode) as client:
        result = await client.call_tool("test_elicitation_sep1034_defaults", {})
    assert result.is_error
    assert text(result).startswith("The user's answer does not fit the form:\n- name:")


@ERAS
async def test_sampling_asks_the_clients_model(mode: str) -> None:
    asked = Asked()
    async with asked.client(mode) as client:
        result = await client.call_tool("test_sampling", {"prompt": "What is 2+2?"})
    assert text(result) == "LLM response: echo: What is 2+2?"
    [request] = asked.samples
    assert request.max_tokens == 100 and request.messages[0].role == "user"


@ERAS
async def test_a_client_without_the_capability_hears_so(mode: str) -> None:
    async with Client(rt.to_mcp_server(TOOLSET), mode=mode) as client:
        asked = await client.call_tool("test_elicitation_sep1034_defaults", {})
        sampled = await client.call_tool("test_sampling", {"prompt": "Hi"})
    assert asked.is_error and text(asked) == (
        "ctx.elicit is not available to this MCP client: it cannot ask the user (it declared "
        "no elicitation support)")
    assert sampled.is_error and text(sampled) == (
        "ctx.sample is not available to this MCP client: it cannot sample its model (it "
        "declared no sampling support)")


@ERAS
@pytest.mark.parametrize("tool", ["two_questions", "approved_questions"])
async def test_questions_one_after_another_and_after_approval(mode: str, tool: str) -> None:
    """From 2026-07-28 each question is a round of its own; the answers of earlier rounds
    (the approval's too) ride the requestState, so nothing is asked twice."""
    RAN.clear()
    asked = Asked()
    async with asked.client(mode) as client:
        result = await client.call_tool(tool, {})
    assert (result.is_error, text(result)) == (False, "echo: Greet Ada.")
    assert RAN == ["two"]  # past its questions once
    approvals = [f for f in asked.forms if "Allow the tool" in f.message]
    assert len(approvals) == (tool == "approved_questions")
    assert len(asked.forms) - len(approvals) == 1 and len(asked.samples) == 1


NAME = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}


def answer_to(first: types.InputRequiredResult, **content: Any) -> dict[str, Any]:
    """The client's answer to the one question of `first`: a form, or a sampled message."""
    [(key, request)] = (first.input_requests or {}).items()
    if isinstance(request, types.CreateMessageRequest):
        return {key: types.CreateMessageResult(role="assistant", model="echo-1", content=(
            types.TextContent(type="text", text=str(content["text"]))))}
    return {key: types.ElicitResult(action="accept", content=content)}


async def round_of(client: Client, tool: str, first: types.InputRequiredResult | None = None,
                   state: str | None = None, **content: Any
                   ) -> types.CallToolResult | types.InputRequiredResult:
    """One request of a 2026-07-28 call: `first`'s question answered with `content`."""
    responses = answer_to(first, **content) if first is not None else None
    return await client.session.call_tool(
        tool, {}, input_responses=responses, allow_input_required=True,
        request_state=state if state is not None else
        (first.request_state if first is not None else None))


def refused(result: Any, tool: str, why: str) -> bool:
    return isinstance(result, types.CallToolResult) and result.is_error and text(result) == (
        f"The answers sent with this call to {tool!r} {why}; the call was not run. Call the "
        f"tool again to be asked anew.")


async def test_a_2026_request_state_altered_misplaced_or_sent_again_is_refused() -> None:
    async with Asked().client("auto") as client:
        first = await round_of(client, "two_questions")
        assert isinstance(first, types.InputRequiredResult) and first.request_state
        forged = first.request_state[:-2] + ("AA" if first.request_state[-2:] != "AA" else "BA")
        assert refused(await round_of(client, "two_questions", first, forged, name="Ada"),
                       "two_questions", "was signed with another key (replicas behind a "
                       "balancer need the same state key: --state-key-file or TOOLC_STATE_KEY)")
        assert refused(await round_of(client, "approved_questions", first, name="Ada"),
                       "approved_questions", "was given for another call (another tool, other "
                       "arguments or another user)")
        second = await round_of(client, "two_questions", first, name="Ada")
        assert isinstance(second, types.InputRequiredResult)  # on to the sampling question
        assert refused(await round_of(client, "two_questions", first, name="Ada"),
                       "two_questions", "was used already: an answer counts for one call, once")


async def test_an_approval_carried_by_the_questions_is_not_replayed() -> None:
    """The user approved once; the handler then asks its own questions. Each round's state
    is redeemed once, so sending a round again neither runs the handler nor asks anew."""
    RAN.clear()
    async with Asked().client("auto") as client:
        approval = await round_of(client, "approved_questions")
        assert isinstance(approval, types.InputRequiredResult)
        [key] = approval.input_requests or {}
        assert key == "toolc/approval"
        asked = await round_of(client, "approved_questions", approval, confirm=True)
        assert isinstance(asked, types.InputRequiredResult)
        sampling = await round_of(client, "approved_questions", asked, name="Ada")
        assert isinstance(sampling, types.InputRequiredResult)
        assert refused(await round_of(client, "approved_questions", asked, name="Eve"),
                       "approved_questions", "was used already: an answer counts for one call, "
                       "once")
        done = await round_of(client, "approved_questions", sampling, text="Hello Ada")
        again = await round_of(client, "approved_questions", sampling, text="Hello Ada")
    assert isinstance(done, types.CallToolResult) and text(done) == "Hello Ada"
    assert refused(again, "approved_questions", "was used already: an answer counts for one "
                   "call, once")
    assert RAN == ["two"]


async def test_replicas_sharing_a_key_answer_each_others_questions() -> None:
    """Stateless replicas: one asks, another gets the answer; a replica of another key
    refuses it and says which flag gives them the same."""
    def replica(key: bytes) -> Client:
        return Asked().client("auto", rt.ApprovalStates([key]))

    shared, other = b"s" * 32, b"o" * 32
    async with replica(shared) as one, replica(shared) as two, replica(other) as three:
        first = await round_of(one, "two_questions")
        assert isinstance(first, types.InputRequiredResult)
        elsewhere = await round_of(three, "two_questions", first, name="Ada")
        assert refused(elsewhere, "two_questions", "was signed with another key (replicas "
                       "behind a balancer need the same state key: --state-key-file or "
                       "TOOLC_STATE_KEY)")
        second = await round_of(two, "two_questions", first, name="Ada")
        assert isinstance(second, types.InputRequiredResult)
        done = await round_of(one, "two_questions", second, text="Hi Ada")
    assert isinstance(done, types.CallToolResult) and text(done) == "Hi Ada"


ENDED: list[str] = []


async def wait_forever(ctx: rt.RunContext[Any]) -> str:
    ENDED.append(f"started, cancelled={ctx.cancelled}")
    try:
        await anyio.sleep_forever()
    finally:
        ENDED.append(f"ended, cancelled={ctx.cancelled}")
    return "never"


@ERAS
async def test_an_async_handler_ending_knows_it_was_cancelled(mode: str) -> None:
    """The client gives up on the call: the handler is cancelled at its await, and in its
    `finally` `ctx.cancelled` says so (2026-07-28 has no cancel notification in process:
    the SDK cancels the call's scope)."""
    ENDED.clear()
    server = rt.to_mcp_server(rt.FunctionToolset([_tool("wait", wait_forever)]))
    with anyio.fail_after(300):  # (a bug fails instead of hanging)
        async with Client(server, mode=mode) as client:
            async with anyio.create_task_group() as tg:
                tg.start_soon(client.call_tool, "wait", {})
                while not ENDED:
                    await anyio.sleep(0.01)
                tg.cancel_scope.cancel()
            while len(ENDED) < 2:
                await anyio.sleep(0.01)
    assert ENDED == ["started, cancelled=False", "ended, cancelled=True"]


SERVER = """\
import sys, threading
import anyio
from mcp.server.stdio import stdio_server
from toolc import runtime as rt

def slow(ctx):
    with open(sys.argv[1], "a") as out:
        out.write("started\\n")
    while not ctx.cancelled:
        threading.Event().wait(0.01)
    with open(sys.argv[1], "a") as out:
        out.write("cancelled\\n")
    return "stopped"

server = rt.to_mcp_server(rt.FunctionToolset([rt.Tool(
    "slow", "Slow.", handler=slow, input_schema={"type": "object"})]))

async def main():
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())

anyio.run(main)
"""


async def test_a_sync_handler_sees_the_clients_cancellation(tmp_path: Path) -> None:
    """Over stdio the client's `notifications/cancelled` reaches the handler's thread."""
    (tmp_path / "server.py").write_text(textwrap.dedent(SERVER))
    record = tmp_path / "record.txt"
    params = StdioServerParameters(command=sys.executable,
                                   args=python_args(str(tmp_path / "server.py"), str(record)),
                                   env=dict(os.environ))
    with anyio.fail_after(300):  # (a bug fails instead of hanging)
        async with Client(params, mode="legacy") as client:
            async with anyio.create_task_group() as tg:
                tg.start_soon(client.call_tool, "slow", {})
                while "started" not in (record.read_text() if record.exists() else ""):
                    await anyio.sleep(0.01)
                tg.cancel_scope.cancel()  # the client sends notifications/cancelled
            while "cancelled" not in record.read_text():
                await anyio.sleep(0.01)
    assert record.read_text() == "started\ncancelled\n"
