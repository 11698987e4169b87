"""A compiled toolset as OpenAI Agents SDK `FunctionTool`s: `await function_tools(toolset)`.

```python
import asyncio

import generated.workbench as workbench
from agents import Agent
from toolc.adapters.openai_agents import function_tools

agent = Agent(name="desk", tools=asyncio.run(function_tools(workbench.toolset)))
assert [tool.name for tool in agent.tools] == ["wb_readLog", "wb_saveNote", "wb_listNotes"]
```

- Each tool's `params_json_schema` is the published input schema as written.
- `strict_json_schema` is on only when the schema already is in OpenAI's strict subset
  and the SDK's own strict conversion would leave it unchanged; `strict_problems(schema)`
  says why a schema is not, in the words of the build's `openai-strict` target check
  (the same table, `toolc.runtime.dialects`; the SDK would otherwise rewrite it: every
  property made required, `additionalProperties: false` added, `oneOf` turned into
  `anyOf`). `strict=False` never asks.
- `strict=True` hands the SDK the tool's `openai-strict` view instead: the golden file
  the build writes as `schemas/<module>/openai-strict/<tool>.json` (the same lowering,
  `toolc.runtime.dialects.lower_tool`), sent strict, which the SDK leaves as it is. A
  tool the view cannot carry is a `ValueError` listing what the build's check says of it.
  The model's arguments are mapped back to the canonical schema's (a null for an
  optional property the view made required is absent again:
  `toolc.runtime.dialects.canonical_arguments`), and the runtime validates them against
  the canonical schema as for any call.
- deps: the SDK's run context (`Runner.run(agent, input, context=deps)`) is toolc's
  `ctx.deps`; each turn the SDK asks `is_enabled`, which lists the toolset with those
  deps, so filtered and prepared sets hide tools as they do elsewhere (the schemas and
  descriptions are those of the first listing).
- approval: tools whose calls need approval have `needs_approval=True`; the run stops
  with `result.interruptions`, and `state.approve(item)` / `state.reject(item)` then
  `Runner.run(agent, state)` resume it, as for any SDK tool.
- errors (invalid arguments, a handler that raised) are returned to the model as text,
  which is how the SDK reports tool failures to the model.
- external tools cannot pause a run in the SDK: a call answers with an error text unless
  `run_external(tool_name, args)` is given, whose return value is the result.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from toolc.adapters._common import (
    FrameworkClient,
    approval_names,
    calling,
    failure_policy,
    published_schema,
    require,
    target_view,
)
from toolc.runtime.context import RunContext
from toolc.runtime.deferred import (
    ApprovalRequiredError,
    Approved,
    DeferredCallError,
    ExternalCallRequired,
)
from toolc.runtime.definition import ToolDefinition
from toolc.runtime.dialects import TARGETS, canonical_arguments, check_tool
from toolc.runtime.failures import FailurePolicy
from toolc.runtime.json_pointers import json_differences
from toolc.runtime.results import ImageContent, ToolResult, to_tool_result
from toolc.runtime.toolsets.abstract import AbstractToolset

require("openai-agents", "agents")

from agents import FunctionTool, RunContextWrapper
from agents.strict_schema import ensure_strict_json_schema
from agents.tool import ToolOutputImage
from agents.tool_context import ToolContext

RunExternal = Callable[[str, dict[str, Any]], Any | Awaitable[Any]]
"""`run_external(name, args)`: run an external tool, returning what its result is."""


# A call's RunContext.client: no elicitation or sampling in an SDK run
_CLIENT = FrameworkClient("an OpenAI Agents SDK run")


def strict_problems(schema: Mapping[str, Any]) -> list[str]:
    """Why `schema` cannot be sent with `strict: true` as it is, one line per reason
    (empty: it can, unchanged): the build's `openai-strict` target check
    (`toolc.runtime.dialects`), then what the SDK's own strict conversion would change."""
    problems = [f"{f.pointer or '/'}: {f.says()}"
                for f in check_tool(TARGETS["openai-strict"], None, schema, base="")]
    if not problems:
        problems += _sdk_changes(schema)
    return problems


