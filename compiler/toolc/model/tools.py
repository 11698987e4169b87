"""A tool as the spec writes it: its description, handler, parameters and result."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field

from ..runtime.metakeys import ALWAYS_LOAD, SEARCH_HINT
from .base import Expect, JsonValue, RawSchema, SpecModel, ToolcSchema

# How `format` keywords are enforced: JSON Schema 2020-12 makes them annotations.
FormatMode = Literal["annotate", "assert"]


class Annotations(SpecModel):
    """MCP tool annotations: hints for clients, never enforced."""

    title: str | None = None
    readOnlyHint: bool | None = None
    destructiveHint: bool | None = None
    idempotentHint: bool | None = None
    openWorldHint: bool | None = None


class SearchSpec(SpecModel):
    """How clients with tool search (Claude Code) treat the tool: published as `_meta`
    ``anthropic/alwaysLoad`` and ``anthropic/searchHint``."""

    always_load: Annotated[
        bool | None,
        Field(description="`true`: loaded upfront even when tool search defers the others."),
    ] = None
    hint: Annotated[
        str | None,
        Field(min_length=1, description="Words the client's tool search finds the tool by."),
    ] = None


class ToolSpec(SpecModel):
    """One entry of ``tools``; the key is the tool's name.

    ``description`` may be absent here so that its absence is reported by its own rule
    (TC201, whose severity is configurable) rather than as a generic missing key.
    """

    model_config = ConfigDict(json_schema_extra={"required": ["description"]})

    description: Annotated[str | None, Field(description="What the model reads.")] = None
    title: str | None = None
    handler: Annotated[
        str | None,
        Field(description="`package.module:attribute`, the function that runs the tool."),
    ] = None
    params: Annotated[
        dict[str, ToolcSchema],
        Expect("a mapping of parameter names to schemas"),
        Field(description="Parameter name to schema: the tool's input object."),
    ] = Field(default_factory=dict)
    returns: Annotated[
        ToolcSchema, Field(description="Schema of the structured result (outputSchema).")
    ] = None
    annotations: Annotated[Annotations | None, Expect("a mapping of MCP tool annotations")] = None
    requires_approval: bool = False
    meta: Annotated[
        dict[str, JsonValue] | None,
        Expect("a mapping, published as the tool's `_meta`"),
    ] = None
    search: Annotated[
        SearchSpec | None, Expect("a mapping with `always_load` and/or `hint`"),
        Field(description="Tool search: `always_load` and `hint`, published in `_meta`."),
    ] = None
    additional_params: bool = False
    renamed_from: Annotated[
        str | None,
        Field(description="The name the tool had before: the schema diff reports one "
                          "TOOL_RENAMED, not a removal and an addition."),
    ] = None
    format: Annotated[
        FormatMode | None,
        Field(description="`assert` checks `format` keywords in calls; `annotate` (JSON "
                          "Schema's default) only publishes them. Default: the module's."),
    ] = None


def search_meta(tool: ToolSpec) -> dict[str, JsonValue]:
    """The `_meta` entries a tool's `search` compiles to (Claude Code's tool-search keys)."""
    out: dict[str, JsonValue] = {}
    if tool.search is not None:
        if tool.search.always_load is not None:
            out[ALWAYS_LOAD] = tool.search.always_load
        if tool.search.hint is not None:
            out[SEARCH_HINT] = tool.search.hint
    return out


class ExternalToolSpec(SpecModel):
    """A tool of an ``external`` toolset: raw JSON Schema, run outside the process.

    ``input_schema`` may be absent here: its absence has its own rule (TC405).
    """

    model_config = ConfigDict(json_schema_extra={"required": ["description", "input_schema"]})

    description: str | None = None
    input_schema: Annotated[
        RawSchema, Field(description="JSON Schema 2020-12, published exactly as written.")
    ] = None
    title: str | None = None
    annotations: Annotated[Annotations | None, Expect("a mapping of MCP tool annotations")] = None


class PinnedToolSpec(SpecModel):
    """A tool of an MCP server, pinned in an ``mcp`` toolset's ``tools`` (``toolc import``).

    Published exactly as written: ``description``, ``title``, ``input_schema``
    (``inputSchema``), ``output_schema`` (``outputSchema``), ``annotations`` and ``meta``
    (``_meta``) take their MCP places, and ``extra`` holds every other field of the
    server's tool (``icons``, ``execution``, a vendor's own), published at the top level
    as given. ``input_schema`` may be absent here so that its absence has its own message.
    """

    model_config = ConfigDict(json_schema_extra={"required": ["input_schema"]})

    description: str | None = None
    title: str | None = None
    input_schema: Annotated[
        RawSchema, Field(description="The tool's inputSchema, exactly as the server gives it.")
    ] = None
    output_schema: Annotated[
        RawSchema, Field(description="The tool's outputSchema, exactly as the server gives it.")
    ] = None
    annotations: Annotated[
        dict[str, JsonValue] | None, Expect("a mapping, published as the tool's `annotations`"),
    ] = None
    meta: Annotated[
        dict[str, JsonValue] | None, Expect("a mapping, published as the tool's `_meta`"),
    ] = None
    extra: Annotated[
        dict[str, JsonValue] | None,
        Expect("a mapping of other tool fields, published as given"),
        Field(description="Every other field of the server's tool, published as given."),
    ] = None
