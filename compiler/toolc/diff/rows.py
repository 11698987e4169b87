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

import json
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import replace

from .result import Change, Json, SpecPlace


def name_of(key: str) -> str:
    """A tool key's published name: ``workbench/readLog`` -> ``readLog``."""
    return key.rpartition("/")[2]


def rows(changes: Iterable[Change], identity: Callable[[str], Hashable] | None = None,
         texts: tuple[Mapping[str, str], Mapping[str, str]] = ({}, {})) -> list[Change]:
    """``changes`` (sorted, as :func:`toolc.diff.diff_tools` returns them) with the same
    change in several tools merged into one row each, in the same order: a row stands
    where its first key's change stood. ``texts``: the golden files of the old and the
    new side by key (a ToolSet's ``texts``), a whole tool's value read from its file."""
    identify = identity or name_of
    value = _Values(*texts)
    groups: dict[tuple[Hashable, ...], list[Change]] = {}
    for change in changes:
        same = (identify(change.tool), change.rule, change.pointer, change.severity,
                change.schema, change.accepted, change.reason, _place(change))
        groups.setdefault(same, []).append(change)
    found = []
    for group in groups.values():
        if len(group) == 1:  # most: the values of a first build's every tool go unrendered
            found.append(group[0])
            continue
        alike: dict[tuple[str, str], list[Change]] = {}
        named = len({name_of(change.tool) for change in group}) == 1
        for change in group:
            alike.setdefault(value.of(change, named), []).append(change)
        found.extend(_merged(sorted(same, key=lambda c: c.tool)) for same in alike.values())
    return found


class _Values:
    """A text per change's old and new values, the same for the same values (keys in any
    order). 1 and 1.0 make two (``canonical`` would make one, at ten times the cost): two
    rows then, never one row for two changes."""

    def __init__(self, old: Mapping[str, str], new: Mapping[str, str]):
        self.old, self.new = old, new

    def of(self, change: Change, named: bool) -> tuple[str, str]:
        """``named``: the changes compared are of tools of one name."""
        if not change.pointer:  # a whole tool added or removed: all but its name
            return (self._tool(change.old, self.old.get(change.tool), named),
                    self._tool(change.new, self.new.get(change.tool), named))
        return _text(change.old), _text(change.new)

    @staticmethod
    def _tool(tool: Json, text: str | None, named: bool) -> str:
        if not isinstance(tool, dict):
            return _text(tool)
        if text is not None and named:
            return text  # its file: the tool, its keys sorted
        name = json.dumps(tool.get("name"), ensure_ascii=False)
        if text is not None and f'\n  "name": {name}' in text:
            # A golden file holds the tool with sorted keys, at one indent a top-level key
            # (a newline in a value is written \n): its text but the name's is the tool's.
            return text.replace(f'\n  "name": {name}', "", 1)
        return _text({k: v for k, v in tool.items() if k != "name"})


def _text(value: Json) -> str:
    if value is None:  # one side of every tool added or removed
        return "null"
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


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
