"""A compiled toolset as a pydantic-ai toolset: `PydanticAIToolset(module.toolset)`.

```python
import generated.workbench as workbench
from pydantic_ai import Agent
from pydantic_ai.models.test import TestModel  # your model here
from toolc.adapters.pydantic_ai import PydanticAIToolset

agent = Agent(TestModel(call_tools=["wb_readLog"]),
              toolsets=[PydanticAIToolset(workbench.toolset)])
assert "ERROR upstream timeout" in agent.run_sync("Any errors in the log?").output
```

**Two libraries, the same class names.** toolc's runtime names some of its classes as
pydantic-ai does, because they play the same part, but they are different classes:

| toolc (`toolc.runtime`) | pydantic-ai | how this adapter relates them |
|---|---|---|
| `RunContext` (deps, step, tool_call_id, approvals, external_results) | `pydantic_ai.RunContext` | each call's toolc context is made from pydantic-ai's: same `deps`, `step` = `run_step`, same `tool_call_id` |
| `AbstractToolset` (`list_tools`, `call_tool(ctx, name, args)`) | `pydantic_ai.toolsets.AbstractToolset` (`get_tools`, `call_tool(name, args, ctx, tool)`) | `PydanticAIToolset` is a pydantic-ai `AbstractToolset` wrapping a toolc one |
| `FunctionToolset`, `CombinedToolset`, `FilteredToolset`, `PreparedToolset`, `RenamedToolset`, `PrefixedToolset`, `WrapperToolset`, `ApprovalRequiredToolset`, `ExternalToolset` | same names in `pydantic_ai.toolsets` | compose on the toolc side (in the spec); the adapter wraps the result once |
| `ToolDefinition` (`input_schema`) | `pydantic_ai.tools.ToolDefinition` (`parameters_json_schema`) | `parameters_json_schema` is the published `input_schema`, as written |
| `ApprovalRequiredError`, `Approved`, `Denied` | `ApprovalRequired`, `ToolApproved`, `ToolDenied` | a toolc pause is raised as `ApprovalRequired`; pydantic-ai's answer resumes it |
| `ExternalCallRequired` | `CallDeferred` | a toolc external call is raised as `CallDeferred` |

Import one side under another name when a module uses both
(`from toolc import runtime as rt`, then `rt.RunContext`).

Behaviour, as pydantic-ai users expect it:

- deps: `agent.run(..., deps=d)` reaches predicates, prepare functions and handlers as
  `ctx.deps`.
- arguments are validated by toolc against the published schema (pydantic-ai's own
  validation is left out: it would be a second, different contract).
- error results (invalid arguments, a handler that raised, a denied call) become a retry
  prompt (`ModelRetry`) by default, counted against `max_retries`; `on_error="fail"`
  sends them as a failed tool result without a retry request (`ToolFailed`), and
  `on_error="return"` as an ordinary tool result.
- approval: a call that needs approval ends the run with `DeferredToolRequests.approvals`
  (use `output_type=[str, DeferredToolRequests]`); run again with
  `deferred_tool_results=DeferredToolResults(approvals={call_id: True | ToolApproved(
  override_args=...) | ToolDenied(message)})` and the same message history. pydantic-ai
  answers denials itself; approved calls run, with the override arguments validated too.
- external tools: a call validates its arguments and then ends the run with
  `DeferredToolRequests.calls`; the caller's result comes back through
  `DeferredToolResults(calls={call_id: result})`, which pydantic-ai hands to the model.
- results: structured content as a dict, text as a str, images and audio as
  `BinaryContent`.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, Self, cast

from toolc.adapters._common import (
    FrameworkClient,
    calling,
    failure_policy,
    pause_request,
    published_schema,
    require,
    target_view,
)
from toolc.runtime.client import Sampled
from toolc.runtime.context import RunContext as ToolcContext
from toolc.runtime.deferred import ApprovalRequiredError, Approved, ExternalCallRequired
from toolc.runtime.dialects import canonical_arguments
from toolc.runtime.results import AudioContent, ImageContent, TextContent, ToolResult
from toolc.runtime.toolsets.abstract import AbstractToolset as ToolcToolset

require("pydantic-ai", "pydantic_ai")

from pydantic_ai import RunContext
from pydantic_ai.direct import model_request
from pydantic_ai.exceptions import ApprovalRequired, CallDeferred, ModelRetry, ToolFailed
from pydantic_ai.messages import (
    BinaryContent,
    ModelRequest,
    ModelResponse,
    SystemPromptPart,
    TextPart,
    UserPromptPart,
)
from pydantic_ai.tools import ToolDefinition
from pydantic_ai.toolsets import AbstractToolset, ToolsetTool
from pydantic_core import SchemaValidator, core_schema

if TYPE_CHECKING:
    from toolc.runtime.definition import ToolDefinition as ToolcDefinition

OnError = Literal["retry", "fail", "return"]
"""What an error result becomes: a retry prompt (`ModelRetry`), a failed run
(`ToolFailed`), or the text returned to the model as the tool's output."""