def _sdk_changes(schema: Mapping[str, Any]) -> list[str]:
    """What the SDK's strict conversion would change (it must change nothing)."""
    original = json.loads(json.dumps(schema))
    try:
        converted = ensure_strict_json_schema(json.loads(json.dumps(schema)))
    except Exception as exc:  # noqa: BLE001  # the SDK refuses it: that is the reason
        return [f"/: the SDK's strict conversion refuses it: {exc}"]
    return [f"{p or '/'}: the SDK's strict conversion would change it"
            for p, _, _ in json_differences(original, converted)]


async def function_tools(
    toolset: AbstractToolset[Any],
    *,
    deps: Any = None,
    strict: bool | None = None,
    run_external: RunExternal | None = None,
    expose_errors: bool = False,
) -> list[FunctionTool]:
    """The tools `toolset` lists for `deps`, as FunctionTools (see the module docstring).

    `expose_errors`: as for `PydanticAIToolset` (unexpected exceptions masked by default).
    """
    needs_approval = approval_names(toolset)
    failures = failure_policy(expose_errors)
    tools = []
    for definition in await toolset.list_tools(RunContext(deps=deps)):
        schema = published_schema(definition)
        canonical = None
        if strict:
            canonical, schema = schema, target_view("openai-strict", definition, schema)
        sent_strict = strict if strict is not None else not strict_problems(schema)
        tools.append(_function_tool(toolset, definition, schema, canonical,
                                    strict=sent_strict,
                                    approval=definition.name in needs_approval,
                                    run_external=run_external, failures=failures))
    return tools


def _function_tool(
    toolset: AbstractToolset[Any],
    definition: ToolDefinition,
    schema: dict[str, Any],
    canonical: dict[str, Any] | None,
    *,
    strict: bool,
    approval: bool,
    run_external: RunExternal | None,
    failures: FailurePolicy,
) -> FunctionTool:
    name = definition.name

    async def invoke(ctx: ToolContext[Any], arguments: str) -> Any:
        try:
            args = json.loads(arguments or "{}")
        except ValueError as exc:
            return f"Invalid arguments: not JSON: {exc}"
        if not isinstance(args, dict):
            return "Invalid arguments:\n- (arguments): not an object"
        if canonical is not None:  # sent the view: its arguments as the canonical takes them
            args = canonical_arguments(canonical, args)
        run_ctx = RunContext(deps=ctx.context, tool_call_id=ctx.tool_call_id, client=_CLIENT)
        if approval:  # the SDK calls a needs_approval tool only once it is approved
            run_ctx = run_ctx.resume(approvals={ctx.tool_call_id: Approved()})
        with calling(failures):
            result = await _call(toolset, run_ctx, name, args, run_external)
        return sdk_output(result)

    async def enabled(ctx: RunContextWrapper[Any], agent: Any) -> bool:
        listed = await toolset.list_tools(RunContext(deps=ctx.context))
        return any(d.name == name for d in listed)

    return FunctionTool(
        name=name,
        description=definition.description or "",
        params_json_schema=schema,
        on_invoke_tool=invoke,
        strict_json_schema=strict,
        is_enabled=enabled,
        needs_approval=approval,
    )


async def _call(
    toolset: AbstractToolset[Any],
    ctx: RunContext[Any],
    name: str,
    args: dict[str, Any],
    run_external: RunExternal | None,
) -> ToolResult:
    try:
        return await toolset.call_tool(ctx, name, args)
    except ApprovalRequiredError:
        return ToolResult.error(f"{name} asked for approval, which this toolset did not "
                                "declare beforehand; the call was not run.")
    except ExternalCallRequired as paused:
        if run_external is None:
            return ToolResult.error(f"{name} is an external tool, and no run_external was "
                                    "given to run it; the call was not run.")
        value = run_external(name, paused.requests[0].args)
        if hasattr(value, "__await__"):
            value = await value
        return to_tool_result(value, name)
    except DeferredCallError as paused:
        return ToolResult.error(f"{name} cannot run here: {paused}")


def sdk_output(result: ToolResult) -> Any:
    """A toolc result as the SDK's tool output: JSON text for structured content, text,
    and `ToolOutputImage`s for images."""
    if result.structured_content is not None and not result.is_error:
        return json.dumps(result.structured_content, ensure_ascii=False)
    images = [b for b in result.content if isinstance(b, ImageContent)]
    if not images:
        return result.text_content
    out: list[Any] = [ToolOutputImage(image_url=f"data:{b.mime_type};base64,{b.data}")
                      for b in images]
    return [result.text_content, *out] if result.text_content else out
