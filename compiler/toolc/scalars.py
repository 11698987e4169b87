"""What a YAML scalar means: the YAML 1.2 core schema, within what the output can carry.

Plain (unquoted, untagged) scalars take their core-schema meaning (``yes`` stays a
string, ``0o17`` is 15). Numbers are bounded here, where they are made: an integer of
more than :data:`MAX_INT_DIGITS` digits, or a float beyond a float's range (``1e400``),
raises :class:`NumberTooLarge`, which the loader reports at the scalar (TC232) and the
YAML writer of ``toolc import`` takes as "not a string" (so it quotes it).
"""

from __future__ import annotations

import math
import re
from typing import Any

# The most digits an integer may have: the smallest limit Python lets a process set on
# converting integers to and from text (``sys.set_int_max_str_digits``), so a generated
# module imports, and its golden files are written, under any setting.
MAX_INT_DIGITS = 640
_INT_BOUND = 10**MAX_INT_DIGITS

# YAML 1.2 core schema, for plain (unquoted, untagged) scalars only.
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT10 = re.compile(r"^[-+]?[0-9]+$")
_INT8 = re.compile(r"^0o[0-7]+$")
_INT16 = re.compile(r"^0x[0-9a-fA-F]+$")
_FLOAT = re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$")
_NAN = re.compile(r"^\.(?:nan|NaN|NAN)$")


class NumberTooLarge(Exception):
    """A number the output could not carry; the loader says where it stands."""


def short(text: str) -> str:
    return text if len(text) <= 40 else f"{text[:20]}...{text[-10:]} ({len(text):,} characters)"


def _big_int(text: str, base: int) -> int:
    digits = len(text.lstrip("+-"))
    if base == 10 and digits > MAX_INT_DIGITS:
        raise NumberTooLarge(f"integer {short(text)} has {digits:,} digits; at most "
                              f"{MAX_INT_DIGITS} are allowed")
    value = int(text, base)
    if abs(value) >= _INT_BOUND:
        raise NumberTooLarge(f"integer {short(text)} has more than {MAX_INT_DIGITS} "
                              "decimal digits")
    return value


def _float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise NumberTooLarge(f"{short(text)} is beyond the range of a float (use .inf for "
                              "infinity)")
    return value


_NUMBER_START = frozenset("0123456789+-.")
_WORDS: dict[str, Any] = {
    **dict.fromkeys(("~", "null", "Null", "NULL", ""), None),
    **_BOOL,
    **dict.fromkeys((".inf", "+.inf", ".Inf", "+.Inf", ".INF", "+.INF"), math.inf),
    **dict.fromkeys(("-.inf", "-.Inf", "-.INF"), -math.inf),
}


def resolve_plain(text: str) -> Any:
    """YAML 1.2 core schema. Most plain scalars are words: they return after one lookup."""
    if text in _WORDS:
        return _WORDS[text]
    if text[0] not in _NUMBER_START:
        return text
    if _INT10.match(text):
        return int(text) if len(text) < 20 else _big_int(text, 10)
    if _INT8.match(text) or _INT16.match(text):
        return _big_int(text, 0)
    if _FLOAT.match(text):
        return _float(text)
    if _NAN.match(text):
        return math.nan
    return text
