"""``toolc fmt``'s formatter: one canonical layout for a spec, its meaning and comments kept.

:func:`format_text` is the whole of it, for ``toolc fmt`` and for an editor's formatting
request on an unsaved buffer. The text is read by the loader first (a spec that does not
parse raises its located :class:`~toolc.diagnostics.SpecError`), then as a tree of nodes
from the same parser (:mod:`.tree`), its comments given to the entries they belong to
(:mod:`.attach`), and written out in the canonical layout (:mod:`.layout`, key order
:mod:`.order`, scalars :mod:`.strings`). Before it is returned, the result is read back:
it must load as the same data, keys in canonical order, with the same comments
(:mod:`.meaning`); if not, that is a bug of the formatter, :class:`FormatBug`, and nothing
is written.
"""

from __future__ import annotations

from ..diagnostics import SpecError
from ..loader import load_text
from .attach import attach
from .comments import Lines, find_comments
from .layout import Layout
from .meaning import FormatBug, check_formatted
from .order import reordered
from .tree import read_document


def format_text(text: str, path: str = "<unsaved>") -> str:
    """``text`` in the canonical layout. Raises :class:`SpecError` (located, ``path`` as
    diagnostics name the file) when it does not parse or cannot be loaded (a duplicate
    key, a key that is not a string), and :class:`FormatBug` if formatting would change
    what it means."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    loaded = load_text(text, path)
    if loaded.diagnostics:
        raise SpecError(loaded.diagnostics)
    document = read_document(text)
    comments = find_comments(text, Lines(text))
    pinned = attach(document, comments)
    layout = Layout(document, pinned)
    formatted = layout.render()
    expected = reordered(loaded.data) if layout.reorder else loaded.data
    check_formatted(expected, [c.text for c in comments], formatted, path)
    return formatted


__all__ = ["FormatBug", "format_text"]
