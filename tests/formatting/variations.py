"""Specs written in many layouts: the same data in random styles, with random comments.

``written(draw, data, comments=...)`` writes ``data`` (JSON-like: what a spec loads as) as
YAML with every choice a person could make: block or flow collections, indentation of
two to four (lists also under their key at its column), plain, single- or double-quoted
strings, literal blocks for text with line breaks, and (``comments``) blank lines and
comments on lines of their own and at the ends of lines (which the formatter keeps). Where a comment goes it cannot
become text (never inside a block scalar, never at a deeper column than the next line).
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from toolc.formatting.scalars import literal_block, plain_ok, quoted
from toolc.importer.yamlout import scalar

# A line: its text and whether it is a block scalar's text (nothing may be put around it).
Line = tuple[str, bool]


def _key(draw: st.DrawFn, key: str, flow: bool) -> str:
    if plain_ok(key, flow, key=True) and draw(st.booleans()):
        return key
    return quoted(key)


def _text(draw: st.DrawFn, value: Any, flow: bool) -> str:
    if not isinstance(value, str):
        return scalar(value, flow)
    choice = draw(st.sampled_from(["plain", "double", "single"]))
    if choice == "plain" and plain_ok(value, flow):
        return value
    if choice == "single" and value.isprintable() and "\n" not in value:
        return "'" + value.replace("'", "''") + "'"
    return quoted(value)


def _flowable(value: Any) -> bool:
    if isinstance(value, dict):
        return all(_flowable(v) for v in value.values())
    if isinstance(value, list):
        return all(_flowable(v) for v in value)
    return True


def _flow(draw: st.DrawFn, value: Any) -> str:
    if isinstance(value, dict):
        inner = ", ".join(f"{_key(draw, k, True)}: {_flow(draw, v)}" for k, v in value.items())
        return "{" + inner + "}" if draw(st.booleans()) else "{ " + inner + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(draw, v) for v in value) + "]"
    return _text(draw, value, True)


def _value(draw: st.DrawFn, head: str, value: Any, indent: int) -> list[Line]:
    """``head`` (``key:`` or ``-``) and ``value``, inline or as a nested block."""
    if isinstance(value, str) and "\n" in value and draw(st.booleans()):
        block = literal_block(value, indent + 2)
        if block is not None:
            return [(f"{head} {block[0]}", False), *((line, True) for line in block[1:])]
    if not isinstance(value, (dict, list)):
        return [(f"{head} {_text(draw, value, False)}", False)]
    if not value:
        return [(f"{head} {'{}' if isinstance(value, dict) else '[]'}", False)]
    if _flowable(value) and draw(st.integers(0, 2)) == 0:
        return [(f"{head} {_flow(draw, value)}", False)]
    step = draw(st.integers(2, 4))
    if isinstance(value, list) and head.endswith(":") and draw(st.booleans()):
        step = 0  # a list at its key's column
    return [(head, False), *_block(draw, value, indent + step)]


def _block(draw: st.DrawFn, value: dict[str, Any] | list[Any], indent: int) -> list[Line]:
    pad = " " * indent
    lines: list[Line] = []
    if isinstance(value, dict):
        for key, item in value.items():
            lines += _value(draw, f"{pad}{_key(draw, key, False)}:", item, indent)
        return lines
    for item in value:
        if isinstance(item, dict) and item and draw(st.booleans()):
            nested = _block(draw, item, indent + 2)  # compact: "- key: value"
            lines += [(f"{pad}- {nested[0][0][indent + 2:]}", False), *nested[1:]]
        else:
            lines += _value(draw, f"{pad}-", item, indent)
    return lines


def _decorate(draw: st.DrawFn, lines: list[Line], comments: bool) -> list[str]:
    """Blank lines and comments where they cannot change the data."""
    out: list[str] = []
    for i, (text, is_text) in enumerate(lines):
        after_text = i > 0 and lines[i - 1][1]
        if not is_text:
            column = len(text) - len(text.lstrip(" "))
            if comments and not after_text and out and draw(st.integers(0, 5)) == 0:
                out.append("")
            if comments and draw(st.integers(0, 3)) == 0:
                out.append(" " * draw(st.integers(0, column)) + f"# above {i}")
            if comments and draw(st.integers(0, 3)) == 0:
                text += " " * draw(st.integers(1, 3)) + f"# toolc: ignore[TC{i:03d}]"
        out.append(text)
    if comments and draw(st.booleans()):
        out.append("# the end")
    return out


@st.composite
def written(draw: st.DrawFn, data: dict[str, Any], comments: bool = True) -> str:
    """``data`` as YAML, in a layout of hypothesis's choosing."""
    lines = _block(draw, data, 0) if data else [("{}", False)]
    return "\n".join(_decorate(draw, lines, comments)) + "\n"


# Data a spec may load as: the format's own keys and others, scalars a YAML 1.1 reader
# and a YAML 1.2 reader read differently, text with line breaks, nested to depth four.
TRICKY = ["yes", "no", "on", "off", "y", "n", "true", "null", "~", "", " x", "1", "1.0",
          "1e3", "0o17", "0x1F", "1_000", "12:30", ".inf", "2024-01-01", "- item", "-y",
          "a: b", "a #b", "#c", "&a", "*a", "!t", "|", ">", "'s'", '"d"', "@x", "[a]", "{a}",
          "a,b", "mod:attr", "http://x:8/y", "back\\slash", "end:", "tab\there",
          "line\nbreak", "two\n\nlines\n\n\n", "  indented\nblock\n", "é😀", "bidi\u202e"]
_WORDS = ["toolc", "module", "description", "tools", "toolsets", "export", "kind",
          "handler", "params", "title", "type", "items", "inner", "x", "y"]
_KEYS = st.sampled_from(_WORDS) | st.sampled_from(TRICKY) | st.text(max_size=6)
_SCALARS = (st.none() | st.booleans() | st.integers(-(10**20), 10**20)
            | st.floats(allow_nan=False, allow_infinity=False) | st.sampled_from(TRICKY)
            | st.text(st.characters(exclude_categories=["Cs"]), max_size=10))
DATA = st.dictionaries(_KEYS, st.recursive(
    _SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner,
                                                                          max_size=3),
    max_leaves=12), max_size=5)
