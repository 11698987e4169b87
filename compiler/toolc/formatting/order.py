"""The canonical key order of a spec (documented in docs/spec-format.md, "Layout").

Only the mappings whose keys are the format's own words are reordered: the top level, a
tool, a toolset (by its ``kind``), an external or pinned tool, an MCP server's ``stdio``
or ``http``, ``certify`` and its contexts. Everything else keeps the order written,
because there the order is the author's and reaches what is published: tools, parameters
and properties are published in the order written, and so are a schema's keywords,
``annotations`` and ``meta`` (the wire keeps the order written). Unknown keys (a
misspelt one, say) follow the known ones, in the order written.

Places are found from the root down: :func:`child_place` says what the value under a key
of a mapping at a place is; :func:`reordered` applies the order to loaded data (what the
formatted spec must read back as).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

TOP, TOOLS, TOOL, TOOLSETS, TOOLSET = "top", "tools", "tool", "toolsets", "toolset"
STDIO, HTTP, CERTIFY, CONTEXTS, CONTEXT = "stdio", "http", "certify", "contexts", "context"
EXTERNAL_TOOLS, EXTERNAL_TOOL = "external tools", "external tool"
PINNED_TOOLS, PINNED_TOOL = "pinned tools", "pinned tool"

# What a tool is (its title, description, handler and how it behaves), then the schemas:
# a short key never hides below a long block. The order every example of the format
# already uses.
TOOL_KEYS = ("title", "description", "renamed_from", "handler", "annotations",
             "requires_approval", "search", "meta", "format", "additional_params", "params",
             "returns")
# The order `toolc import` writes a pinned tool in (toolc.importer.pinning).
PINNED_TOOL_KEYS = ("title", "description", "annotations", "input_schema", "output_schema",
                    "meta", "extra")

ORDERS: dict[str, tuple[str, ...]] = {
    TOP: ("toolc", "module", "description", "version", "format", "targets", "types", "tools",
          "toolsets", "export", "certify"),
    TOOL: TOOL_KEYS,
    EXTERNAL_TOOL: ("title", "description", "annotations", "input_schema"),
    PINNED_TOOL: PINNED_TOOL_KEYS,
    STDIO: ("command", "args", "env", "cwd"),
    HTTP: ("url", "headers"),
    CERTIFY: ("contexts",),
    CONTEXT: ("name", "deps"),
}

# A toolset: its kind, then its keys as the table of docs/spec-format.md lists them.
TOOLSET_KEYS: dict[str, tuple[str, ...]] = {
    "function": ("kind", "tools"),
    "filtered": ("kind", "inner", "predicate"),
    "prepared": ("kind", "inner", "prepare"),
    "prefixed": ("kind", "inner", "prefix"),
    "renamed": ("kind", "inner", "names"),
    "wrapper": ("kind", "inner", "wrapper"),
    "combined": ("kind", "toolsets", "conflicts"),
    "approval_required": ("kind", "inner"),
    "external": ("kind", "tools"),
    "mcp": ("kind", "stdio", "http", "tool_cache_ttl_ms", "instructions", "always_load",
            "tools"),
    "mcp_manager": ("kind", "servers", "conflicts"),
}

_BELOW_TOP = {"tools": TOOLS, "toolsets": TOOLSETS, "certify": CERTIFY}
_BELOW_TOOLSET = {"stdio": STDIO, "http": HTTP}
_TOOLS_OF_KIND = {"external": EXTERNAL_TOOLS, "mcp": PINNED_TOOLS}
_EACH = {TOOLS: TOOL, TOOLSETS: TOOLSET, EXTERNAL_TOOLS: EXTERNAL_TOOL,
         PINNED_TOOLS: PINNED_TOOL, CONTEXTS: CONTEXT}


def child_place(place: str | None, key: str | int, kind: str | None = None) -> str | None:
    """The place of the value under ``key`` (a key, or an item's index) of the mapping or
    list at ``place``; ``kind``: that mapping's ``kind`` (a toolset's). None: data."""
    if place is None:
        return None
    if place in _EACH:
        return _EACH[place]
    if place == TOP:
        return _BELOW_TOP.get(key) if isinstance(key, str) else None
    if place == TOOLSET:
        if key == "tools":
            return _TOOLS_OF_KIND.get(kind or "")
        return _BELOW_TOOLSET.get(key) if isinstance(key, str) else None
    if place == CERTIFY and key == "contexts":
        return CONTEXTS
    return None


def key_order(place: str | None, keys: Sequence[str], kind: str | None = None) -> list[int]:
    """The positions of ``keys`` (a mapping's, as written) in canonical order."""
    order = TOOLSET_KEYS.get(kind or "", ("kind",)) if place == TOOLSET else ORDERS.get(
        place or "")
    if not order:
        return list(range(len(keys)))
    rank = {key: i for i, key in enumerate(order)}
    return sorted(range(len(keys)), key=lambda i: (rank.get(keys[i], len(order)), i))


def kind_of(mapping: dict[str, Any]) -> str | None:
    kind = mapping.get("kind")
    return kind if isinstance(kind, str) else None


def reordered(data: Any, place: str | None = TOP) -> Any:
    """Loaded data with every mapping at a place in canonical order (new dicts and lists;
    the rest as it was): what the formatted text must read back as."""
    if isinstance(data, dict):
        kind = kind_of(data) if place == TOOLSET else None
        keys = list(data)
        return {keys[i]: reordered(data[keys[i]], child_place(place, keys[i], kind))
                for i in key_order(place, keys, kind)}
    if isinstance(data, list):
        return [reordered(item, child_place(place, i)) for i, item in enumerate(data)]
    return data
