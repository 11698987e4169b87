"""Formatting: the spec's canonical layout, from ``toolc fmt``'s formatter.

The one call site of the formatter (``toolc.formatting.format_text``, issue 27 item 2,
built on its own branch). Until that package is there, the server offers no formatting;
once it is, the whole buffer is replaced by its formatted text, or nothing when the
text does not parse (its diagnostics say why).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from typing import cast

from ..diagnostics import SpecError

FORMATTER = "toolc.formatting"


def formatter() -> Callable[[str, str], str] | None:
    """``format_text(text, path)``, or None while toolc has no formatter."""
    if importlib.util.find_spec(FORMATTER) is None:
        return None
    return cast(Callable[[str, str], str], importlib.import_module(FORMATTER).format_text)


def formatted(text: str, path: str) -> str | None:
    """``text`` in the canonical layout; None when it cannot be formatted (it does not
    parse, or there is no formatter)."""
    format_text = formatter()
    if format_text is None:
        return None
    try:
        return format_text(text, path)
    except SpecError:
        return None
    except Exception:  # noqa: BLE001  # the formatter's own check refused its result
        return None


__all__ = ["formatted", "formatter"]
