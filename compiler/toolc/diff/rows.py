"""One row per change: the same change in several golden files is reported once.

A module that imports another's toolset and exports it publishes that tool again, in its
own folder, so one edit of the tool changes every such golden file alike (five edits of
a tool five modules export were 25 rows). Changes that are the same in all but the
folder they are in make one row, a :class:`~toolc.diff.result.Change` whose ``also``
names the other keys:

- the same tool: the same definition in the specs when the new side is a fresh build
  (``identity``: a tool's key -> what defines it, :func:`toolc.diff.places.definitions`),
  else the same published name;
- the same change: rule, pointer, severity, old and new (a whole tool's apart from its
  ``name``), the spec line that made it (for a tool gone from the specs, which each
  module's file holds at line 1, none), and whether and why it was accepted. A change
  accepted in one module and not in another stays two rows, each saying what it is.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import replace

from .result import Change, Json, SpecPlace, canonical


def name_of(key: str) -> str:
    """A tool key's published name: ``workbench/readLog`` -> ``readLog``."""
    return key.rpartition("/")[2]


def rows(changes: Iterable[Change], identity: Callable[[str], Hashable] | None = None
         ) -> list[Change]:
    """``changes`` with the same change in several tools merged into one row each,
    sorted as :func:`toolc.diff.diff_tools` sorts."""
    identify = identity or name_of
    groups: dict[tuple[Hashable, ...], list[Change]] = {}
    for change in sorted(changes, key=Change.sort_key):
        same = (identify(change.tool), change.rule, change.pointer, change.severity,
                change.schema, change.accepted, change.reason, _place(change),
                _value(change, change.old), _value(change, change.new))
        groups.setdefault(same, []).append(change)
    return sorted((_merged(group) for group in groups.values()), key=Change.sort_key)


def _value(change: Change, value: Json) -> str:
    # A whole tool added or removed holds its name, which differs from module to module
    # when one of them prefixes it.
    if not change.pointer and isinstance(value, dict):
        value = {k: v for k, v in value.items() if k != "name"}
    return canonical(value)


def _place(change: Change) -> SpecPlace | None:
    """The spec place that tells two changes apart. A tool gone from the specs altogether
    is only placed at line 1 of its module's file: in each module that exported it, its
    own file, however the same tool is removed from all of them."""
    place = change.spec
    if place is not None and (place.line, place.col, place.note) == (1, 1, "removed") \
            and change.rule == "TOOL_REMOVED":
        return None
    return place


def _merged(group: list[Change]) -> Change:
    first = group[0]
    if len(group) == 1:
        return first
    keys = [key for change in group for key in change.tools]
    message = first.message
    names = {name_of(key) for key in keys}
    own = f"tool '{first.tool}'"
    if len(names) == 1 and message.startswith(own):
        # The row names its tools; a message about one of them names the tool they share.
        message = f"tool '{names.pop()}'" + message[len(own):]
    places = {change.spec for change in group}
    spec = first.spec if len(places) == 1 else None  # removed from every module's file
    return replace(first, also=tuple(keys[1:]), message=message, spec=spec)
