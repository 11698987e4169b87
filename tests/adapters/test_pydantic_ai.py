"""toolc.adapters.pydantic_ai through pydantic-ai's own agent loop, with a FunctionModel
that plays the model: what it is shown, and how each kind of call comes back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from adapter_support import NO_ELICIT, Deps, asking_toolset, assert_sent_as_published, golden

pytest.importorskip("pydantic_ai")

from pydantic_ai import Agent
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryPromptPart,
    SystemPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.tools import (
    DeferredToolRequests,
    DeferredToolResults,
    ToolApproved,
    ToolDenied,
)
from toolc.adapters.pydantic_ai import PydanticAIToolset


class Script:
    """A model that makes the given tool calls, one response per request, then says
    "done"; it keeps every request's messages and tool definitions."""

    def __init__(self, *calls: tuple[str, dict[str, Any]]) -> None:
        self.calls = list(calls)
        self.seen: list[tuple[list[ModelMessage], AgentInfo]] = []

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.seen.append((list(messages), info))
        if not self.calls:
            return ModelResponse(parts=[TextPart("done")])
        name, args = self.calls.pop(0)
        return ModelResponse(parts=[ToolCallPart(name, args, tool_call_id=f"call-{len(self.seen)}")])

    def last_parts(self) -> list[Any]:
        """The parts of the last request (what the tools answered)."""
        request = self.seen[-1][0][-1]
        assert isinstance(request, ModelRequest)
        return list(request.parts)


def outcome(part: Any) -> str:
    """How pydantic-ai tells the model a tool call went: a return part's outcome, or
    "retried" for a retry prompt (the form older pydantic-ai versions use)."""
    if isinstance(part, RetryPromptPart):
        return "retried"
    assert isinstance(part, ToolReturnPart), part
    return str(part.outcome)


def agent(showcase: Any, script: Script, **options: Any) -> Agent[Deps, Any]:
    return Agent(FunctionModel(script), deps_type=Deps,
                 output_type=[str, DeferredToolRequests],
                 toolsets=[PydanticAIToolset(showcase.toolset, **options)])


def test_the_model_is_shown_the_published_schemas(showcase: Any) -> None:
    script = Script()
    agent(showcase, script).run_sync("hi", deps=Deps())
    tools = script.seen[0][1].function_tools
    assert [t.name for t in tools] == ["draw_measure", "draw_removeShape", "openPage",
                                       "wb_readLog", "wb_saveNote", "wb_listNotes"]
    for tool in tools:
        module = "showcase"
        assert_sent_as_published(module, tool.name, tool.description,
                                 tool.parameters_json_schema)


def test_a_target_shows_its_view_and_maps_the_arguments_back(showcase: Any) -> None:
    """`target=`: the model is shown each tool's view (the golden file the build writes
    for the target); a null for an optional property reaches the handler as absent, and
    toolc still validates the published schema (a bound moved into the description)."""
    from toolc.runtime.dialects import TARGETS, lower_tool

    script = Script(("wb_readLog", {"lines": None, "level": None}),
                    ("wb_readLog", {"lines": 501, "level": None}))
    agent(showcase, script, target="openai-strict").run_sync("hi", deps=Deps())
    for tool in script.seen[0][1].function_tools:
        module = "workbench" if tool.name.startswith("wb_") else "showcase"
        view = lower_tool(TARGETS["openai-strict"], golden(module, tool.name))
        assert tool.parameters_json_schema == view.input_schema, tool.name
    assert outcome(script.seen[1][0][-1].parts[0]) == "success"  # the defaults applied
    retry = script.seen[2][0][-1].parts[0]
    assert outcome(retry) == "retried"
    assert retry.content == "Invalid arguments:\n- lines: 501 is greater than the maximum of 500"
    with pytest.raises(ValueError, match="unknown target 'openai'"):
        agent(showcase, Script(), target="openai").run_sync("hi", deps=Deps())


def test_deps_reach_the_predicates(showcase: Any) -> None:
    script = Script()
    agent(showcase, script).run_sync("hi", deps=Deps(drawing_disabled=True))
    names = [t.name for t in script.seen[0][1].function_tools]
    assert not any(n.startswith("draw_") for n in names) and "wb_readLog" in names


def test_a_call_returns_its_result(showcase: Any) -> None:
    script = Script(("wb_readLog", {"lines": 1, "level": "error"}))
    result = agent(showcase, script).run_sync("hi", deps=Deps())
    assert result.output == "done"
    [part] = script.last_parts()
    assert isinstance(part, ToolReturnPart)
    assert part.content == "2026-11-29 08:07:55 ERROR upstream timeout after 30s: GET /weather"


def test_bad_arguments_are_a_retry_prompt_with_the_validators_message(showcase: Any) -> None:
    script = Script(("wb_readLog", {"lines": 0}), ("wb_readLog", {"lines": 1}))
    agent(showcase, script).run_sync("hi", deps=Deps())
    retry = script.seen[1][0][-1].parts[0]
    assert outcome(retry) == "retried"
    assert retry.content == "Invalid arguments:\n- lines: 0 is less than the minimum of 1"
    assert outcome(script.last_parts()[0]) == "success"  # the corrected call ran


