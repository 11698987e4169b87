"""Tool results and content blocks, and how a handler's return value becomes a result.

The blocks are small dataclasses mirroring MCP's content blocks; `to_wire()` gives the
MCP JSON shape (camelCase keys, absent fields left out) and `block_from_wire()` reads
it back, so that only `mcp_server/` and `mcp/` ever touch the mcp SDK's own types.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from toolc.runtime.validation import Validator, ValidatorBroken


def _wire(kind: str, fields: Mapping[str, Any], annotations: Any, meta: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": kind}
    out.update((k, v) for k, v in fields.items() if v is not None)
    if annotations is not None:
        out["annotations"] = annotations
    if meta is not None:
        out["_meta"] = meta
    return out


@dataclass(slots=True)
class TextContent:
    """A text block.

    Attributes:
        text: The text.
        annotations: MCP's annotations of the block (`audience`, `priority`,
            `lastModified`), as sent.
        meta: its `_meta`, as sent.
    """

    text: str
    annotations: dict[str, Any] | None = None
    meta: dict[str, Any] | None = None

    def to_wire(self) -> dict[str, Any]:
        """The block as MCP JSON (camelCase keys, absent fields left out)."""
        # (written out, not through _wire: every served call sends one of these)
        out: dict[str, Any] = {"type": "text", "text": self.text}
        if self.annotations is not None:
            out["annotations"] = self.annotations
        if self.meta is not None:
            out["_meta"] = self.meta
        return out


@dataclass(slots=True)
class ImageContent:
    """An image block.

    Attributes:
        data: The image, base64-encoded.
        mime_type: Its type (`image/png`).
        annotations: MCP's annotations of the block (`audience`, `priority`,
            `lastModified`), as sent.
        meta: its `_meta`, as sent.
    """

    data: str  # base64
    mime_type: str
    annotations: dict[str, Any] | None = None
    meta: dict[str, Any] | None = None

    def to_wire(self) -> dict[str, Any]:
        """The block as MCP JSON (camelCase keys, absent fields left out)."""
        fields = {"data": self.data, "mimeType": self.mime_type}
        return _wire("image", fields, self.annotations, self.meta)


@dataclass(slots=True)
class AudioContent:
    """An audio block.

    Attributes:
        data: The sound, base64-encoded.
        mime_type: Its type (`audio/wav`).
        annotations: MCP's annotations of the block (`audience`, `priority`,
            `lastModified`), as sent.
        meta: its `_meta`, as sent.
    """

    data: str  # base64
    mime_type: str
    annotations: dict[str, Any] | None = None
    meta: dict[str, Any] | None = None

    def to_wire(self) -> dict[str, Any]:
        """The block as MCP JSON (camelCase keys, absent fields left out)."""
        fields = {"data": self.data, "mimeType": self.mime_type}
        return _wire("audio", fields, self.annotations, self.meta)


@dataclass(slots=True)
class EmbeddedResource:
    """A resource carried inline: `text`, or `blob` (base64).

    Attributes:
        uri: The resource's URI.
        text: Its content, as text.
        blob: Its content, base64-encoded (when not text).
        mime_type: Its type.
        annotations: MCP's annotations of the block (`audience`, `priority`,
            `lastModified`), as sent.
        meta: its `_meta`, as sent.
    """

    uri: str
    text: str | None = None
    blob: str | None = None
    mime_type: str | None = None
    annotations: dict[str, Any] | None = None
    meta: dict[str, Any] | None = None

    def to_wire(self) -> dict[str, Any]:
        """The block as MCP JSON (camelCase keys, absent fields left out)."""
        resource = {"uri": self.uri, "mimeType": self.mime_type, "text": self.text}
        if self.blob is not None or self.text is None:
            resource["blob"] = self.blob if self.blob is not None else ""
        contents = {k: v for k, v in resource.items() if v is not None}
        return _wire("resource", {"resource": contents}, self.annotations, self.meta)


@dataclass(slots=True)
class ResourceLink:
    """A link to a resource the client may read (not its content).

    Attributes:
        uri: The resource's URI.
        name: Its name.
        title: A title for people.
        description: What it is.
        mime_type: Its type.
        size: Its size in bytes.
        annotations: MCP's annotations of the block (`audience`, `priority`,
            `lastModified`), as sent.
        meta: its `_meta`, as sent.
    """

    uri: str
    name: str
    title: str | None = None
    description: str | None = None
    mime_type: str | None = None
    size: int | None = None
    annotations: dict[str, Any] | None = None
    meta: dict[str, Any] | None = None

    def to_wire(self) -> dict[str, Any]:
        """The block as MCP JSON (camelCase keys, absent fields left out)."""
        fields = {
            "uri": self.uri,
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "mimeType": self.mime_type,
            "size": self.size,
        }
        return _wire("resource_link", fields, self.annotations, self.meta)


ContentBlock = TextContent | ImageContent | AudioContent | EmbeddedResource | ResourceLink
"""Any content block of a result."""
CONTENT_BLOCK_TYPES = (TextContent, ImageContent, AudioContent, EmbeddedResource, ResourceLink)


def block_from_wire(data: Mapping[str, Any]) -> ContentBlock:
    """Read one MCP content block (camelCase JSON) into the runtime's own dataclass."""
    kind = data.get("type")
    annotations, meta = data.get("annotations"), data.get("_meta")
    if kind == "text":
        return TextContent(data["text"], annotations, meta)
    if kind == "image":
        return ImageContent(data["data"], data["mimeType"], annotations, meta)
    if kind == "audio":
        return AudioContent(data["data"], data["mimeType"], annotations, meta)
    if kind == "resource":
        res = data["resource"]
        return EmbeddedResource(
            res["uri"], res.get("text"), res.get("blob"), res.get("mimeType"), annotations, meta
        )
    if kind == "resource_link":
        return ResourceLink(
            data["uri"],
            data["name"],
            data.get("title"),
            data.get("description"),
            data.get("mimeType"),
            data.get("size"),
            annotations,
            meta,
        )
    raise ValueError(f"unknown content block type {kind!r}")


