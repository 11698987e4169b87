"""Spec text and JSON values written as Python literals that mean exactly the same.

Everything a spec says reaches the generated code only through these functions, never
by pasting text into a template: a description holding ``\"\"\"``, a backslash, ``{{ }}``,
a newline, a tab, a bidi override or an emoji comes back byte for byte when the module
is imported. Characters Python calls printable (letters of every script, emoji) are
written as they are, so the code stays readable; every other character (controls, the
invisible format and separator characters, lone surrogates) is written as an escape.

Long strings are split into several literals that Python joins at compile time, at
whitespace where possible, so lines stay short and nothing is paid at import.
"""

from __future__ import annotations

import json
import math
from typing import Any

WIDTH = 91  # the widest line aimed for, before the up to 8 columns a class is indented by

_SHORT_ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape_char(ch: str, quote: str) -> str:
    """One character as it stands inside a ``quote``-delimited literal."""
    if ch == quote:
        return "\\" + ch
    short = _SHORT_ESCAPES.get(ch)
    if short is not None:
        return short
    if ch.isprintable():
        return ch
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def _quote_for(text: str) -> str:
    """Double quotes, unless single ones need fewer escapes (JSON text, for one)."""
    return "'" if text.count('"') > text.count("'") else '"'


def py_str(text: str) -> str:
    """``text`` as one Python string literal."""
    quote = _quote_for(text)
    return quote + "".join(_escape_char(ch, quote) for ch in text) + quote


def py_str_lines(text: str, width: int) -> list[str]:
    """``text`` as one or more adjacent literals, each line at most ``width`` wide.

    The split falls after a space when there is one in the second half of a line, so
    words stay whole; an escape sequence is never cut.
    """
    quote = _quote_for(text)
    pieces = [_escape_char(ch, quote) for ch in text]
    budget = max(width - 2, 8)
    lines: list[str] = []
    current: list[str] = []
    used = 0
    last_space = -1
    for piece in pieces:
        if used + len(piece) > budget and current:
            cut = last_space + 1 if last_space >= len(current) // 2 else len(current)
            lines.append(quote + "".join(current[:cut]) + quote)
            current = current[cut:]
            used = sum(len(p) for p in current)
            last_space = -1
        current.append(piece)
        used += len(piece)
        if piece in (" ", ","):  # words and JSON members stay whole
            last_space = len(current) - 1
    lines.append(quote + "".join(current) + quote)
    return lines


def py_str_block(text: str, indent: int, room: int) -> str:
    """A string literal for a place with ``room`` columns left on its line.

    Fits: one literal. Too long: parenthesised adjacent literals, one per line, indented
    one level below ``indent``.
    """
    single = py_str(text)
    if len(single) <= room:
        return single
    inner = " " * (indent + 4)
    lines = py_str_lines(text, WIDTH - indent - 4)
    return "(\n" + "".join(f"{inner}{line}\n" for line in lines) + " " * indent + ")"


def docstring(text: str, indent: int) -> str:
    """A docstring that reads back as exactly ``text``.

    A triple-quoted block when that is exact on every Python version (3.13 strips the
    indentation of docstrings, so no line may start with whitespace and nested blocks
    must stay on one line); otherwise escaped literals.
    """
    plain = (
        text
        and "\\" not in text
        and '"""' not in text
        and not text.endswith('"')
        and all(ch == "\n" or (ch.isprintable() and ch != "\t") for ch in text)
        and not any(line != line.strip() for line in text.split("\n"))
        and (indent == 0 or "\n" not in text)
    )
    if plain and all(len(line) + indent + 6 <= WIDTH for line in text.split("\n")):
        return f'"""{text}"""'
    return py_str_block(text, indent, WIDTH - indent)


def comment_text(text: str) -> str:
    """Text safe inside a ``#`` comment: one line, invisible characters escaped."""
    return "".join(ch if ch.isprintable() else _escape_char(ch, "") for ch in text)


def py_literal(value: Any, indent: int = 0, room: int = WIDTH) -> str:
    """A JSON value (dict, list, str, int, float, bool, None) as a Python expression.

    One line when it fits in ``room`` columns; otherwise exploded one item per line,
    the way black writes it, so that long enums and defaults stay readable.
    """
    flat = _flat(value)
    if len(flat) <= room or not isinstance(value, (dict, list)) or not value:
        if isinstance(value, str) and len(flat) > room:
            return py_str_block(value, indent, room)
        return flat
    inner = indent + 4
    pad = " " * inner
    if isinstance(value, dict):
        items = [
            f"{pad}{py_str(str(k))}: {py_literal(v, inner, WIDTH - inner - len(py_str(str(k))) - 3)},"
            for k, v in value.items()
        ]
        return "{\n" + "\n".join(items) + "\n" + " " * indent + "}"
    items = [f"{pad}{py_literal(v, inner, WIDTH - inner - 1)}," for v in value]
    return "[\n" + "\n".join(items) + "\n" + " " * indent + "]"


def _flat(value: Any) -> str:
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, float):
        if math.isnan(value):
            return 'float("nan")'
        if math.isinf(value):
            return 'float("inf")' if value > 0 else 'float("-inf")'
        return repr(value)
    if isinstance(value, str):
        return py_str(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{py_str(str(k))}: {_flat(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_flat(v) for v in value) + "]"
    raise TypeError(f"not a JSON value: {type(value).__name__}")


def json_text(value: Any) -> str:
    """Compact JSON in the order written: what the runtime parses back at first use."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
