"""Write JSON data as a spec's YAML: readable, deterministic, and exact on reading back.

``dump(data)`` writes block style (one key per line, nested blocks indented by two),
with short mappings and lists of plain scalars in flow style (``{type: string}``,
``[a, b]``) when they fit on a line, and multi-line text as literal blocks (``|``), then
puts that in the canonical layout of ``toolc fmt`` (:mod:`toolc.formatting`), so that an
imported spec is one ``toolc fmt --check`` passes. Key order is kept as given where the
format does not name one (the pinned tools' schemas: exactly as the server gives them). What toolc's loader reads back is the very same JSON:

- a string is written plain only when no YAML reader would take it for anything else:
  not for toolc's YAML 1.2 core schema (``1``, ``1e5``, ``0o17``, ``null``, ``.inf``),
  nor for YAML 1.1 readers such as PyYAML (``yes``, ``on``, ``1_000``, ``12:30``, ``<<``);
  otherwise it is double-quoted, with escapes for what is not printable;
- integers of any size are written in decimal; floats as Python's shortest repr (with a
  dot in the mantissa, ``1.0e+20``), which YAML 1.2 and 1.1 read back as the same float
  (``1.0`` stays a float, ``-0.0`` keeps its sign);
- NaN, infinities and lone surrogates have no JSON form: they are refused.

Every document is read back through :func:`toolc.loader.load_text` and compared, types,
order and the sign of zero included, before it is returned: a mismatch is a bug here and
raises :class:`YamlWriteError` rather than writing a spec that means something else.
"""

from __future__ import annotations

import math
from typing import Any

from ..diagnostics import SpecError
from ..formatting import FormatBug, format_text
from ..formatting.meaning import first_difference, json_pointer_token
from ..formatting.order import reordered
from ..formatting.scalars import MAX_KEY, float_text, literal_block, plain_ok, quoted
from ..loader import load_text

WIDTH = 100  # flow collections longer than this are written as blocks
_MAX_KEY = MAX_KEY


class YamlWriteError(ValueError):
    """The data cannot be written as a spec (no JSON form, or too deep for the loader)."""


def dump(data: dict[str, Any], *, header: str = "") -> str:
    """``data`` as YAML text (``header``: comment lines put first), checked by reading back,
    in the canonical layout of ``toolc fmt`` (so that an imported spec is formatted)."""
    check_json(data)
    lines = [f"# {line}".rstrip() for line in header.splitlines()]
    lines += _mapping_lines(data, 0) if data else ["{}"]
    text = "\n".join(lines) + "\n"
    _verify(text, data)
    try:
        formatted = format_text(text, "<written spec>")
    except FormatBug as exc:
        raise YamlWriteError(f"internal error: {exc}") from None
    _verify(formatted, reordered(data))
    return formatted


# -- what can be written -----------------------------------------------------------------

def check_json(value: Any, where: str = "") -> None:
    """Raise YamlWriteError naming the JSON pointer of the first value JSON cannot hold."""
    stack: list[tuple[Any, str]] = [(value, where)]
    while stack:
        v, at = stack.pop()
        if isinstance(v, bool) or v is None or isinstance(v, int):
            continue
        if isinstance(v, float):
            if not math.isfinite(v):
                raise YamlWriteError(f"{at or '/'}: {v} is not a JSON number "
                                     "(JSON has no NaN or infinity)")
        elif isinstance(v, str):
            _check_text(v, at)
        elif isinstance(v, dict):
            for k, item in v.items():
                if not isinstance(k, str):
                    raise YamlWriteError(f"{at or '/'}: key {k!r} is not a string")
                _check_text(k, at)
                stack.append((item, f"{at}/{json_pointer_token(k)}"))
        elif isinstance(v, list):
            stack.extend((item, f"{at}/{i}") for i, item in enumerate(v))
        else:
            raise YamlWriteError(f"{at or '/'}: {type(v).__name__} is not a JSON value")


def _check_text(text: str, at: str) -> None:
    for char in text:
        if "\ud800" <= char <= "\udfff":
            raise YamlWriteError(f"{at or '/'}: the text holds a lone surrogate "
                                 f"(U+{ord(char):04X}), which is not Unicode")


