"""A compiled toolset as LangChain tools: `await langchain_tools(toolset)`.

```python
import asyncio

import generated.workbench as workbench
from toolc.adapters.langchain import langchain_tools

tools = asyncio.run(langchain_tools(workbench.toolset))  # then chat_model.bind_tools(tools)
assert [tool.name for tool in tools] == ["wb_readLog", "wb_saveNote", "wb_listNotes"]
```

- Each tool is an async `BaseTool` whose `args_schema` is the published JSON Schema
  dict, as written; call it with `await tool.ainvoke(tool_call)`. LangChain's own
  conversion for a model (`convert_to_openai_tool`) inlines `$ref`s and drops `title`
  keys; `schema_changes(tool)` lists where it would change the published schema (none
  for schemas without them).
- errors (invalid arguments, a handler that raised, a denied call) come back as a
  `ToolMessage` with `status="error"` and the runtime's message as its content, the way
  LangChain reports a `ToolException` to the model.
- deps: `deps=` is every call's `ctx.deps`.
- approval: LangChain has no pause of its own, so `approve(tool_name, args)` decides
  (sync or async, True to run); without it a call that needs approval is refused with an
  error message. In LangGraph, an `approve` that calls `langgraph.types.interrupt(...)`
  pauses the graph and resumes with the answer, which is LangGraph's way.
- external tools: `run_external(tool_name, args)` runs them; without it the call
  answers with an error message.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from toolc.adapters._common import (
    FrameworkClient,
    calling,
    failure_policy,
    pause_request,
    published_schema,
    require,
)
from toolc.runtime.context import RunContext
from toolc.runtime.deferred import (
    ApprovalRequiredError,
    Approved,
    DeferredCallError,
    ExternalCallRequired,
)
from toolc.runtime.definition import ToolDefinition
from toolc.runtime.json_pointers import json_differences
from toolc.runtime.results import ToolResult, to_tool_result
from toolc.runtime.toolsets.abstract import AbstractToolset

require("langchain", "langchain_core")

from langchain_core.callbacks.manager import adispatch_custom_event
from langchain_core.tools import BaseTool, ToolException
from langchain_core.utils.function_calling import convert_to_openai_tool

Decide = Callable[[str, dict[str, Any]], bool | Awaitable[bool]]
"""`approve(name, args)`: whether an approval-required call may run (sync or async)."""
RunExternal = Callable[[str, dict[str, Any]], Any | Awaitable[Any]]
"""`run_external(name, args)`: run an external tool, returning what its result is."""


async def _maybe_await(value: Any) -> Any:
    return await value if hasattr(value, "__await__") else value



class LangChainClient(FrameworkClient):
    """The caller of a LangChain tool: `ctx.report_progress` dispatches the custom event
    `toolc_progress` (`{"progress", "total", "message"}`: `astream_events` streams it),
    the rest as in any framework (`FrameworkClient`)."""

    async def report_progress(self, progress: float, total: float | None = None,
                              message: str | None = None) -> None:
        try:
            await adispatch_custom_event("toolc_progress", {
                "progress": progress, "total": total, "message": message})
        except RuntimeError:  # called outside a LangChain run: nobody asked
            return


_CLIENT = LangChainClient("a LangChain tool call")

class ToolcTool(BaseTool):
    """One tool of a toolc toolset; built by `langchain_tools`.

    Attributes:
        toolset: The toolc toolset the tool is called on.
        deps: The `ctx.deps` of every call.
        approve: The `Decide` function for approval-required calls, or None.
        run_external: The `RunExternal` function for external tools, or None.
        failures: How unexpected handler exceptions read (masked unless exposed).
        handle_tool_error: LangChain's own: True, so that error results come back as
            `ToolMessage`s with `status="error"`.
    """

    toolset: Any
    deps: Any = None
    approve: Any = None
    run_external: Any = None
    failures: Any = None  # a FailurePolicy
    handle_tool_error: Any = True

    # The arguments travel as one value, never as keyword arguments: a property named
    # `config` or `run_manager` would collide with LangChain's own.
    def _to_args_and_kwargs(self, tool_input: str | dict[str, Any],
                            tool_call_id: str | None) -> tuple[tuple[Any, ...], dict[str, Any]]:
        if isinstance(tool_input, str):  # LangChain refuses strings for a dict schema
            raise ToolException("Invalid arguments: a JSON object is expected, not a string")
        return (), {"toolc_call": (dict(tool_input), tool_call_id)}

    def _run(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"{self.name} is async: use ainvoke")

    async def _arun(self, toolc_call: tuple[dict[str, Any], str | None]) -> Any:
        args, call_id = toolc_call
        ctx = RunContext(deps=self.deps, tool_call_id=call_id, client=_CLIENT)
        with calling(self.failures or failure_policy(False)):
            result = await self._call(ctx, args)
        if result.is_error:
            raise ToolException(result.text_content or "The tool call failed.")
        if result.structured_content is not None:
            return json.dumps(result.structured_content, ensure_ascii=False)
        return result.text_content

    async def _call(self, ctx: RunContext[Any], args: dict[str, Any]) -> ToolResult:
        try:
            return await self.toolset.call_tool(ctx, self.name, args)  # type: ignore[no-any-return]
        except ApprovalRequiredError as paused:
            return await self._approval(ctx, paused, args)
        except ExternalCallRequired as paused:
            if self.run_external is None:
                return ToolResult.error(f"{self.name} is an external tool, and no "
                                        "run_external was given; the call was not run.")
            value = await _maybe_await(self.run_external(self.name, pause_request(paused).args))
            return to_tool_result(value, self.name)
        except DeferredCallError as paused:
            return ToolResult.error(f"{self.name} cannot run here: {paused}")

    async def _approval(self, ctx: RunContext[Any], paused: ApprovalRequiredError,
                        args: dict[str, Any]) -> ToolResult:
        request = pause_request(paused)
        if self.approve is None:
            return ToolResult.error(f"{self.name} needs approval, and no approve was "
                                    "given; the call was not run.")
        if await _maybe_await(self.approve(self.name, request.args)) is not True:
            return ToolResult.error(f"The call to {self.name!r} was not approved; it was "
                                    "not run.")
        approved = ctx.for_call(request.call_id).resume(
            approvals={request.call_id: Approved()})
        try:
            return await self.toolset.call_tool(approved, self.name, args)  # type: ignore[no-any-return]
        except DeferredCallError as again:
            return ToolResult.error(f"{self.name} cannot run here: {again}")


def _tool(toolset: AbstractToolset[Any], definition: ToolDefinition, **options: Any) -> ToolcTool:
    return ToolcTool(name=definition.name, description=definition.description or "",
                     args_schema=published_schema(definition), toolset=toolset, **options)


async def langchain_tools(
    toolset: AbstractToolset[Any],
    *,
    deps: Any = None,
    approve: Decide | None = None,
    run_external: RunExternal | None = None,
    expose_errors: bool = False,
) -> list[BaseTool]:
    """The tools `toolset` lists for `deps`, as async LangChain tools.

    `expose_errors`: as for `PydanticAIToolset` (unexpected exceptions masked by default).
    """
    listed = await toolset.list_tools(RunContext(deps=deps))
    failures = failure_policy(expose_errors)
    return [_tool(toolset, d, deps=deps, approve=approve, run_external=run_external,
                  failures=failures) for d in listed]


def schema_changes(tool: BaseTool) -> list[str]:
    """Where LangChain's conversion for a model changes the published schema (JSON
    pointers; empty: it sends the schema as published)."""
    sent = convert_to_openai_tool(tool)["function"].get("parameters")
    return [p or "/" for p, _, _ in json_differences(tool.args_schema, sent)]
