"""Where every name of the project is defined and used, read from the specs' YAML.

Navigation, completion and rename need the names as written, at their places, in every
spec, also in one whose analysis was taken over (no model of it is made) and in one
that has errors. So the index reads each spec's loaded YAML (the loader's own spans):

- definitions: a module's ``types``, ``tools`` (and the tools of its ``external``
  toolsets) and ``toolsets``;
- uses: a named type in a schema's ``type`` (``Point`` or ``geometry.Point``, anywhere
  under ``types`` and ``tools``), a toolset in ``inner``, a ``combined`` set's
  ``toolsets``, an ``mcp_manager``'s ``servers`` and ``export``, a tool in a ``function``
  toolset's ``tools`` and a ``renamed`` toolset's ``names``;
- code references (``handler``, ``predicate``, ``prepare``, ``wrapper``), for the handler's
  Python file.

A file whose text does not load keeps the index of its last text that did.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Span, SpecError, part_span
from ..loader import YList, YMap, load_text
from ..model.keywords import JSON_TYPES

TYPE, TOOL, TOOLSET = "type", "tool", "toolset"
CODE_KEYS = ("handler", "predicate", "prepare", "wrapper")


@dataclass(frozen=True, slots=True)
class Symbol:
    kind: str       # TYPE, TOOL or TOOLSET
    module: str
    name: str


@dataclass(frozen=True, slots=True)
class Occurrence:
    """A name at its place: ``span`` covers the name alone (``Point`` of ``geo.Point``)."""

    symbol: Symbol
    span: Span
    definition: bool = False


@dataclass(frozen=True, slots=True)
class CodeRef:
    key: str        # handler, predicate, prepare or wrapper
    ref: str        # ``package.module:attr``
    span: Span


@dataclass(slots=True)
class FileIndex:
    path: str                                  # the spec, as diagnostics name it
    text: str
    module: str | None = None
    occurrences: list[Occurrence] = field(default_factory=list)
    code: list[CodeRef] = field(default_factory=list)
    data: Any = None                           # the loaded YAML

    def at(self, line: int, col: int) -> Occurrence | CodeRef | None:
        """The name or code reference under (line, col), both from 1."""
        items: list[Occurrence | CodeRef] = [*self.occurrences, *self.code]
        for item in items:
            s = item.span
            if s.line == line and s.col <= col <= s.col + s.length:
                return item
        return None


class Index:
    """Every spec's names, rebuilt per file when its text changes."""

    def __init__(self) -> None:
        self.files: dict[str, FileIndex] = {}

    def update(self, texts: Mapping[str, str]) -> None:
        """Index each spec of ``texts`` (as shown -> text) whose text is new; forget the
        specs that are gone."""
        for gone in set(self.files) - set(texts):
            del self.files[gone]
        for path, text in texts.items():
            kept = self.files.get(path)
            if kept is not None and kept.text == text:
                continue
            made = index_file(path, text)
            if made is not None:
                self.files[path] = made
            elif kept is not None:
                kept.text = text  # stale places, kept until the text loads again

    def modules(self) -> dict[str, FileIndex]:
        found: dict[str, FileIndex] = {}
        for item in sorted(self.files.values(), key=lambda f: f.path):
            if item.module is not None:
                found.setdefault(item.module, item)
        return found

    def occurrences(self, symbol: Symbol) -> list[Occurrence]:
        return [o for f in self.files.values() for o in f.occurrences if o.symbol == symbol]

    def definition(self, symbol: Symbol) -> Occurrence | None:
        return next((o for o in self.occurrences(symbol) if o.definition), None)

    def names(self, kind: str, module: str) -> list[str]:
        """The names of ``kind`` a module defines, in written order."""
        found = self.modules().get(module)
        if found is None:
            return []
        return list(dict.fromkeys(o.symbol.name for o in found.occurrences
                                  if o.definition and o.symbol.kind == kind))


