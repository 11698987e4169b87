"""A tool as the model sees it: `ToolDefinition`, and its wire shape, written once.

What a toolset lists (see the contract in `toolsets/abstract.py`), what the server
publishes, what an MCP client side reads back, and what the compiler writes into the
golden files (through `published_tool`): one record and one shape for all of them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# The tools/list keys ToolDefinition has fields of its own for.
PUBLISHED_KEYS = frozenset(
    {"name", "title", "description", "inputSchema", "outputSchema", "annotations", "_meta"}
)


def published_tool(
    name: str,
    input_schema: Mapping[str, Any],
    *,
    title: str | None = None,
    description: str | None = None,
    output_schema: Mapping[str, Any] | None = None,
    annotations: Mapping[str, Any] | None = None,
    meta: Mapping[str, Any] | None = None,
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A tool's wire shape, the one definition of it: the MCP tools/list entry with name,
    title, description, inputSchema, outputSchema, annotations, _meta in MCP's order, then
    the extra fields as given; absent (None) ones left out. The runtime lists
    `ToolDefinition`s through it and the compiler publishes its golden files through it,
    so what a build certifies is what a server lists."""
    out: dict[str, Any] = {"name": name}
    if title is not None:
        out["title"] = title
    if description is not None:
        out["description"] = description
    out["inputSchema"] = input_schema
    if output_schema is not None:
        out["outputSchema"] = output_schema
    if annotations is not None:
        out["annotations"] = annotations
    if meta is not None:
        out["_meta"] = meta
    if extra:
        out.update(extra)
    return out


@dataclass(frozen=True, slots=True, eq=True)
class ToolDefinition:
    """A tool as the model sees it. Schemas are shared, never copied: do not mutate them.

    Attributes:
        name: The name the model calls it by.
        description: What the model reads about it.
        input_schema: The published JSON Schema of its arguments (the golden file's
            `inputSchema`): what the model reads and what every call is validated
            against.
        output_schema: The JSON Schema of its structured result (`outputSchema`).
        title: A title for people.
        annotations: MCP's tool annotations (`readOnlyHint`, `destructiveHint`, ...).
        meta: Its `_meta` (toolc's own keys among them: `toolc/requiresApproval`).
        extra: Every other top-level field, as a server sent it (an MCP server's
            icons, a vendor's own keys): published verbatim, so that a proxied server
            loses nothing.
    """

    name: str
    description: str | None
    input_schema: Mapping[str, Any]
    output_schema: Mapping[str, Any] | None = None
    title: str | None = None
    annotations: Mapping[str, Any] | None = None
    meta: Mapping[str, Any] | None = None
    # A known key in `extra` (one whose value its field cannot hold, like a null title)
    # is published as given.
    extra: Mapping[str, Any] | None = None

    __hash__ = None  # type: ignore[assignment]  # holds dicts: equality, not identity

    def published(self) -> dict[str, Any]:
        """The MCP tools/list entry (see :func:`published_tool`)."""
        return published_tool(self.name, self.input_schema, title=self.title,
                              description=self.description, output_schema=self.output_schema,
                              annotations=self.annotations, meta=self.meta, extra=self.extra)

    def renamed(self, name: str) -> ToolDefinition:
        """The same tool under another name (what prefixed and renamed sets list)."""
        return dataclasses.replace(self, name=name)