# -- scalars -----------------------------------------------------------------------------

def scalar(value: Any, flow: bool = False) -> str:
    """One scalar as it is written after ``key: `` or ``- `` (never a block scalar)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return float_text(value)
    assert isinstance(value, str)
    return value if plain_ok(value, flow) else quoted(value)


def _key(key: str, flow: bool = False) -> str:
    return key if plain_ok(key, flow, key=True) else quoted(key)


# -- collections -------------------------------------------------------------------------

def _is_scalar(value: Any) -> bool:
    return not isinstance(value, (dict, list))


def _flow(value: dict[str, Any] | list[Any]) -> str | None:
    """A one-line flow form of a collection of scalars, or None when it has none."""
    if isinstance(value, dict):
        if not all(_is_scalar(v) for v in value.values()):
            return None
        if any(len(k) > _MAX_KEY or "\n" in k for k in value):
            return None
        items = [f"{_key(k, True)}: {scalar(v, True)}" for k, v in value.items()]
        return "{" + ", ".join(items) + "}"
    if not all(_is_scalar(v) for v in value):
        return None
    return "[" + ", ".join(scalar(v, True) for v in value) + "]"


def _mapping_lines(data: dict[str, Any], indent: int) -> list[str]:
    pad = " " * indent
    lines: list[str] = []
    for key, value in data.items():
        head = _key(key)
        if len(head) > _MAX_KEY:
            lines.append(f"{pad}? {head}")
            head = ""
            prefix = f"{pad}:"
        else:
            prefix = f"{pad}{head}:"
        lines += _value_lines(prefix, value, indent)
    return lines


def _value_lines(prefix: str, value: Any, indent: int) -> list[str]:
    """``prefix`` (``key:`` or ``-``) followed by ``value``, inline or as a nested block."""
    if isinstance(value, str) and "\n" in value:
        block = literal_block(value, indent + 2)
        if block is not None:
            return [f"{prefix} {block[0]}", *block[1:]]
    if _is_scalar(value):
        return [f"{prefix} {scalar(value)}"]
    if not value:
        return [f"{prefix} {'{}' if isinstance(value, dict) else '[]'}"]
    flow = _flow(value)
    if flow is not None and len(prefix) + 1 + len(flow) <= WIDTH:
        return [f"{prefix} {flow}"]
    if isinstance(value, dict):
        return [prefix, *_mapping_lines(value, indent + 2)]
    return [prefix, *_sequence_lines(value, indent + 2)]


def _sequence_lines(items: list[Any], indent: int) -> list[str]:
    pad = " " * indent
    lines: list[str] = []
    for item in items:
        if isinstance(item, dict) and item and _flow_or_none(item) is None:
            # "- key: value" with the other keys under the first one's column.
            nested = _mapping_lines(item, indent + 2)
            nested[0] = f"{pad}- {nested[0][indent + 2:]}"
            lines += nested
        elif isinstance(item, list) and item and _flow_or_none(item) is None:
            lines += [f"{pad}-", *_sequence_lines(item, indent + 2)]
        else:
            lines += _value_lines(f"{pad}-", item, indent)
    return lines


def _flow_or_none(value: dict[str, Any] | list[Any]) -> str | None:
    flow = _flow(value)
    return flow if flow is not None and len(flow) <= WIDTH - 10 else None


# -- reading back ------------------------------------------------------------------------

def _verify(text: str, data: dict[str, Any]) -> None:
    try:
        loaded = load_text(text, "<written spec>")
    except SpecError as exc:
        raise YamlWriteError(f"the spec cannot be read back: {exc}") from None
    problems = [d.message for d in loaded.diagnostics]
    if problems:
        raise YamlWriteError(f"the spec cannot be read back: {problems[0]}")
    where = first_difference(data, loaded.data)
    if where is not None:
        raise YamlWriteError(f"internal error: the YAML written reads back differently at "
                             f"{where or '/'}")


__all__ = ["YamlWriteError", "check_json", "dump", "first_difference", "float_text",
           "scalar"]
