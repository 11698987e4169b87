"""The renames the specs declare (``renamed_from``), and what the base makes of them.

``renamed_from: findNote`` on tool ``searchNotes`` says the tool was published as
``findNote`` before. Each module that exports the tool publishes it under its own name,
and the old name the same way: a prefix on the way turns ``searchNotes`` into
``wb_searchNotes`` and ``findNote`` into ``wb_findNote``. So each export declares the
rename of its published name with the tool's own name put back to the old one (an
export whose published name a ``renamed`` set's ``names`` makes declares none: that
name is the set's, the same before and after). The diff reports each as one
``TOOL_RENAMED`` (one row for all the exports, :mod:`toolc.diff.rows`) and the tool's
other changes under its new name.

Whether the base published the old name, only the comparison knows: a tool that is new
there and whose old name the base does not have, or that is still published, gets
TC520 at its ``renamed_from`` (a warning: it is then a removal and an addition, as
without the key). A tool the base already has under its new name says nothing: the
rename is in the base, and the key may stay.

A tool pinned from an MCP server has no ``renamed_from``: its server renames it. One
only in the new side whose schemas, texts aside, are those of the one tool only in the
old side of its folder is that tool renamed (:func:`pinned_renames`), and its changed
texts are PINNED_DESCRIPTION_CHANGED (:func:`pinned_keys` names the pinned tools).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..diagnostics import Diagnostic, Severity, Span
from .result import canonical

if TYPE_CHECKING:
    from ..ir import ProjectIR


@dataclass(frozen=True, slots=True)
class Declared:
    """One export's declared rename: the tool's key now and before, and where it is said."""

    new: str
    old: str
    said: Span
    old_name: str  # as written in `renamed_from`
    home: bool = True  # published by the module that defines the tool


def declared(project: ProjectIR | None) -> list[Declared]:
    """Every export's declared rename, in the project's order."""
    if project is None:
        return []
    own = {t.span: name for m in project.modules.values() for name, t in m.tools.items()}
    found = []
    for module in project.modules.values():
        for tool in module.exported_tools:
            name = own.get(tool.span)
            if tool.renamed_from is None or tool.renamed_from_span is None or name is None \
                    or not tool.name.endswith(name):
                continue
            old = tool.name[:len(tool.name) - len(name)] + tool.renamed_from
            found.append(Declared(f"{module.name}/{tool.name}", f"{module.name}/{old}",
                                  tool.renamed_from_span, tool.renamed_from,
                                  module.name == tool.module))
    return found


def pinned_keys(project: ProjectIR | None) -> frozenset[str]:
    """The keys of the exported tools pinned from third-party MCP servers."""
    if project is None:
        return frozenset()
    return frozenset(f"{m.name}/{t.name}" for m in project.modules.values()
                     for t in m.exported_tools if t.pinned_by is not None)


def pinned_renames(pinned: frozenset[str], old: Mapping[str, Any], new: Mapping[str, Any]
                   ) -> dict[str, str]:
    """New key -> old key of each pinned tool its server renamed: a pinned tool only in
    the new side whose schemas are, but for their texts, those of the one tool only in
    the old side of its folder (the texts may have changed too: each is then said as a
    change of its own, PINNED_DESCRIPTION_CHANGED)."""
    gone = sorted(k for k in old if k not in new)
    came = sorted(k for k in pinned if k in new and k not in old)
    if not gone or not came:
        return {}
    olds: dict[tuple[str, str], list[str]] = {}
    news: dict[tuple[str, str], list[str]] = {}
    for keys, side, found in ((gone, old, olds), (came, new, news)):
        for key in keys:
            try:
                found.setdefault(_schemas(key, side[key]), []).append(key)
            except RecursionError:  # too deep to compare: classify says so
                continue
    return {news[body][0]: keys[0] for body, keys in olds.items()
            if len(keys) == 1 and len(news.get(body, ())) == 1}


def _schemas(key: str, tool: Any) -> tuple[str, str]:
    """A tool's folder and its input and output schemas without their texts."""
    shown = {k: tool.get(k) for k in ("inputSchema", "outputSchema")} \
        if isinstance(tool, dict) else tool
    return key.rpartition("/")[0], canonical(_shape(shown))


def _shape(value: Any) -> Any:
    """``value`` without the descriptions and titles of its schemas (a text, where a
    property of that name would be a schema)."""
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items()
                if not (k in ("description", "title") and isinstance(v, str))}
    if isinstance(value, list):
        return [_shape(v) for v in value]
    return value


def renames(found: list[Declared]) -> dict[str, str]:
    """New key -> old key, as :func:`toolc.diff.diff_tools` takes them."""
    return {d.new: d.old for d in found}


def problems(found: list[Declared], old: Mapping[str, Any], new: Mapping[str, Any]
             ) -> list[Diagnostic]:
    """TC520 for each ``renamed_from`` of a tool new in this comparison whose old name the
    old side lacks or the new side still publishes: once per ``renamed_from``, however
    many modules export the tool."""
    unknown: dict[Span, list[Declared]] = {}
    still: dict[Span, list[Declared]] = {}
    for d in found:
        if d.new in old:
            continue  # the base has the new name: the rename is done
        if d.old in new:
            still.setdefault(d.said, []).append(d)
        elif d.old not in old:
            unknown.setdefault(d.said, []).append(d)
    out = []
    for span, group in unknown.items():
        first = min(group, key=lambda d: not d.home)  # the defining module's export first
        message = (f"renamed_from '{first.old_name}': the golden files compared with have no "
                   f"tool '{first.old}'{_others(group, 'nor')}, so '{first.new}' is reported "
                   "as added")
        out.append(Diagnostic("TC520", Severity.WARNING, message, span,
                              _hint(first, old, new)))
    for span, group in still.items():
        first = min(group, key=lambda d: not d.home)
        message = (f"renamed_from '{first.old_name}': tool '{first.old}' is still "
                   f"published{_others(group, 'and')}, so nothing was renamed")
        out.append(Diagnostic("TC520", Severity.WARNING, message, span,
                              ("a renamed tool's old name is no longer published",)))
    return sorted(out, key=lambda d: d.span or Span("", 0, 0))


def _others(group: list[Declared], word: str) -> str:
    if len(group) == 1:
        return ""
    return f" ({word} in the {len(group) - 1} other module(s) that export it)"


def _hint(d: Declared, old: Mapping[str, Any], new: Mapping[str, Any]) -> tuple[str, ...]:
    """The closest name of a tool the old side had and the new one lost, in its folder."""
    folder = d.old.rpartition("/")[0]
    lost = [key.rpartition("/")[2] for key in old
            if key not in new and key.rpartition("/")[0] == folder]
    close = difflib.get_close_matches(d.old.rpartition("/")[2], lost, n=1)
    return (f"did you mean '{close[0]}'?",) if close else ()
