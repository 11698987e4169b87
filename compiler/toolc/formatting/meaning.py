"""What a written spec must mean: the same data, read back through toolc's own loader.

Both writers check what they wrote before anyone sees it: ``toolc import`` that its YAML
reads back as the JSON it was given, ``toolc fmt`` that the formatted text reads back as
the original (its keys in canonical order) and still holds every comment. A difference is
a bug of the writer, said as :class:`FormatBug` (or the importer's own error), never a
file that means something else.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from ..diagnostics import SpecError
from ..loader import load_text
from .comments import comment_texts


class FormatBug(Exception):
    """The formatter would have changed what a spec means: nothing is written."""


def json_pointer_token(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def first_difference(a: Any, b: Any, at: str = "") -> str | None:
    """The first JSON pointer where ``a`` and ``b`` differ in value, type, order or the
    sign of zero; None when they are the same JSON."""
    if type(a) is not type(b) and not (isinstance(a, dict) and isinstance(b, dict)) \
            and not (isinstance(a, list) and isinstance(b, list)):
        return at
    if isinstance(a, dict):
        if list(a) != list(b):
            return at
        for key in a:
            found = first_difference(a[key], b[key], f"{at}/{json_pointer_token(key)}")
            if found is not None:
                return found
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return at
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = first_difference(x, y, f"{at}/{i}")
            if found is not None:
                return found
        return None
    if isinstance(a, float):
        if math.isnan(a) and isinstance(b, float) and math.isnan(b):
            return None
        if a != b or math.copysign(1, a) != math.copysign(1, b):
            return at
    return None if a == b else at


def check_formatted(expected: Any, comments: list[str], text: str, path: str) -> None:
    """Raise :class:`FormatBug` unless ``text`` reads back as ``expected`` and holds the
    same ``comments`` (as often each)."""
    try:
        loaded = load_text(text, path)
    except SpecError as exc:
        raise FormatBug(f"the formatted text of {path} does not parse: {exc}") from None
    if loaded.diagnostics:
        raise FormatBug(f"the formatted text of {path} does not load: "
                        f"{loaded.diagnostics[0].message}")
    where = first_difference(expected, loaded.data)
    if where is not None:
        raise FormatBug(f"formatting would change what {path} means at {where or '/'}")
    if Counter(comment_texts(text)) != Counter(comments):
        raise FormatBug(f"formatting would lose or add a comment of {path}")