def test_a_handler_error_is_a_retry_prompt_or_a_failed_result(
    showcase: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("WORKBENCH_LOG", str(tmp_path / "missing.log"))
    script = Script(("wb_readLog", {}))
    agent(showcase, script).run_sync("hi", deps=Deps())
    [retry] = script.last_parts()
    assert outcome(retry) == "retried"
    assert str(retry.content).startswith("internal error in tool readLog (ref ")

    for on_error, expected in (("fail", "failed"), ("return", "success")):
        script = Script(("wb_readLog", {}))
        agent(showcase, script, on_error=on_error, expose_errors=True).run_sync(
            "hi", deps=Deps())
        [returned] = script.last_parts()
        assert outcome(returned) == expected
        assert "readLog failed: FileNotFoundError" in str(returned.content)


def test_approval_pauses_the_run_and_resumes_with_the_answer(showcase: Any) -> None:
    script = Script(("wb_saveNote", {"text": "remember"}))
    first = agent(showcase, script).run_sync("hi", deps=Deps())
    assert isinstance(first.output, DeferredToolRequests)
    [request] = first.output.approvals
    assert (request.tool_name, request.args) == ("wb_saveNote", {"text": "remember"})
    assert first.output.metadata[request.tool_call_id]["toolc_tool"] == "wb_saveNote"

    again = agent(showcase, script).run_sync(
        message_history=first.all_messages(), deps=Deps(),
        deferred_tool_results=DeferredToolResults(approvals={request.tool_call_id: True}))
    assert again.output == "done"
    [saved] = script.last_parts()
    assert isinstance(saved, ToolReturnPart) and saved.content == {"line": 1}


def test_approved_override_arguments_are_validated_and_used(showcase: Any) -> None:
    script = Script(("wb_saveNote", {"text": "draft"}), ("wb_listNotes", {}))
    first = agent(showcase, script).run_sync("hi", deps=Deps())
    call_id = first.output.approvals[0].tool_call_id
    edited = ToolApproved(override_args={"text": "edited"})
    agent(showcase, script).run_sync(
        message_history=first.all_messages(), deps=Deps(),
        deferred_tool_results=DeferredToolResults(approvals={call_id: edited}))
    [listed] = script.last_parts()
    assert listed.content == {"notes": [{"line": 1, "text": "edited"}]}

    script = Script(("wb_saveNote", {"text": "draft"}))
    first = agent(showcase, script).run_sync("hi", deps=Deps())
    call_id = first.output.approvals[0].tool_call_id
    too_long = ToolApproved(override_args={"text": "x" * 2001})
    agent(showcase, script).run_sync(
        message_history=first.all_messages(), deps=Deps(),
        deferred_tool_results=DeferredToolResults(approvals={call_id: too_long}))
    retry = script.seen[1][0][-1].parts[0]
    assert outcome(retry) == "retried" and "longer than 2000 characters" in str(retry.content)


def test_a_denied_call_is_not_run(showcase: Any) -> None:
    script = Script(("wb_saveNote", {"text": "no"}), ("wb_listNotes", {}))
    first = agent(showcase, script).run_sync("hi", deps=Deps())
    call_id = first.output.approvals[0].tool_call_id
    agent(showcase, script).run_sync(
        message_history=first.all_messages(), deps=Deps(),
        deferred_tool_results=DeferredToolResults(approvals={call_id: ToolDenied("not now")}))
    denied = script.seen[-2][0][-1].parts[0]
    assert (outcome(denied), denied.content) == ("denied", "not now")
    [listed] = script.last_parts()
    assert listed.content == {"notes": []}


def test_an_external_call_is_deferred_and_its_result_reaches_the_model(showcase: Any) -> None:
    script = Script(("openPage", {"url": "https://example.com"}))
    first = agent(showcase, script).run_sync("hi", deps=Deps())
    assert isinstance(first.output, DeferredToolRequests)
    [call] = first.output.calls
    assert (call.tool_name, call.args) == ("openPage", {"url": "https://example.com"})
    agent(showcase, script).run_sync(
        message_history=first.all_messages(), deps=Deps(),
        deferred_tool_results=DeferredToolResults(calls={call.tool_call_id: "Example Domain"}))
    [returned] = script.last_parts()
    assert isinstance(returned, ToolReturnPart) and returned.content == "Example Domain"


def test_an_external_call_with_bad_arguments_is_a_retry_prompt(showcase: Any) -> None:
    script = Script(("openPage", {}), ("openPage", {"url": "x"}))
    first = agent(showcase, script).run_sync("hi", deps=Deps())
    retry = script.seen[1][0][-1].parts[0]
    assert outcome(retry) == "retried" and "url" in str(retry.content)
    assert isinstance(first.output, DeferredToolRequests)


def test_on_error_is_checked() -> None:
    from toolc.runtime import FunctionToolset

    with pytest.raises(ValueError, match="on_error"):
        PydanticAIToolset(FunctionToolset([]), on_error="ignore")  # type: ignore[arg-type]


class Sampled(Script):
    """A script that answers a request without tools (a handler sampling it) with text."""

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if not info.function_tools:
            self.seen.append((list(messages), info))
            return ModelResponse(parts=[TextPart("navy")])
        return super().__call__(messages, info)


def test_a_handler_samples_the_agents_own_model_and_cannot_ask_the_user() -> None:
    script = Sampled(("shade", {}), ("ask", {}), ("steps", {}))
    tools = PydanticAIToolset(asking_toolset(), on_error="return")
    run = Agent(FunctionModel(script), toolsets=[tools]).run_sync("hi")
    assert run.output == "done"
    returned = [p for m in run.all_messages() if isinstance(m, ModelRequest)
                for p in m.parts if isinstance(p, ToolReturnPart)]
    shade, ask, steps = (p.content for p in returned)
    assert shade == "the model says: navy"
    [(sampled, _)] = [seen for seen in script.seen if not seen[1].function_tools]
    assert [type(p) for m in sampled for p in m.parts] == [SystemPromptPart, UserPromptPart]
    assert str(ask).startswith(NO_ELICIT.format("a pydantic-ai run"))
    assert steps == "stepped"  # progress goes nowhere, log messages to `logging`
