"""Where in the specs each change of a fresh build was made: reviews in spec terms.

A diff compares golden files; a reviewer edits specs. When the new side of a diff is a
fresh build, its IR knows where each published tool, schema node and keyword is written
(``ToolIR.span``, ``spec_spans``, ``description_spans``) and which set made a published
name (``name_span``), so each change gets a :class:`SpecPlace` beside its pointer:

- a change inside a tool: the nearest node or keyword of the pointer the spec writes
  (a keyword a named type brings points into the type);
- a tool added: the ``prefix`` or ``names`` entry that made its published name, or the
  tool itself;
- a tool renamed: the tool itself when its own name changed, else the ``prefix`` or
  ``names`` entry that now makes its published name;
- something removed is not in the new specs: the nearest parent that is (the property
  that lost a keyword, the tool still defined but no longer published under that name,
  the module file), noted ``removed``; a removed module has no place at all.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from ..diagnostics import Span
from .result import Change, SpecPlace

if TYPE_CHECKING:
    from ..ir import ModuleIR, ProjectIR, ToolIR


def _place(span: Span, note: str | None = None) -> SpecPlace:
    return SpecPlace(span.path, span.line, span.col, note)


class SpecPlaces:
    """Finds the spec place of a change, from the project the new side was built from."""

    def __init__(self, project: ProjectIR):
        self.modules: dict[str, ModuleIR] = dict(project.modules)
        # Tool keys as the golden files' folders make them: ``<module>/<published name>``.
        self.tools: dict[str, ToolIR] = {
            f"{m.name}/{t.name}": t for m in project.modules.values() for t in m.exported_tools}
        # The name each published tool is defined under (a tool is its definition's span).
        self.defined: dict[Span, str] = {
            t.span: name for m in project.modules.values() for name, t in m.tools.items()}

    def locate(self, change: Change) -> SpecPlace | None:
        tool = self.tools.get(change.tool)
        if tool is None:
            return self._gone(change.tool)
        if change.rule == "TOOL_RENAMED":
            return self._renamed(tool, str(change.old))
        if not change.pointer:  # the whole tool: where its published name comes from
            if tool.name_span is not None:
                return _place(tool.name_span, tool.named_by)
            return _place(tool.span)
        return _in_tool(tool, change)

    def _gone(self, key: str) -> SpecPlace | None:
        """A tool the build does not publish: its nearest parent in the new specs."""
        module_name, _, name = key.rpartition("/")
        module = self.modules.get(module_name)
        if module is None:
            return None
        defined = module.tools.get(name)
        if defined is None:
            # A prefix changed: the old published name still ends with the tool's own.
            renamed = [t for t in module.exported_tools if t.name_span is not None
                       and name.endswith(self.defined.get(t.span, "\0"))]
            if len(renamed) == 1:
                return _moved(renamed[0])
            return SpecPlace(module.path, 1, 1, "removed")
        now = [t for t in module.exported_tools if t.span == defined.span]
        if now:
            return _moved(now[0])
        return _place(defined.span, "removed: no longer exported")

    def _renamed(self, tool: ToolIR, old_name: str) -> SpecPlace:
        """The tool's line when its own name changed (``renamed_from``, or a new key in
        ``tools``); the ``prefix`` or ``names`` entry that makes the published name when
        that is what changed (the old name ends with the tool's own, or a rename made it)."""
        own = self.defined.get(tool.span, "\0")
        set_made = old_name.endswith(own) or not tool.name.endswith(own)
        if tool.name_span is not None and tool.renamed_from is None and set_made:
            return _place(tool.name_span, tool.named_by)
        return _place(tool.span)


def _moved(tool: ToolIR) -> SpecPlace:
    return _place(tool.name_span or tool.span, f"removed: now published as '{tool.name}'")


def _in_tool(tool: ToolIR, change: Change) -> SpecPlace:
    """The nearest pointer at or above the change's that the spec writes."""
    pointer = change.pointer
    if change.rule in ("REQUIRED_ADDED", "REQUIRED_REMOVED"):  # the property's `required:`
        said = tool.spec_spans.get(f"{pointer}/required")
        if said is not None:
            return _place(said)
    while pointer:
        span = tool.spec_spans.get(pointer) or tool.description_spans.get(pointer)
        if span is not None:
            gone = pointer != change.pointer and change.new is None and change.old is not None
            return _place(span, "removed" if gone else None)
        pointer = pointer[:pointer.rindex("/")]
    removal = change.new is None and change.old is not None
    return _place(tool.span, "removed" if removal else None)


def definitions(project: ProjectIR | None) -> Callable[[str], Hashable]:
    """What defines each published tool of the build (its key -> the definition's span),
    so that the rows of a tool several modules export are one (toolc.diff.rows); a key
    the build does not publish, or any without a project, is known by its name."""
    spans = {} if project is None else {
        f"{m.name}/{t.name}": t.span for m in project.modules.values() for t in m.exported_tools}
    return lambda key: spans.get(key) or key.rpartition("/")[2]


def with_places(changes: Iterable[Change], project: ProjectIR | None) -> list[Change]:
    """``changes`` each with its spec place (none without a project: folders compared)."""
    if project is None:
        return list(changes)
    places = SpecPlaces(project)
    return [replace(c, spec=places.locate(c)) for c in changes]