# toolc validates against the published schema; pydantic-ai only parses the JSON.
_ANY_ARGS = SchemaValidator(core_schema.any_schema())


class PydanticAIToolset(AbstractToolset[Any]):
    """Any toolc toolset as a pydantic-ai toolset (see the module docstring).

    Args:
        toolset: The toolc toolset.
        id: The toolset's id for pydantic-ai (the toolc set's own by default).
        on_error: What an error result becomes (`OnError`).
        max_retries: Retries per tool before pydantic-ai gives up on the run.
        strict: `ToolDefinition.strict` for every tool; False by default, so that no
            provider rewrites the published schema into its strict form.
        target: A provider target (`openai-strict`, `anthropic-strict`, `gemini`) whose
            view of each tool the model is shown instead of the published schema: the
            golden file the build writes as `schemas/<module>/<target>/<tool>.json` (the
            same lowering); the model's arguments are mapped back to the published
            schema's before toolc validates them. A tool the view cannot carry is a
            `ValueError` saying what the build's check says of it.
        expose_errors: Send a handler's unexpected exception as its type and text; by
            default it reads "internal error in tool X (ref N)", as from `toolc serve`
            (the model provider is not the application). `ToolError` messages are
            always sent.

    Attributes:
        toolset: The toolc toolset.
        on_error: What an error result becomes.
        max_retries: Retries per tool.
        strict: `ToolDefinition.strict` for every tool.
        target: The provider target whose views the model is shown (None: the
            published schemas).
        failures: How unexpected handler exceptions read (masked unless exposed).
    """

    def __init__(
        self,
        toolset: ToolcToolset[Any],
        *,
        id: str | None = None,
        on_error: OnError = "retry",
        max_retries: int = 1,
        strict: bool | None = False,
        target: str | None = None,
        expose_errors: bool = False,
    ) -> None:
        if on_error not in ("retry", "fail", "return"):
            raise ValueError(f"on_error must be 'retry', 'fail' or 'return', not {on_error!r}")
        self.toolset = toolset
        self._id = id if id is not None else toolset.id
        self.on_error: OnError = on_error
        self.max_retries = max_retries
        self.strict = strict
        self.target = target
        self.failures = failure_policy(expose_errors)
        self._published: dict[str, dict[str, Any]] = {}  # name -> schema, when a view is sent

    @property
    def id(self) -> str | None:
        """The toolset's id for pydantic-ai."""
        return self._id

    async def __aenter__(self) -> Self:
        await self.toolset.__aenter__()
        return self

    async def __aexit__(self, *args: object) -> bool | None:
        exc_info = cast("tuple[Any, Any, Any]", (*args, None, None, None)[:3])
        await self.toolset.__aexit__(*exc_info)
        return None

    async def get_instructions(self, ctx: RunContext[Any]) -> str | None:
        """The toolc set's instructions, asked with a toolc context made from `ctx`."""
        return await self.toolset.get_instructions(toolc_context(ctx))

    async def get_tools(self, ctx: RunContext[Any]) -> dict[str, ToolsetTool[Any]]:
        """The toolc set's tools for this turn, each with its published schema as
        written (validated by toolc at the call, not by pydantic-ai)."""
        listed = await self.toolset.list_tools(toolc_context(ctx))
        return {d.name: self._tool(d) for d in listed}

    def _tool(self, definition: ToolcDefinition) -> ToolsetTool[Any]:
        schema = published_schema(definition)
        if self.target is not None:
            self._published[definition.name] = schema
            schema = target_view(self.target, definition, schema)
        return ToolsetTool(
            toolset=self,
            tool_def=ToolDefinition(
                name=definition.name,
                description=definition.description,
                parameters_json_schema=schema,
                strict=self.strict,
                metadata={"toolc": _metadata(definition)},
            ),
            max_retries=self.max_retries,
            args_validator=_ANY_ARGS,
        )

    async def call_tool(
        self, name: str, tool_args: dict[str, Any], ctx: RunContext[Any], tool: ToolsetTool[Any]
    ) -> Any:
        """Run the call on the toolc set: a pause is raised as pydantic-ai's
        (`ApprovalRequired`, `CallDeferred`), an error result as `on_error` says."""
        published = self._published.get(name)
        if published is not None:  # shown a view: its arguments as the published schema's
            tool_args = canonical_arguments(published, tool_args)
        try:
            with calling(self.failures):
                result = await self.toolset.call_tool(toolc_context(ctx), name, tool_args)
        except ApprovalRequiredError as paused:
            raise ApprovalRequired(metadata=_request_metadata(paused)) from None
        except ExternalCallRequired as paused:
            raise CallDeferred(metadata=_request_metadata(paused)) from None
        if result.is_error:
            return self._error(result)
        return agent_value(result)

    def _error(self, result: ToolResult) -> Any:
        text = result.text_content or "The tool call failed."
        if self.on_error == "retry":
            raise ModelRetry(text)
        if self.on_error == "fail":
            raise ToolFailed(text)
        return text

    def __repr__(self) -> str:
        return f"PydanticAIToolset({self.toolset!r})"


