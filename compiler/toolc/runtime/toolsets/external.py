"""`external`: tools described by raw JSON Schema and run outside the process."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from toolc.runtime.context import RunContext
from toolc.runtime.deferred import DeferredToolRequest, ExternalCallRequired
from toolc.runtime.definition import ToolDefinition
from toolc.runtime.pausing import call_id_of
from toolc.runtime.results import ToolResult, to_tool_result, unknown_tool
from toolc.runtime.tool import internal_error, invalid
from toolc.runtime.toolsets.abstract import AbstractToolset
from toolc.runtime.validation import Validator, ValidatorBroken


@dataclass(slots=True)
class ExternalTool:
    """One tool an `ExternalToolset` lists and its caller runs.

    Attributes:
        name: The tool's name.
        description: What the model reads about it.
        input_schema: The JSON Schema of its arguments, published and validated as is.
        title: A title for people.
        annotations: MCP's tool annotations.
        meta: The tool's `_meta`.
    """

    name: str
    description: str
    input_schema: Mapping[str, Any]
    title: str | None = None
    annotations: Mapping[str, Any] | None = None
    meta: Mapping[str, Any] | None = None
    _validator: Validator | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def definition(self) -> ToolDefinition:
        """The tool as the model sees it."""
        return ToolDefinition(
            self.name,
            self.description,
            self.input_schema,
            None,
            self.title,
            self.annotations,
            self.meta,
        )

    def problems(self, args: dict[str, Any]) -> list[str]:
        """What is wrong with `args`, one line per problem (empty: valid); raises
        `ValidatorBroken` when the validator itself fails."""
        if self._validator is None:
            self._validator = Validator(self.input_schema)
        return self._validator.problems(args)


class ExternalToolset(AbstractToolset[Any]):
    """Tools described by raw JSON Schema and run outside the process (a spec's `external`).

    A call validates its arguments against the tool's `input_schema` (JSON Schema
    2020-12, with the validator of record; invalid ones give an error result listing
    each problem and where), then pauses with `ExternalCallRequired`, carrying the call
    id, the tool name and the arguments. The caller runs the tool and resumes with
    `ctx.external_results[call_id]`: a `ToolResult` as it is, or a value converted like
    a handler's return value (str, dict, pydantic model, content blocks). Served by
    `toolc serve` (or `to_mcp_server`), such a call is an error result saying that its
    caller runs it: an MCP server has no way to hand a call back to its client.

    Attributes:
        tools: The tools by name.
    """

    def __init__(self, tools: Sequence[ExternalTool], *, id: str | None = None) -> None:
        self.id = id
        self.tools = {tool.name: tool for tool in tools}
        if len(self.tools) != len(tools):
            raise ValueError("two external tools with the same name")
        self._definitions = [tool.definition for tool in tools]
        self._names = frozenset(self.tools)

    async def list_tools(self, ctx: RunContext[Any]) -> list[ToolDefinition]:
        return list(self._definitions)

    async def call_tool(self, ctx: RunContext[Any], name: str, args: dict[str, Any]) -> ToolResult:
        tool = self.tools.get(name)
        if tool is None:
            return unknown_tool(name)
        try:
            problems = tool.problems(args)
        except ValidatorBroken as exc:
            return internal_error(name, "the arguments could not be validated", exc)
        if problems:
            return invalid("Invalid arguments", problems)
        call_id = ctx.tool_call_id
        if call_id is not None and call_id in ctx.external_results:
            return to_tool_result(ctx.external_results[call_id], name)
        raise ExternalCallRequired([DeferredToolRequest(call_id_of(ctx), name, args)])

    def listing_is_fixed(self) -> bool:
        return type(self) is ExternalToolset  # exact: a subclass may override list_tools

    def static_names(self) -> frozenset[str]:
        return self._names

    def describe(self) -> str:
        return f"ExternalToolset[{', '.join(self.tools)}]"
