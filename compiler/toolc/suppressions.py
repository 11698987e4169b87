"""Inline suppressions: ``# toolc: ignore[TC201]`` on the line a diagnostic points at.

PyYAML drops comments, so they are found in the raw text. A ``# toolc: ignore[...]``
counts only where YAML would read a comment: the ``#`` starts the line or follows a
space or tab, and lies inside no scalar. The second condition is settled by YAML's own
scanner (a ``#`` inside a quoted string or a block scalar is part of that scalar's
token), and only for a file that holds such a text at all: most files hold none, and
are not scanned twice.

The codes are comma-separated, as codes or rule names (``TC201``,
``missing-description``); the bag applies them (:class:`toolc.diagnostics.DiagnosticBag`)
and reports one that suppresses nothing (TC022).
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from .diagnostics import Span, Suppression

# Every suppression holds this text; `toolc:` would not do: every spec begins `toolc: 1`.
_MARKER = "ignore["
_COMMENT = re.compile(r"(?:(?<=[ \t])|^)#[ \t]*toolc:[ \t]*ignore\[([^\]\n]*)\]", re.MULTILINE)
_Scanner: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def find_suppressions(text: str, path: str) -> list[Suppression]:
    """The suppression comments of a spec's text (``path`` as diagnostics show it)."""
    if _MARKER not in text:
        return []
    candidates = list(_COMMENT.finditer(text))
    if not candidates:
        return []
    inside = _scalar_ranges(text)
    found: list[Suppression] = []
    for match in candidates:
        offset = match.start()
        if any(start <= offset < end for start, end in inside):
            continue  # a `#` in a string is text, not a comment
        line = text.count("\n", 0, offset) + 1
        col = offset - (text.rfind("\n", 0, offset) + 1) + 1
        codes = tuple(c.strip() for c in match.group(1).split(",") if c.strip())
        found.append(Suppression(Span(path, line, col, match.end() - offset), codes))
    return found


def _scalar_ranges(text: str) -> list[tuple[int, int]]:
    """Where each scalar token of the text lies (character offsets). Called only on text
    that loaded without errors, so the scanner reads it to the end."""
    ranges: list[tuple[int, int]] = []
    scanner = _Scanner(text)
    try:
        while (token := scanner.get_token()) is not None:
            if isinstance(token, yaml.ScalarToken):
                ranges.append((token.start_mark.index, token.end_mark.index))
    except yaml.YAMLError:
        pass  # the loader has reported it
    finally:
        scanner.dispose()
    return ranges
