"""What ``toolc call`` prints: a tool's result, or what a toolset exports.

Everything shown comes from the served toolset (descriptions from a spec, results from
a handler, or from an MCP server a spec pins), so all of it is inert: in text every
control character is escaped (``escape_controls``; a text block keeps its line breaks),
and JSON is written by ``json_text``, which escapes what JSON itself leaves raw.

Text: each content block readably (a text block as its text, the others as a bracketed
line that says what they hold), then the structured content as JSON. ``--format
json``: one document, ``{"content", "structuredContent", "isError"}`` as the client
received them. ``--list``: one line per tool with its token cost (``budget``'s
estimator, the figure the build's budget adds up) and the first line of its description.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..budget import published_tokens
from ..report.escaping import ELLIPSIS, bounded, escape_controls
from ..report.json import json_text
from ..runtime.metakeys import REQUIRES_APPROVAL

# A --list line's description is cut at this many characters.
SUMMARY_CHARS = 100


def render_result(wire: Mapping[str, Any], fmt: str) -> str:
    """A tools/call result (its camelCase JSON) as ``fmt`` shows it."""
    content = list(wire.get("content") or ())
    structured = wire.get("structuredContent")
    if fmt == "json":
        return json_text({"content": content, "structuredContent": structured,
                          "isError": bool(wire.get("isError", False))})
    parts = [block_text(block) for block in content]
    if structured is not None:
        parts.append("structured content:\n" + json_text(structured))
    return "\n".join(parts) if parts else "(no content)"


def block_text(block: Mapping[str, Any]) -> str:
    """One content block, readable and inert."""
    kind = block.get("type")
    if kind == "text":
        return inert(str(block.get("text", "")))
    if kind in ("image", "audio"):
        return (f"[{kind}: {inert_line(str(block.get('mimeType')))}, "
                f"{len(str(block.get('data', '')))} characters of base64]")
    if kind == "resource_link":
        return f"[resource link: {inert_line(str(block.get('name')))} " \
               f"<{inert_line(str(block.get('uri')))}>]"
    if kind == "resource":
        resource = block.get("resource")
        resource = resource if isinstance(resource, Mapping) else {}
        head = f"[resource <{inert_line(str(resource.get('uri')))}>"
        if isinstance(resource.get("text"), str):
            return f"{head}]\n{inert(resource['text'])}"
        return f"{head}: {len(str(resource.get('blob', '')))} characters of base64]"
    return f"[{inert_line(str(kind))} content]"


def render_listing(server: str, tools: Sequence[Mapping[str, Any]], fmt: str) -> str:
    """What the toolset exports, as a client lists it, each tool with its token cost."""
    rows = [(tool, published_tokens(tool)) for tool in tools]
    total = sum(tokens for _, tokens in rows)
    if fmt == "json":
        return json_text({"server": server, "tokens": total, "tools": [
            {"name": tool.get("name"), "tokens": tokens,
             "description": tool.get("description"), "requiresApproval": _asks(tool)}
            for tool, tokens in rows]})
    head = f"{inert_line(server)}: {len(rows)} tool(s), ~{total} tokens"
    names = [inert_line(str(tool.get("name"))) for tool, _ in rows]
    width = max((len(n) for n in names), default=0)
    cost_width = max((len(str(t)) for _, t in rows), default=0) + 1
    lines = [head]
    for name, (tool, tokens) in zip(names, rows, strict=True):
        asks = " (asks for approval)" if _asks(tool) else ""
        lines.append(f"  {name:<{width}}  {'~' + str(tokens):>{cost_width}} tokens  "
                     f"{summary(tool.get('description'))}{asks}".rstrip())
    return "\n".join(lines)


def summary(description: object) -> str:
    """The first line of a description, inert; cut short (and an ellipsis after it)
    when it is longer, or when more lines follow."""
    if not isinstance(description, str) or not description.strip():
        return "(no description)"
    first, *rest = description.strip().split("\n")
    first = first.strip()
    if len(first) > SUMMARY_CHARS:
        return inert_line(first[:SUMMARY_CHARS - 1]) + ELLIPSIS
    return inert_line(first) + (f" {ELLIPSIS}" if rest else "")


def inert(text: str) -> str:
    """``text`` for a terminal: its line breaks kept, every other control escaped."""
    return "\n".join(escape_controls(line) for line in text.split("\n"))


def inert_line(text: str) -> str:
    return escape_controls(bounded(text))


def _asks(tool: Mapping[str, Any]) -> bool:
    meta = tool.get("_meta")
    return isinstance(meta, Mapping) and meta.get(REQUIRES_APPROVAL) is True
