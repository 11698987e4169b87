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
import re
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


# Characters that may need an escape: everything but printable ASCII, the quotes and the
# backslash. Most spec text matches nowhere, so it is copied as it is.
_SPECIAL = {q: re.compile(rf"[^\x20-\x7e]|[\\{q}]") for q in ('"', "'")}


_PLAIN = re.compile(r"[\x20\x21\x23-\x5b\x5d-\x7e]*")  # printable ASCII but " and \\


def _quote_for(text: str) -> str:
    """Double quotes, unless single ones need fewer escapes (JSON text, for one)."""
    return "'" if text.count('"') > text.count("'") else '"'


def _escaped(text: str, quote: str) -> str:
    return _SPECIAL[quote].sub(lambda m: _escape_char(m.group(), quote), text)


def py_str(text: str) -> str:
    """``text`` as one Python string literal."""
    if _PLAIN.fullmatch(text):
        return f'"{text}"'
    quote = _quote_for(text)
    return quote + _escaped(text, quote) + quote


def py_str_lines(text: str, width: int) -> list[str]:
    """``text`` as one or more adjacent literals, each line at most ``width`` wide.

    The text is cut after a space or a comma in the second half of a line when there is
    one, so words and JSON members stay whole; a cut never falls inside an escape,
    because pieces are cut first and escaped after.
    """
    quote = _quote_for(text)
    budget = max(width - 2, 10)  # room for the longest escape, \U0001f389
    lines: list[str] = []
    # An offset into ``text``, never the rest as a new string: slicing off each line
    # copied what was left, quadratic in a 9 MB description.
    start, end = 0, len(text)
    while start < end:
        size = min(end - start, budget)
        while True:
            piece = _cut(text, start, size)
            body = _escaped(piece, quote)
            if len(body) <= budget or size == 1:
                break
            size = max(1, size - (len(body) - budget) - 1)
        lines.append(quote + body + quote)
        start += len(piece)
    return lines or [quote + quote]


def _cut(text: str, start: int, size: int) -> str:
    """The ``size`` characters from ``start``, shortened to end after a space or comma if
    one falls in their second half."""
    if start + size >= len(text):
        return text[start:]
    head = text[start:start + size]
    at = max(head.rfind(" "), head.rfind(","))
    return head[:at + 1] if at >= size // 2 else head


def py_str_block(text: str, indent: int, room: int) -> str:
    """A string literal for a place with ``room`` columns left on its line.

    Fits: one literal. Too long: parenthesised adjacent literals, one per line, indented
    one level below ``indent``.
    """
    if len(text) + 2 <= room:  # escapes only make it longer: worth a look
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
    must stay on one line); otherwise an escaped literal.
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
    if plain:
        return f'"""{text}"""'
    if indent and not _encodable(text):
        # A class docstring is also kept as UTF-8 by the interpreter, which refuses lone
        # surrogates: those (and only those) are written as their escapes.
        text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return py_str(text)  # one literal: tools warn about a docstring made of several


def code_str(code: str) -> str:
    """Python code (one expression, as ``layout`` writes it) as a string literal that
    reads as the code itself: triple-quoted, raw when the code holds backslashes (the
    escapes of its own literals); an escaped literal where neither reads back exactly."""
    if '"""' in code or code.endswith(('"', "\\")):
        return py_str(code)
    return ('r"""' if "\\" in code else '"""') + code + '"""'


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


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
