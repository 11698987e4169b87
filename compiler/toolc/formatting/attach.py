"""Which entry each comment belongs to, so that it moves with it.

A comment at the end of a line belongs to the innermost entry on that line (a key and
its value, or a list item): after formatting it still ends that entry's first line, so a
``# toolc: ignore[...]`` still stands on the line its diagnostic points at. A one-line
flow collection with a comment after it (``params: {a: 1}  # toolc: ignore[...]``) is
*pinned*: it stays on its line as written, whatever its length, since the diagnostics of
its values point at that line too.

A comment on a line of its own belongs to what follows it, unless it is indented deeper
than the next entry: then it closes the innermost collection above that holds entries at
its column (a commented-out last key stays at the end of its mapping). A comment between
a key and a value on a later line goes above the key. Comments before the first entry
head the document; after the last one, they end it. A comment above a list item's first
key is above the item, which is written ``- key: ...``.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable

from .comments import Comment
from .tree import Collection, Document, Entry


def attach(document: Document, comments: list[Comment]) -> set[int]:
    """Give each comment of ``document`` its owner; return the ids of pinned collections."""
    entries = sorted(document.entries, key=lambda e: (e.line, e.col))
    owners = {id(e.value): e for e in entries if isinstance(e.value, Collection)}
    separated = _separator(document)
    for e in entries:
        e.blank_before = separated(e.line)
    eol_lines = {c.line for c in comments if not c.own_line}
    pinned = _pinned(entries, eol_lines, owners)
    in_pinned = {id(e) for e in entries if any(id(c) in pinned for c in _ancestors(e, owners))
                 } if pinned else set()
    starts = [e.line for e in entries]
    for comment in comments:
        comment.blank_before = comment.own_line and separated(comment.line)
        if comment.own_line:
            _own_line(comment, entries, starts, owners, document)
        else:
            _end_of_line(comment, entries, starts, owners, in_pinned, document)
    for e in entries:  # above a list item's first key is above the item (`- key: ...`)
        value = e.value
        if e.key is None and isinstance(value, Collection) and value.is_map and \
                value.entries and value.entries[0].leading:
            e.leading += value.entries[0].leading
            value.entries[0].leading = []
    return pinned


def _separator(document: Document) -> Callable[[int], bool]:
    lines, inside = document.lines, document.inside

    def separated(line: int) -> bool:
        return line > 0 and lines.blank(line - 1) and line - 1 not in inside
    return separated


def _ancestors(entry: Entry, owners: dict[int, Entry]) -> list[Collection]:
    """The collections holding ``entry``, innermost first."""
    chain: list[Collection] = []
    collection: Collection | None = entry.parent
    while collection is not None:
        chain.append(collection)
        holder = owners.get(id(collection))
        collection = holder.parent if holder is not None else None
    return chain


def _covering(entries: list[Entry], count: int, line: int, owners: dict[int, Entry],
              skip: set[int] | None = None) -> Entry | None:
    """The innermost entry among the first ``count`` (those that begin before the line,
    or on it) that reaches ``line``: on the way out from the last of them, as entries nest
    (two on one line are siblings in a flow collection: the later one is taken)."""
    entry: Entry | None = entries[count - 1] if count else None
    while entry is not None and (entry.end_line < line or (skip and id(entry) in skip)):
        entry = owners.get(id(entry.parent))
    return entry


def _pinned(entries: list[Entry], eol_lines: set[int], owners: dict[int, Entry]) -> set[int]:
    pinned: set[int] = set()
    for e in entries:
        value = e.value
        if isinstance(value, Collection) and value.flow and value.line == value.end_line \
                and value.line in eol_lines and not any(
                    id(c) in pinned for c in _ancestors(e, owners)):
            pinned.add(id(value))
    return pinned


def _end_of_line(comment: Comment, entries: list[Entry], starts: list[int],
                 owners: dict[int, Entry], in_pinned: set[int], document: Document) -> None:
    owner = _covering(entries, bisect.bisect_right(starts, comment.line), comment.line,
                      owners, in_pinned)
    if owner is None:
        document.comments.append(comment)
    elif owner.eol is None:
        owner.eol = comment
    else:  # a second comment on another line of the same entry: above it
        owner.leading.append(comment)


def _own_line(comment: Comment, entries: list[Entry], starts: list[int],
              owners: dict[int, Entry], document: Document) -> None:
    line, col = comment.line, comment.col
    before = bisect.bisect_left(starts, line)
    after = bisect.bisect_right(starts, line)
    following = entries[after] if after < len(entries) else None
    # the innermost entry whose value the comment lies in
    holder = _covering(entries, before, line, owners)
    if holder is not None and not (following is not None and _within(following, holder,
                                                                      owners)):
        value = holder.value
        if isinstance(value, Collection) and value.entries:
            value.trailing.append(comment)
        else:
            holder.leading.append(comment)
        return
    previous = entries[before - 1] if before > 0 else None
    if previous is not None:
        around = _ancestors(following, owners) if following is not None else []
        for collection in _ancestors(previous, owners):
            if any(collection is c for c in around):
                break
            if collection.entries[0].col <= col:
                collection.trailing.append(comment)
                return
    if following is not None:
        following.leading.append(comment)
    else:
        document.comments.append(comment)


def _within(entry: Entry, holder: Entry, owners: dict[int, Entry]) -> bool:
    value = holder.value
    return isinstance(value, Collection) and any(c is value for c in _ancestors(entry, owners))