@dataclass(slots=True)
class ToolResult:
    """What a call gives back: content blocks, optional structured content, error flag."""

    content: list[ContentBlock] = field(default_factory=list)
    """The content blocks, in order: what a text-only client shows the model."""
    structured_content: dict[str, Any] | None = None
    """The structured result (a tool with `returns`), checked against its output schema."""
    is_error: bool = False
    """True: the call failed, and the content says why (to the model)."""

    @classmethod
    def text(cls, text: str) -> ToolResult:
        """A result of one text block."""
        return cls([TextContent(text)])

    @classmethod
    def error(cls, message: str) -> ToolResult:
        """An error result whose one text block is `message`, addressed to the model."""
        return cls([TextContent(message)], None, True)

    @classmethod
    def structured(cls, data: dict[str, Any]) -> ToolResult:
        """Structured content with its JSON text rendering (for clients that read text)."""
        return cls([TextContent(json.dumps(data, ensure_ascii=False))], data)

    @property
    def text_content(self) -> str:
        """The text blocks joined by newlines: handy in tests and logs."""
        return "\n".join(b.text for b in self.content if isinstance(b, TextContent))

    def to_wire(self) -> dict[str, Any]:
        """The MCP `CallToolResult` JSON shape."""
        out: dict[str, Any] = {"content": [b.to_wire() for b in self.content]}
        if self.structured_content is not None:
            out["structuredContent"] = self.structured_content
        out["isError"] = self.is_error
        return out

    @classmethod
    def from_wire(cls, data: Mapping[str, Any]) -> ToolResult:
        """Read an MCP `CallToolResult` JSON shape back (what `to_wire` gives)."""
        blocks = [block_from_wire(b) for b in data.get("content") or ()]
        return cls(blocks, data.get("structuredContent"), bool(data.get("isError", False)))


