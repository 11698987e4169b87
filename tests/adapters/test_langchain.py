"""toolc.adapters.langchain in LangChain's tool-calling loop, with a scripted chat model
that binds tools the way provider models do (`convert_to_openai_tool`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from adapter_support import NO_ELICIT, Deps, asking_toolset, assert_sent_as_published
from pydantic import Field

pytest.importorskip("langchain_core")

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.utils.function_calling import convert_to_openai_tool
from toolc.adapters.langchain import langchain_tools, schema_changes


class ScriptedChatModel(BaseChatModel):
    """Answers with the given tool calls, one per turn, then "done"."""

    calls: list[tuple[str, dict[str, Any]]] = Field(default_factory=list)
    bound: list[dict[str, Any]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        self.bound = [convert_to_openai_tool(t) for t in tools]
        return self

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None,
                  **kwargs: Any) -> ChatResult:
        turn = sum(isinstance(m, AIMessage) for m in messages)
        if turn >= len(self.calls):
            message = AIMessage(content="done")
        else:
            name, args = self.calls[turn]
            message = AIMessage(content="", tool_calls=[
                {"name": name, "args": args, "id": f"call-{turn}", "type": "tool_call"}])
        return ChatResult(generations=[ChatGeneration(message=message)])


async def run(tools: list[Any], *calls: tuple[str, dict[str, Any]]) -> tuple[
        ScriptedChatModel, list[ToolMessage]]:
    """LangChain's tool loop: the model asks, each tool call's ToolMessage goes back."""
    model = ScriptedChatModel(calls=list(calls))
    bound = model.bind_tools(tools)
    by_name = {t.name: t for t in tools}
    messages: list[BaseMessage] = [HumanMessage("hi")]
    answers: list[ToolMessage] = []
    while True:
        ai = await bound.ainvoke(messages)
        messages.append(ai)
        if not ai.tool_calls:
            return model, answers
        for call in ai.tool_calls:
            answer = await by_name[call["name"]].ainvoke(call)
            answers.append(answer)
            messages.append(answer)


@pytest.mark.anyio
async def test_the_model_is_bound_to_the_published_schemas(showcase: Any) -> None:
    tools = await langchain_tools(showcase.toolset, deps=Deps())
    model, _ = await run(tools)
    for sent in model.bound:
        function = sent["function"]
        assert_sent_as_published("showcase", function["name"], function["description"],
                                 function["parameters"])
    assert all(schema_changes(t) == [] for t in tools)


@pytest.mark.anyio
async def test_schema_changes_names_what_langchain_would_change() -> None:
    from toolc.runtime import FunctionToolset, Tool

    schema = {"type": "object", "properties": {"title": {"type": "string", "title": "T"}}}
    toolset = FunctionToolset([Tool("t", "T.", handler=lambda ctx, title: title,
                                    input_schema=schema)])
    [tool] = await langchain_tools(toolset)
    assert schema_changes(tool) == ["/properties/title/title"]


@pytest.mark.anyio
async def test_deps_reach_the_predicates(showcase: Any) -> None:
    names = [t.name for t in await langchain_tools(showcase.toolset,
                                                   deps=Deps(drawing_disabled=True))]
    assert "draw_measure" not in names and "wb_readLog" in names


@pytest.mark.anyio
async def test_a_call_bad_arguments_and_a_handler_error(
    showcase: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    tools = await langchain_tools(showcase.toolset, deps=Deps())
    _, answers = await run(tools, ("wb_readLog", {"lines": 1, "level": "error"}),
                           ("wb_readLog", {"lines": 0}), ("wb_listNotes", {}))
    ok, bad, listed = answers
    assert (ok.status, ok.content) == (
        "success", "2026-11-29 08:07:55 ERROR upstream timeout after 30s: GET /weather")
    assert (bad.status, bad.content) == (
        "error", "Invalid arguments:\n- lines: 0 is less than the minimum of 1")
    assert json.loads(listed.content) == {"notes": []}

    monkeypatch.setenv("WORKBENCH_LOG", str(tmp_path / "missing.log"))
    _, [failed] = await run(tools, ("wb_readLog", {}))
    assert failed.status == "error"
    assert failed.content.startswith("internal error in tool readLog (ref ")
    exposing = await langchain_tools(showcase.toolset, expose_errors=True)
    _, [failed] = await run(exposing, ("wb_readLog", {}))
    assert failed.content.startswith("readLog failed: FileNotFoundError")


@pytest.mark.anyio
async def test_approval_asks_approve_and_runs_only_when_approved(showcase: Any) -> None:
    asked: list[Any] = []

    async def approve(name: str, args: dict[str, Any]) -> bool:
        asked.append((name, args))
        return args["text"] == "yes"

    tools = await langchain_tools(showcase.toolset, deps=Deps(), approve=approve)
    _, [saved, refused] = await run(tools, ("wb_saveNote", {"text": "yes"}),
                                    ("wb_saveNote", {"text": "no"}))
    assert json.loads(saved.content) == {"line": 1}
    assert refused.status == "error" and "not approved" in refused.content
    assert asked == [("wb_saveNote", {"text": "yes"}), ("wb_saveNote", {"text": "no"})]

    unasked = await langchain_tools(showcase.toolset, deps=Deps())
    _, [no_approver] = await run(unasked, ("wb_saveNote", {"text": "x"}))
    assert no_approver.status == "error" and "needs approval" in no_approver.content


@pytest.mark.anyio
async def test_external_tools_run_through_run_external(showcase: Any) -> None:
    tools = await langchain_tools(showcase.toolset, deps=Deps(),
                                  run_external=lambda name, args: f"opened {args['url']}")
    _, [opened] = await run(tools, ("openPage", {"url": "https://example.com"}))
    assert opened.content == "opened https://example.com"


@pytest.mark.anyio
async def test_progress_is_a_langchain_custom_event_and_questions_are_refused() -> None:
    from langchain_core.runnables import RunnableLambda

    tools = {t.name: t for t in await langchain_tools(asking_toolset())}

    async def steps(_: Any) -> Any:
        return await tools["steps"].ainvoke({})

    events = [e async for e in RunnableLambda(steps).astream_events({}, version="v2")
              if e["event"] == "on_custom_event"]
    assert [(e["name"], e["data"]) for e in events] == [
        ("toolc_progress", {"progress": 1, "total": 2, "message": "step 1"}),
        ("toolc_progress", {"progress": 2, "total": 2, "message": "step 2"})]
    assert await tools["steps"].ainvoke({}) == "stepped"  # outside a run: nobody to tell
    _, [asked, sampled] = await run(list(tools.values()), ("ask", {}), ("shade", {}))
    assert asked.status == "error"
    assert asked.content.startswith(NO_ELICIT.format("a LangChain tool call"))
    assert sampled.content.startswith("ctx.sample is not available in a LangChain tool call")