def index_file(path: str, text: str) -> FileIndex | None:
    """The names of one spec's text; None when it does not load."""
    try:
        data = load_text(text, path).data
    except SpecError:
        return None
    found = FileIndex(path, text, data=data)
    if not isinstance(data, YMap):
        return found
    module = data.get("module")
    found.module = module if isinstance(module, str) else None
    if found.module is None:
        return found
    _Reader(found, found.module).read(data)
    return found


class _Reader:
    def __init__(self, into: FileIndex, module: str) -> None:
        self.into = into
        self.module = module

    def add(self, kind: str, ref: str, span: Span, *, definition: bool = False) -> None:
        """A use of ``ref`` (``name`` or ``module.name``) at ``span``, or a definition."""
        split = not definition and kind != TOOL  # a tool's own name may hold a `.`
        module, dot, name = ref.rpartition(".") if split else ("", "", ref)
        if not dot:
            module, name = self.module, ref
        at = part_span(span, ref, len(ref) - len(name))
        if at is not None and name:
            self.into.occurrences.append(Occurrence(Symbol(kind, module, name), at, definition))

    def read(self, data: YMap) -> None:
        for section, kind in (("types", TYPE), ("tools", TOOL), ("toolsets", TOOLSET)):
            node = data.get(section)
            if isinstance(node, YMap):
                for name in node:
                    self.add(kind, name, node.key_spans[name], definition=True)
        for section in ("types", "tools"):
            node = data.get(section)
            if isinstance(node, YMap):
                for value, span in _type_uses(node):
                    self.add(TYPE, value, span)
        tools = data.get("tools")
        for tool in tools.values() if isinstance(tools, YMap) else ():
            self._code(tool)
        toolsets = data.get("toolsets")
        if isinstance(toolsets, YMap):
            for node in toolsets.values():
                if isinstance(node, YMap):
                    self._toolset(node)
        if isinstance(data.get("export"), str):
            self.add(TOOLSET, data["export"], data.value_spans["export"])

    def _code(self, node: Any) -> None:
        if isinstance(node, YMap):
            for key in CODE_KEYS:
                if isinstance(node.get(key), str):
                    self.into.code.append(CodeRef(key, node[key], node.value_spans[key]))

    def _toolset(self, node: YMap) -> None:
        self._code(node)
        kind = node.get("kind")
        if isinstance(node.get("inner"), str):
            self.add(TOOLSET, node["inner"], node.value_spans["inner"])
        for key in ("toolsets", "tools"):
            items = node.get(key)
            if isinstance(items, YList) and (key == "toolsets" or kind == "function"):
                for item, span in zip(items, items.item_spans, strict=True):
                    if isinstance(item, str):
                        self.add(TOOLSET if key == "toolsets" else TOOL, item, span)
        servers = node.get("servers")
        if isinstance(servers, YMap):
            for server, ref in servers.items():
                if isinstance(ref, str):
                    self.add(TOOLSET, ref, servers.value_spans[server])
        names = node.get("names")
        if kind == "renamed" and isinstance(names, YMap):
            for old in names:
                self.add(TOOL, old, names.key_spans[old], definition=False)
        tools = node.get("tools")
        if kind == "external" and isinstance(tools, YMap):
            for name in tools:
                self.add(TOOL, name, tools.key_spans[name], definition=True)


def _type_uses(node: Any) -> Iterator[tuple[str, Span]]:
    """Every named type a schema (at any depth) names in its ``type``."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, YMap):
            value = item.get("type")
            if isinstance(value, str) and value not in JSON_TYPES:
                yield value, item.value_spans["type"]
            elif isinstance(value, YList):
                yield from ((v, s) for v, s in zip(value, value.item_spans, strict=True)
                            if isinstance(v, str) and v not in JSON_TYPES)
            stack.extend(v for v in item.values() if isinstance(v, (YMap, YList)))
        elif isinstance(item, YList):
            stack.extend(v for v in item if isinstance(v, (YMap, YList)))


__all__ = ["CODE_KEYS", "TOOL", "TOOLSET", "TYPE", "CodeRef", "FileIndex", "Index",
           "Occurrence", "Symbol", "index_file"]