class UnknownToolResult(ToolResult):
    """The error result for a name the toolset does not show in this turn.

    Its own class so that toolsets which rename (prefixed, renamed) can restate the
    name as their caller knows it.
    """

    __slots__ = ("tool_name",)

    def __init__(self, tool_name: str) -> None:
        super().__init__([TextContent(f"Unknown tool {tool_name!r}.")], None, True)
        self.tool_name = tool_name


def unknown_tool(name: str) -> ToolResult:
    return UnknownToolResult(name)


class DeniedResult(ToolResult):
    """The error result for a call whose approval was denied: the model reads that the
    call was not run and why. Its own class, so that renaming toolsets restate the name
    as the model knows it (``wb_saveNote``, not the inner ``saveNote``)."""

    __slots__ = ("reason", "tool_name")

    def __init__(self, tool_name: str, reason: str) -> None:
        super().__init__([TextContent(f"The call to {tool_name!r} was not run: {reason}")],
                         None, True)
        self.tool_name = tool_name
        self.reason = reason


def restate_unknown(result: ToolResult, outer_name: str) -> ToolResult:
    """An inner "unknown tool" or "denied" result, renamed to the name the caller used."""
    kind = type(result)
    if kind is UnknownToolResult and result.tool_name != outer_name:  # type: ignore[attr-defined]
        return UnknownToolResult(outer_name)
    if kind is DeniedResult and result.tool_name != outer_name:  # type: ignore[attr-defined]
        return DeniedResult(outer_name, result.reason)  # type: ignore[attr-defined]
    return result


def to_tool_result(value: Any, tool_name: str, output: Validator | None = None) -> ToolResult:
    """Turn what a handler returned into a `ToolResult`.

    str -> one text block; pydantic model or dict -> structured content (validated
    against the published output schema, `output`, when given) plus its JSON text;
    content block(s) -> as they are; `ToolResult` -> as it is; anything else
    JSON-serialisable -> its JSON text.
    """
    if isinstance(value, ToolResult):
        return value
    if isinstance(value, str):
        return ToolResult([TextContent(value)])
    if isinstance(value, BaseModel | dict):
        return _structured(value, tool_name, output)
    if isinstance(value, CONTENT_BLOCK_TYPES):
        return ToolResult([value])
    if (
        isinstance(value, Sequence)
        and value
        and all(isinstance(b, CONTENT_BLOCK_TYPES) for b in value)
    ):
        return ToolResult(list(value))
    try:
        return ToolResult.text(json.dumps(value, ensure_ascii=False))
    except (TypeError, ValueError):
        return ToolResult.error(
            f"{tool_name} returned a {type(value).__name__}, which is not a valid tool result"
        )


def _structured(
    value: BaseModel | dict[str, Any], tool_name: str, output: Validator | None
) -> ToolResult:
    try:
        data = value if isinstance(value, dict) else _dump(value)
        if output is not None:
            problems = output.problems(data)
            if problems:
                return ToolResult.error(
                    f"{tool_name} returned a result that does not match its output "
                    "schema:\n" + "\n".join(problems))
        return ToolResult.structured(data)
    except ValidatorBroken as exc:
        return ToolResult.error(f"Internal error in tool {tool_name!r}: its result could "
                                f"not be validated: {exc} (a bug in toolc; please report it)")
    except (TypeError, ValueError) as exc:
        return ToolResult.error(f"{tool_name} returned a result that is not JSON: {exc}")


def _dump(model: BaseModel) -> dict[str, Any]:
    # exclude_unset: an optional field the handler left alone is left out, as the published
    # output schema (optional, no invented null) expects; what it set is kept.
    return model.model_dump(mode="json", by_alias=True, exclude_unset=True)
