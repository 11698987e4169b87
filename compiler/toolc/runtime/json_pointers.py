"""JSON values at RFC 6901 pointers: a lookup, and every pointer where two values differ.

Shared by what holds a schema against the published one: certification (the wire
against the golden file) and the adapters (what a framework's conversion makes of the
published schema). Plain JSON only: no imports.
"""

from __future__ import annotations

from typing import Any

# What a pointer finds where there is nothing (told apart from a JSON null).
MISSING = object()


def step(node: Any, token: str) -> Any:
    """The member or item ``token`` (unescaped) names in ``node``, or MISSING. An array
    index is ASCII digits without a leading zero (RFC 6901): ``str.isdigit`` says yes to
    "²", which ``int`` refuses, and "01" names no item."""
    if isinstance(node, dict):
        return node.get(token, MISSING)
    if isinstance(node, list) and token.isascii() and token.isdigit() and (
            token == "0" or not token.startswith("0")) and int(token) < len(node):
        return node[int(token)]
    return MISSING


def resolve_pointer(document: Any, pointer: str) -> Any:
    """RFC 6901 lookup; a missing path gives MISSING, never an exception."""
    node = document
    for raw in pointer.split("/")[1:]:
        node = step(node, raw.replace("~1", "/").replace("~0", "~"))
        if node is MISSING:
            break
    return node


def escape(part: str) -> str:
    """One reference token as a pointer writes it (RFC 6901: ``~`` and ``/`` escaped)."""
    return part.replace("~", "~0").replace("/", "~1")


def json_differences(want: Any, got: Any, pointer: str = "") -> list[tuple[str, Any, Any]]:
    """Every pointer where two JSON values differ; key order is not a difference."""
    if isinstance(want, dict) and isinstance(got, dict):
        out = []
        for key in list(want) + [k for k in got if k not in want]:
            out += json_differences(want.get(key, MISSING), got.get(key, MISSING),
                                    f"{pointer}/{escape(str(key))}")
        return out
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        out = []
        for i, (a, b) in enumerate(zip(want, got, strict=True)):
            out += json_differences(a, b, f"{pointer}/{i}")
        return out
    same = (want == got and type(want) is type(got)) or (
        isinstance(want, (int, float)) and isinstance(got, (int, float))
        and not isinstance(want, bool) and not isinstance(got, bool) and want == got)
    return [] if same else [(pointer, want, got)]
