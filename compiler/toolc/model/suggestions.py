"""What a message says was found, and near misses, suggested within a budget per
analysis, with the fixes that make them.

What was found is named in a short phrase (:func:`describe_value`: ``a list``, ``the
string 'x'``), the same in every message that quotes a value.

A diagnostic about a word that names nothing ("unknown key 'descripton'") suggests the
nearest known word, and carries the edit that writes it (:class:`~toolc.diagnostics.Fix`):
what an editor's code action applies, read as data rather than from the message.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from ..diagnostics import Fix, Span, replacement

# How many candidates one analysis may compare near misses with, in all. A suggestion
# compares the word with every candidate, so thousands of unknown names among thousands
# of tools cost quadratic time (bench/RESULTS.md, "Costs behind the code"). Past the
# budget, diagnostics go on without a suggestion.
SUGGESTION_BUDGET = 500_000
_budget = [SUGGESTION_BUDGET]


def reset_suggestions() -> None:
    """A new analysis: the whole budget of :func:`did_you_mean` again."""
    _budget[0] = SUGGESTION_BUDGET


def near_miss(word: object, candidates: Iterable[str]) -> str | None:
    """The near miss of ``word`` among ``candidates`` (within the analysis's budget)."""
    if not isinstance(word, str):
        return None
    options = list(candidates)
    if len(options) > _budget[0]:
        return None
    _budget[0] -= len(options)
    close = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    return close[0] if close else None


def did_you_mean(word: object, candidates: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` for a near miss among ``candidates``, else ``""``."""
    close = near_miss(word, candidates)
    return f"; did you mean '{close}'?" if close else ""


def suggest(word: object, candidates: Iterable[str], span: Span, value: str | None = None,
            start: int = 0) -> tuple[str, tuple[Fix, ...]]:
    """:func:`did_you_mean`'s text and the fix that makes it: ``word`` is written at
    ``span``, as the scalar ``value`` (default: ``word`` itself) from ``start`` on."""
    close = near_miss(word, candidates)
    if close is None or not isinstance(word, str):
        return "", ()
    written = word if value is None else value
    return (f"; did you mean '{close}'?",
            replacement(span, written, close, start, start + len(word)))


def describe_value(value: object) -> str:
    """A short phrase for what was found: ``a list``, ``the string 'x'``, ``true``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"the integer {value}"
    if isinstance(value, float):
        return f"the number {value}"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"the string {shown!r}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


__all__ = ["describe_value", "did_you_mean", "near_miss", "reset_suggestions", "suggest"]