def toolc_context(ctx: RunContext[Any]) -> ToolcContext[Any]:
    """toolc's context for one pydantic-ai step or call: deps, step and call id carried
    over; a call pydantic-ai has approved is approved for toolc too (pydantic-ai has
    already put any override arguments in place)."""
    call_id = ctx.tool_call_id
    approvals = {call_id: Approved()} if ctx.tool_call_approved and call_id else {}
    return ToolcContext(deps=ctx.deps, step=ctx.run_step, tool_call_id=call_id,
                        approvals=approvals, client=PydanticAIClient(ctx.model))


class PydanticAIClient(FrameworkClient):
    """The caller of a pydantic-ai tool: `ctx.sample` asks the agent's own model (text
    messages), the rest as in any framework (`FrameworkClient`).

    Attributes:
        model: The run's model (`ctx.model` of pydantic-ai's context), which
            `ctx.sample` asks.
    """

    def __init__(self, model: Any) -> None:
        super().__init__("a pydantic-ai run")
        self.model = model

    async def sample(self, messages: list[dict[str, Any]], *, max_tokens: int,
                     options: Mapping[str, Any]) -> Sampled:
        settings: dict[str, Any] = {"max_tokens": max_tokens}
        for ours, theirs in (("temperature", "temperature"), ("stopSequences", "stop_sequences")):
            if ours in options:
                settings[theirs] = options[ours]
        asked = _model_messages(messages, options.get("systemPrompt"))
        response = await model_request(self.model, asked, model_settings=settings)  # type: ignore[arg-type]
        text = "".join(p.content for p in response.parts if isinstance(p, TextPart))
        return Sampled("assistant", [{"type": "text", "text": text}],
                       str(response.model_name or getattr(self.model, "model_name", "")),
                       response.finish_reason)


def _model_messages(messages: list[dict[str, Any]], system: str | None) -> list[Any]:
    """MCP sampling messages of text as pydantic-ai's: user requests, assistant responses."""
    out: list[Any] = []
    for number, message in enumerate(messages):
        blocks = message.get("content")
        blocks = blocks if isinstance(blocks, list) else [blocks]
        if not all(isinstance(b, dict) and b.get("type") == "text" for b in blocks):
            raise ValueError(f"ctx.sample in a pydantic-ai run takes text only (message "
                             f"{number} holds another kind of content)")
        text = "".join(str(b.get("text", "")) for b in blocks)
        if message.get("role") == "assistant":
            out.append(ModelResponse(parts=[TextPart(text)]))
        else:
            parts: list[Any] = [SystemPromptPart(system)] if system and not out else []
            out.append(ModelRequest(parts=[*parts, UserPromptPart(text)]))
    return out


def _metadata(definition: ToolcDefinition) -> dict[str, Any]:
    """What `ToolDefinition.metadata["toolc"]` keeps of the published tool (pydantic-ai
    sends none of it to the model): title, annotations, _meta, outputSchema."""
    published = definition.published()
    return {k: published[k] for k in ("title", "annotations", "_meta", "outputSchema")
            if k in published}


def _request_metadata(paused: ApprovalRequiredError | ExternalCallRequired) -> dict[str, Any]:
    request = pause_request(paused)
    return {"toolc_tool": request.tool_name, "toolc_reason": paused.reason}


def agent_value(result: ToolResult) -> Any:
    """A toolc result as a pydantic-ai tool return: structured content as a dict, text
    as a str, images and audio as BinaryContent (with any text beside them)."""
    if result.structured_content is not None:
        return result.structured_content
    if all(isinstance(b, TextContent) for b in result.content):
        return result.text_content
    parts: list[Any] = []
    for block in result.content:
        if isinstance(block, ImageContent | AudioContent):
            parts.append(BinaryContent(data=base64.b64decode(block.data),
                                       media_type=block.mime_type))
        elif isinstance(block, TextContent):
            parts.append(block.text)
        else:
            parts.append(block.to_wire())
    return parts
