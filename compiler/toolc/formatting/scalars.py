"""How a scalar is written so that it reads back as itself: the rules both YAML writers
share (``toolc fmt``, and ``toolc import``'s :mod:`toolc.importer.yamlout`).

- a string is written plain only when no YAML reader would take it for anything else:
  not toolc's YAML 1.2 core schema (``1``, ``1e5``, ``0o17``, ``null``, ``.inf``), nor a
  YAML 1.1 reader such as PyYAML (``yes``, ``on``, ``1_000``, ``12:30``, ``2024-01-01``,
  ``<<``); otherwise it is quoted;
- quoted text is double-quoted, with escapes for what is not printable; the formatter
  writes single quotes for printable text holding a ``\\`` or a ``"`` (a regular
  expression stays readable: ``'^\\d+$'``);
- a float is Python's shortest repr with a dot in the mantissa (``1.0e+20``), which YAML
  1.2 and 1.1 read back as the same float;
- text with line breaks can be a literal block (``|``) when one reads back exactly.
"""

from __future__ import annotations

import re

import yaml  # type: ignore[import-untyped, unused-ignore]

from ..diagnostics import SpecError
from ..loader import load_text
from ..scalars import NumberTooLarge, resolve_plain

MAX_KEY = 1000  # PyYAML reads implicit keys up to 1024 characters; longer ones need `? `

_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")
_FLOW_CHARS = frozenset(",[]{}?")  # PyYAML reads "0?" in a flow collection as an error
_AFTER_COLON = frozenset(" \t,[]{}")  # a `:` before one of these ends a plain scalar in flow
_YAML11_WORDS = frozenset({"y", "Y", "n", "N"})  # YAML 1.1 booleans PyYAML does not know
# Bidirectional controls reorder what an editor shows (CVE-2021-42574, "Trojan Source"):
# always escaped, never written as they are.
_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_ESCAPES = {"\0": "\\0", "\a": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\v": "\\v",
            "\f": "\\f", "\r": "\\r", "\x1b": "\\e", '"': '\\"', "\\": "\\\\",
            "\x85": "\\N", "\xa0": "\\_", "\u2028": "\\L", "\u2029": "\\P"}
_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f\x7f-\x9f\xa0\u2028\u2029\ud800-\udfff\ufeff'
                           r"\ufffe\uffff" + _BIDI + "]")
_SINGLE_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\xa0\u2028\u2029\ud800-\udfff\ufeff"
                            r"\ufffe\uffff" + _BIDI + "]")


def resolves_to_text(text: str, every_reader: bool = True) -> bool:
    """Whether both toolc's YAML 1.2 loader and a YAML 1.1 reader take ``text`` as a
    string (``every_reader``: also the YAML 1.1 readers that take ``y`` and ``n`` for
    booleans, which PyYAML does not)."""
    try:
        meaning = resolve_plain(text)
    except NumberTooLarge:  # a number, if one too large to be read: quoted, it is text
        return False
    if (every_reader and text in _YAML11_WORDS) or not isinstance(meaning, str):
        return False
    tag = yaml.SafeLoader.resolve(yaml.SafeLoader, yaml.ScalarNode, text, (True, False))
    return bool(tag == "tag:yaml.org,2002:str")


def plain_ok(text: str, flow: bool = False, key: bool = False, *,
             every_reader: bool = True) -> bool:
    """Conservative: what any YAML reader reads back as this very string, unquoted
    (``flow``: inside ``[...]`` or ``{...}``; ``key``: as a mapping key; ``every_reader``:
    see :func:`resolves_to_text`). A ``-`` may begin it when no blank follows (``-y``), and
    in a flow value a ``:`` is kept when no blank or flow indicator follows it
    (``mod:attr``, ``http://x``), as YAML 1.2 and PyYAML read both."""
    if not text or text != text.strip():
        return False
    if text[0] in _INDICATORS and not (text[0] == "-" and text[1:2] not in ("", " ", "\t")):
        return False
    if text.startswith(("...", "---")) or ": " in text or " #" in text or text.endswith(":"):
        return False
    if not all(c.isprintable() for c in text) or "\ufeff" in text:
        return False
    if flow and (any(c in _FLOW_CHARS for c in text) or "#" in text or (
            ":" in text and (key or _colon_ends_scalar(text)))):
        return False
    return resolves_to_text(text, every_reader)


def _colon_ends_scalar(text: str) -> bool:
    return any(c == ":" and text[i + 1:i + 2] in _AFTER_COLON for i, c in enumerate(text))


def float_text(value: float) -> str:
    """The shortest text that reads back as ``value``, with a dot in the mantissa so that
    YAML 1.1 readers take it for a float too (``1e+20`` -> ``1.0e+20``)."""
    text = repr(value)
    mantissa, e, exponent = text.partition("e")
    if e and "." not in mantissa:
        text = f"{mantissa}.0e{exponent}"
    return text


def quoted(text: str) -> str:
    """A double-quoted YAML scalar, escapes for everything not printable."""
    return '"' + _NEEDS_ESCAPE.sub(lambda m: _escape(m.group()), text) + '"'


def quoted_readably(text: str) -> str:
    """Single quotes for printable text with a backslash or a double quote (nothing to
    escape but ``'`` itself), else :func:`quoted`."""
    if ("\\" in text or '"' in text) and not _SINGLE_UNSAFE.search(text):
        return "'" + text.replace("'", "''") + "'"
    return quoted(text)


def _escape(char: str) -> str:
    known = _ESCAPES.get(char)
    if known is not None:
        return known
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def reads_back(lines: list[str], expected: object) -> bool:
    """Whether ``k: `` followed by ``lines`` (a value's text, its later lines indented by
    two) reads back through toolc's loader as ``expected``, type included."""
    probe = "k: " + "\n".join(lines) + "\n"
    try:
        loaded = load_text(probe, "<scalar>")
    except SpecError:
        return False
    value = loaded.data.get("k") if isinstance(loaded.data, dict) else None
    return not loaded.diagnostics and type(value) is type(expected) and value == expected


def literal_block(text: str, indent: int) -> list[str] | None:
    """``text`` as a literal block (header line, then the lines at ``indent``), when it
    reads back exactly; None when it must be quoted instead."""
    body = text.rstrip("\n")
    if "\n" not in body or "\ufeff" in text or body.startswith((" ", "\n")):
        return None  # one line; or a start that would need an indentation indicator
    if not all(c.isprintable() or c == "\n" for c in text):
        return None
    if any(line != line.rstrip() for line in body.split("\n")):
        return None  # trailing blanks are invisible in a block and editors strip them
    trailing = len(text) - len(body)
    head = "|-" if trailing == 0 else ("|" if trailing == 1 else "|+")
    lines = body.split("\n") + [""] * (trailing - 1 if trailing > 1 else 0)
    if not reads_back([head, *("  " + ln if ln else "" for ln in lines)], text):
        return None
    pad = " " * indent
    return [head] + [pad + ln if ln else "" for ln in lines]
