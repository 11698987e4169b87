"""toolc.adapters.openai_agents through the Agents SDK's own Runner, with a scripted
Model: the tool definitions it is sent, and how each kind of call comes back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from adapter_support import NO_ELICIT, Deps, asking_toolset, assert_sent_as_published, golden

pytest.importorskip("agents")

from agents import Agent, RunConfig, Runner
from agents.items import ModelResponse
from agents.models.chatcmpl_converter import Converter
from agents.models.interface import Model
from agents.usage import Usage
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)
from toolc.adapters.openai_agents import function_tools, strict_problems


class Script(Model):
    """Makes the given tool calls, one per request, then says "done"; keeps what it saw."""

    def __init__(self, *calls: tuple[str, dict[str, Any]]) -> None:
        self.calls = list(calls)
        self.inputs: list[Any] = []
        self.tools: list[Any] = []

    async def get_response(self, system_instructions: Any, input: Any, model_settings: Any,
                           tools: Any, output_schema: Any, handoffs: Any, tracing: Any,
                           **kwargs: Any) -> ModelResponse:
        self.inputs.append(input)
        self.tools.append([Converter.tool_to_openai(t) for t in tools])
        if not self.calls:
            text = ResponseOutputText(text="done", type="output_text", annotations=[])
            message = ResponseOutputMessage(id="m", role="assistant", status="completed",
                                            type="message", content=[text])
            return ModelResponse(output=[message], usage=Usage(), response_id=None)
        name, args = self.calls.pop(0)
        call = ResponseFunctionToolCall(type="function_call", name=name, arguments=json.dumps(args),
                                        call_id=f"call-{len(self.inputs)}")
        return ModelResponse(output=[call], usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError

    def last_output(self) -> Any:
        """What the last tool call answered, as the model reads it."""
        outputs = [i for i in self.inputs[-1] if isinstance(i, dict)
                   and i.get("type") == "function_call_output"]
        return outputs[-1]["output"]


# No tracing: the SDK's trace exporter would start a thread, and a process with other
# threads running must not fork (the certifier tests refuse to, rightly).
NO_TRACING = RunConfig(tracing_disabled=True)


async def run(agent: Agent[Any], input: Any, **kwargs: Any) -> Any:
    return await Runner.run(agent, input, run_config=NO_TRACING, **kwargs)


async def agent(showcase: Any, script: Script, deps: Deps | None = None) -> Agent[Any]:
    tools = await function_tools(showcase.toolset, deps=deps or Deps())
    return Agent(name="test", model=script, tools=tools)


@pytest.mark.anyio
async def test_the_model_is_sent_the_published_schemas(showcase: Any) -> None:
    script = Script()
    await run(await agent(showcase, script), "hi", context=Deps())
    sent = [t["function"] for t in script.tools[0]]
    assert [t["name"] for t in sent] == ["draw_measure", "draw_removeShape", "openPage",
                                         "wb_readLog", "wb_saveNote", "wb_listNotes"]
    for tool in sent:
        assert_sent_as_published("showcase", tool["name"], tool["description"],
                                 tool["parameters"])
        assert tool["strict"] is False  # none of the bundled schemas is in the strict subset


def test_strict_problems_say_why() -> None:
    schema = golden("showcase", "wb_readLog")["inputSchema"]
    required = ("strict mode requires every property in `required` (an optional one is "
                "written as a required union with null)")
    assert sorted(strict_problems(schema)) == sorted([
        f"/properties/level: openai-strict rejects the optional property 'level': {required}",
        f"/properties/lines: openai-strict rejects the optional property 'lines': {required}",
        ("/properties/lines/default: openai-strict rejects `default`: strict mode does not "
         "permit 'default' (every property is required there, so a default never applies)"),
    ])
    assert any(p.startswith("/properties/url/format: openai-strict rejects format 'uri'")
               for p in strict_problems(golden("showcase", "openPage")["inputSchema"]))
    strict = {"type": "object", "additionalProperties": False, "required": ["a"],
              "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "null"}],
                                   "description": "A."}}}
    assert strict_problems(strict) == []
    assert strict_problems({**strict, "oneOf": [strict]})[0].startswith(
        "/oneOf: openai-strict changes `oneOf`: the Agents SDK rewrites oneOf as anyOf")


@pytest.mark.anyio
async def test_a_strict_schema_is_sent_strict_and_unchanged() -> None:
    from toolc.runtime import FunctionToolset, Tool

    schema = {"type": "object", "additionalProperties": False, "required": ["a"],
              "properties": {"a": {"type": "string", "description": "A."}}}
    toolset = FunctionToolset([Tool("echo", "Echo.", handler=lambda ctx, a: a,
                                    input_schema=schema)])
    [tool] = await function_tools(toolset)
    sent = Converter.tool_to_openai(tool)["function"]
    assert sent["strict"] is True and sent["parameters"] == schema
    unlowerable = {"type": "object", "properties": {"p": {
        "description": "A point.", "anyOf": [{"type": "string"}, {"type": "array"}],
        "oneOf": [{"type": "string"}, {"type": "array"}]}}}
    with pytest.raises(ValueError, match="cannot be sent as openai-strict's view:\n/properties/p/oneOf: "
                       "openai-strict rejects `oneOf` beside `anyOf`"):
        await function_tools(FunctionToolset([Tool("odd", "Odd.", handler=lambda ctx, p: p,
                                                    input_schema=unlowerable)]), strict=True)


@pytest.mark.anyio
async def test_strict_true_sends_the_openai_strict_view(showcase: Any) -> None:
    """Each tool is sent as its openai-strict view (the golden file the build writes for
    the target), strict; the model's null for an optional property is absent again, and
    the runtime still enforces the canonical schema (a bound moved into the description
    still holds)."""
    from toolc.runtime.dialects import TARGETS, lower_tool

    script = Script(("wb_readLog", {"lines": None, "level": None}),
                    ("wb_readLog", {"lines": 501, "level": None}))
    tools = await function_tools(showcase.toolset, deps=Deps(), strict=True)
    await run(Agent(name="t", model=script, tools=tools), "hi", context=Deps())
    for sent in (t["function"] for t in script.tools[0]):
        module = "workbench" if sent["name"].startswith("wb_") else "showcase"
        view = lower_tool(TARGETS["openai-strict"], golden(module, sent["name"]))
        assert sent["strict"] is True and sent["parameters"] == view.input_schema
    read_log = next(t["function"] for t in script.tools[0] if t["function"]["name"] ==
                    "wb_readLog")
    assert read_log["parameters"]["required"] == ["level", "lines"]
    first = [i for i in script.inputs[1] if isinstance(i, dict)
             and i.get("type") == "function_call_output"][-1]["output"]
    assert first.endswith("INFO GET /notes 200 3ms")  # run with the defaults: no error
    assert script.last_output() == \
        "Invalid arguments:\n- lines: 501 is greater than the maximum of 500"


@pytest.mark.anyio
async def test_deps_hide_tools_each_turn(showcase: Any) -> None:
    script = Script()
    await run(await agent(showcase, script), "hi", context=Deps(drawing_disabled=True))
    names = [t["function"]["name"] for t in script.tools[0]]
    assert "draw_measure" not in names and "wb_readLog" in names


@pytest.mark.anyio
async def test_a_call_bad_arguments_and_a_handler_error(
    showcase: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    script = Script(("wb_readLog", {"lines": 1, "level": "error"}), ("wb_readLog", {"lines": 0}))
    result = await run(await agent(showcase, script), "hi", context=Deps())
    assert result.final_output == "done"
    assert script.inputs[1][-1]["output"] == \
        "2026-11-29 08:07:55 ERROR upstream timeout after 30s: GET /weather"
    assert script.last_output() == "Invalid arguments:\n- lines: 0 is less than the minimum of 1"

    monkeypatch.setenv("WORKBENCH_LOG", str(tmp_path / "missing.log"))
    script = Script(("wb_readLog", {}))
    await run(await agent(showcase, script), "hi", context=Deps())
    assert script.last_output().startswith("internal error in tool readLog (ref ")
    script = Script(("wb_readLog", {}))
    tools = await function_tools(showcase.toolset, expose_errors=True)
    await run(Agent(name="t", model=script, tools=tools), "hi", context=Deps())
    assert script.last_output().startswith("readLog failed: FileNotFoundError")


@pytest.mark.anyio
async def test_approval_interrupts_and_resumes(showcase: Any) -> None:
    script = Script(("wb_saveNote", {"text": "remember"}))
    the_agent = await agent(showcase, script)
    first = await run(the_agent, "hi", context=Deps())
    [item] = first.interruptions
    assert item.raw_item.name == "wb_saveNote"
    state = first.to_state()
    state.approve(item)
    again = await run(the_agent, state)
    assert again.final_output == "done"
    assert json.loads(script.last_output()) == {"line": 1}


@pytest.mark.anyio
async def test_a_rejected_call_is_not_run(showcase: Any) -> None:
    script = Script(("wb_saveNote", {"text": "no"}), ("wb_listNotes", {}))
    the_agent = await agent(showcase, script)
    first = await run(the_agent, "hi", context=Deps())
    state = first.to_state()
    state.reject(first.interruptions[0])
    await run(the_agent, state)
    assert json.loads(script.last_output()) == {"notes": []}


@pytest.mark.anyio
async def test_external_tools_run_through_run_external_or_say_they_cannot(showcase: Any) -> None:
    script = Script(("openPage", {"url": "https://example.com"}))
    await run(await agent(showcase, script), "hi", context=Deps())
    assert script.last_output().startswith("openPage is an external tool")

    opened: list[Any] = []

    async def open_page(name: str, args: dict[str, Any]) -> str:
        opened.append((name, args))
        return "Example Domain"

    script = Script(("openPage", {"url": "https://example.com"}))
    tools = await function_tools(showcase.toolset, deps=Deps(), run_external=open_page)
    await run(Agent(name="t", model=script, tools=tools), "hi", context=Deps())
    assert script.last_output() == "Example Domain"
    assert opened == [("openPage", {"url": "https://example.com"})]


@pytest.mark.anyio
async def test_a_handler_cannot_ask_the_user_or_sample_and_hears_why() -> None:
    script = Script(("ask", {}), ("shade", {}), ("steps", {}))
    tools = await function_tools(asking_toolset())
    await run(Agent(name="t", model=script, tools=tools), "hi")
    asked, sampled, stepped = (script.inputs[i][-1]["output"] for i in (1, 2, 3))
    assert asked.startswith(NO_ELICIT.format("an OpenAI Agents SDK run"))
    assert sampled.startswith("ctx.sample is not available in an OpenAI Agents SDK run")
    assert stepped == "stepped"
