"""What a report of classified changes is made of in every format: where each change is
(:class:`Locator`: its tools' golden files and its pointer's line in them), what is said
beside the changes (:class:`Said`: the gate's threshold, its warnings, the changes to
its rules), the groups they are shown in (one per set of tools) and how a tool, a
pointer and a value are named. Each format's module (:mod:`toolc.report.text`,
``markdown``, ``json``, ``github``) renders them its own way.

``toolc.diff`` (and the runtime under it) is imported only once a change is located,
labelled or summed up: a command that renders diagnostics alone imports this module
with the format's, and none of that.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..diff.result import Change, Json

WHOLE_TOOL = "(whole tool)"  # how the empty pointer (a tool added or removed) is shown
_LONG = 120  # objects and arrays longer than this are shortened outside json


@dataclass(frozen=True, slots=True)
class Said:
    """What a report says beside the tools' changes: the gate's threshold (which its
    summary measures them by), its warnings, the changes to the gate's rules."""

    fail_on: str = "error"
    warnings: Sequence[str] = ()
    policy: Sequence[Change] = ()

    def summary(self, changes: Sequence[Change]) -> str:
        # lazy: the summary judges by toolc.diff's policy, loaded once a change is shown
        from .summary import summary

        return summary(changes, self.fail_on, self.policy)

    def rules_summary(self) -> str:
        # lazy: as summary()
        from .summary import rules_summary

        return rules_summary(self.policy)


class Locator:
    """Finds a tool's golden file and the line of a change's pointer in it."""

    def __init__(self, golden_root: str, paths: Mapping[str, str],
                 new_texts: Mapping[str, str], old_texts: Mapping[str, str]):
        self.golden_root = golden_root.rstrip("/")
        self.paths, self.new_texts, self.old_texts = paths, new_texts, old_texts
        self._lines: dict[tuple[str, bool], dict[str, int]] = {}

    def file(self, tool: str) -> str | None:
        relative = self.paths.get(tool)
        if relative is None:
            return None
        return f"{self.golden_root}/{relative}" if self.golden_root else relative

    def files(self, change: Change) -> list[str]:
        """The golden file of each tool the change is in, those known."""
        return [f for f in map(self.file, change.tools) if f is not None]

    def line(self, change: Change) -> int | None:
        # lazy: toolc.diff's reading of golden files, loaded once a change is located
        from ..diff.sources import line_of, pointer_lines

        is_new = change.tool in self.new_texts
        text = self.new_texts.get(change.tool) if is_new else self.old_texts.get(change.tool)
        if text is None:
            return None
        key = (change.tool, is_new)
        if key not in self._lines:
            self._lines[key] = pointer_lines(text)
        pointer = change.pointer
        if is_new and change.new is None and change.old is not None and pointer:
            # Something went away: in the new file its old pointer may name a neighbour
            # (enum/0 is now another value), so point at what held it.
            pointer = pointer[:pointer.rindex("/")]
        return line_of(text, pointer, self._lines[key])


def shown_value(value: Json, *, shorten: bool) -> str:
    """A change's old or new value as JSON on one line; ``shorten``: an object or array
    longer than a line cut with an ellipsis (json always shows it whole)."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(", ", ": "))
    if shorten and isinstance(value, dict | list) and len(text) > _LONG:
        return text[:_LONG - 1] + "…"
    return text


def _by_tool(changes: list[Change]) -> list[tuple[tuple[str, ...], list[Change]]]:
    """The rows per tool they are in: the same tools, one block (a row in five modules'
    tools, one block for the five)."""
    ordered = sorted(changes, key=lambda c: (c.tools, *c.sort_key()[1:]))
    return [(tools, list(group)) for tools, group in groupby(ordered, key=lambda c: c.tools)]


def groups(policy: Sequence[Change], changes: list[Change]
           ) -> list[tuple[tuple[str, ...] | None, list[Change]]]:
    """The changes to the gate's rules first (the group of no tool), then per tool."""
    first: list[tuple[tuple[str, ...] | None, list[Change]]] = (
        [(None, list(policy))] if policy else [])
    return first + list(_by_tool(changes))


def tools_label(tools: Sequence[str], code: Callable[[str], str] = str) -> str:
    """``alpha/addNote``; ``addNote in alpha, core`` for one name in several folders;
    ``code`` renders each name."""
    # lazy: toolc.diff's naming of tool keys, loaded once a change is shown
    from ..diff.rows import name_of

    names = {name_of(key) for key in tools}
    if len(tools) == 1 or len(names) != 1:
        return ", ".join(map(code, tools))
    folders = (key.rpartition("/")[0] or "." for key in tools)
    return f"{code(names.pop())} in {', '.join(map(code, folders))}"


def is_rules_change(change: Change) -> bool:
    """Whether ``change`` is one to the gate's rules (pyproject.toml's), not a schema's."""
    # lazy: as tools_label()
    from ..diff.rules import POLICY_RULES

    return change.rule in POLICY_RULES
