"""A spec's YAML as the formatter reads it: nodes that keep how and where they were written.

The nodes come from the event stream of PyYAML's parser, the loader's own, so the
formatter reads the very document the build reads. Each node keeps its source lines;
a scalar keeps its style and its text as written (a number stays ``1e3``, a block scalar
its lines); a collection keeps whether it was written in flow style, and its entries
(a mapping's key and value, or a list's item) the comments that belong to them
(:mod:`toolc.formatting.attach` decides which).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml  # type: ignore[import-untyped, unused-ignore]

from ..scalars import resolve_plain
from .comments import BREAKS, Comment, Lines

_Parser: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_CORE = "tag:yaml.org,2002:"
_PROPS = re.compile(r"(?:[&!]\S*\s+)+")


@dataclass(slots=True, eq=False)
class Scalar:
    value: str       # as the parser read it (before YAML 1.2 resolution)
    style: str       # "" plain, "'", '"', "|", ">"
    raw: str         # as written, without its anchor and tag
    props: str       # "&name !!tag", as the formatter writes them ("" when none)
    line: int        # where its own text begins (its header, for a block scalar)
    end_line: int    # its last line of text
    at: int = 0      # where it begins, its anchor and tag included (an index of the text)
    tagged: bool = False
    anchor: str | None = None

    @property
    def header(self) -> str:
        """A block scalar's indicators (``|-``, ``>2``); '' for the others."""
        return self.raw.split(None, 1)[0] if self.style in ("|", ">") and self.raw else ""

    @property
    def multiline(self) -> bool:
        return self.end_line > self.line or self.style in ("|", ">")

    def meaning(self) -> Any:
        """What the loader reads (untagged scalars only)."""
        return resolve_plain(self.value) if self.style == "" else self.value


@dataclass(slots=True, eq=False)
class Alias:
    name: str
    line: int
    end_line: int
    at: int
    target: Node | None = None  # the node its anchor named where it stands in the source
    props = ""
    anchor = None


@dataclass(slots=True, eq=False)
class Collection:
    is_map: bool
    flow: bool       # written in flow style (``{...}``, ``[...]``)
    props: str
    line: int
    at: int
    end_line: int = -1
    entries: list[Entry] = field(default_factory=list)
    trailing: list[Comment] = field(default_factory=list)  # after its last entry
    anchor: str | None = None


Node = Scalar | Alias | Collection


@dataclass(slots=True, eq=False)
class Entry:
    """A mapping's key and value, or a list's item (``key`` None)."""

    key: Scalar | None
    value: Node
    line: int        # of its key, or of its item's `-` (a flow item: of the item)
    col: int
    parent: Collection
    depth: int
    leading: list[Comment] = field(default_factory=list)  # the comment lines above it
    eol: Comment | None = None                            # the comment ending its line
    blank_before: bool = False

    @property
    def end_line(self) -> int:
        return self.value.end_line


@dataclass(slots=True, eq=False)
class Document:
    root: Node | None
    lines: Lines
    start: list[str] = field(default_factory=list)  # directives and an explicit `---`
    comments: list[Comment] = field(default_factory=list)  # those of no entry
    entries: list[Entry] = field(default_factory=list)     # every entry, in source order
    inside: set[int] = field(default_factory=set)          # lines inside a scalar's text


def read_document(text: str) -> Document:
    """The document of ``text``, which the loader has read without an error."""
    builder = _Builder(text)
    parser = _Parser(text)
    try:
        return builder.build(parser)
    finally:
        parser.dispose()


@dataclass(slots=True)
class _Open:
    node: Collection
    depth: int
    key: Scalar | None = None
    cursor: int = 0  # where the search for the next item's `-` starts


class _Builder:
    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = Lines(text)
        self.anchors: dict[str, Node] = {}
        self.document = Document(None, self.lines)

    def build(self, parser: Any) -> Document:
        stack: list[_Open] = []
        while (event := parser.get_event()) is not None:
            node: Node
            if isinstance(event, yaml.DocumentStartEvent):
                self._start(event)
                continue
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                opened = Collection(isinstance(event, yaml.MappingStartEvent),
                                    bool(event.flow_style), _props(event),
                                    self.lines.line(event.start_mark.index),
                                    event.start_mark.index, anchor=event.anchor)
                self._anchor(event.anchor, opened)
                stack.append(_Open(opened, len(stack), cursor=event.start_mark.index))
                continue
            if isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                node = stack.pop().node
                node.end_line = (self.lines.line(event.end_mark.index - 1) if node.flow
                                 else node.entries[-1].end_line)
            elif isinstance(event, yaml.ScalarEvent):
                node = self._scalar(event)
            elif isinstance(event, yaml.AliasEvent):
                at = event.start_mark.index
                line = self.lines.line(at)
                node = Alias(event.anchor, line, line, at, self.anchors.get(event.anchor))
            else:
                continue
            if not stack:
                self.document.root = node
            else:
                self._add(stack[-1], node, event)
        return self.document

    def _start(self, event: Any) -> None:
        if event.version:
            self.document.start.append(f"%YAML {event.version[0]}.{event.version[1]}")
        for handle, prefix in (event.tags or {}).items():
            self.document.start.append(f"%TAG {handle} {prefix}")
        if event.explicit or self.document.start:
            self.document.start.append("---")

    def _anchor(self, name: str | None, node: Node) -> None:
        if name is not None:
            self.anchors[name] = node

    def _scalar(self, event: Any) -> Scalar:
        at = start = event.start_mark.index
        end = event.end_mark.index
        written = self.text[start:end]
        props = _props(event)
        if props:
            cut = _PROPS.match(written + " ")
            start += min(len(written), cut.end()) if cut else 0
        raw = self.text[start:end]
        line = self.lines.line(start)
        style = event.style or ""
        last = self._last_line(start, end, style)
        node = Scalar(event.value, style, raw, props, line, last, at,
                      tagged=event.tag is not None, anchor=event.anchor)
        # The blank lines a kept block scalar ends with are its text, not a separator.
        kept = "+" in node.header and end > start
        self.document.inside.update(range(line + 1, (self.lines.line(end - 1) if kept
                                                     else last) + 1))
        self._anchor(event.anchor, node)
        return node

    def _last_line(self, start: int, end: int, style: str) -> int:
        if end <= start:
            return self.lines.line(start)
        if style not in ("|", ">"):
            return self.lines.line(end - 1)
        last = self.lines.line(start)
        for line in range(last + 1, self.lines.line(end - 1) + 1):
            if self.lines.content(line).strip():
                last = line
        return last

    def _add(self, parent: _Open, node: Node, event: Any) -> None:
        collection = parent.node
        if collection.is_map and parent.key is None:
            assert isinstance(node, Scalar)  # the loader refuses other keys (TC009)
            parent.key = node
            return
        if collection.is_map:
            key = parent.key
            assert key is not None
            index = key.at
            parent.key = None
        else:
            key = None
            index = node.at if collection.flow else self._dash(parent.cursor, node.at)
            parent.cursor = max(parent.cursor, event.end_mark.index)
        entry = Entry(key, node, self.lines.line(index), self.lines.col(index), collection,
                      parent.depth)
        collection.entries.append(entry)
        self.document.entries.append(entry)

    def _dash(self, start: int, stop: int) -> int:
        """The `-` of a block list's item: the first one from ``start`` not in a comment."""
        text = self.text
        i = start
        while i < stop:
            char = text[i]
            if char == "#" and (i == 0 or text[i - 1] in " \t" + BREAKS):
                while i < stop and text[i] not in BREAKS:
                    i += 1
            elif char == "-":
                return i
            i += 1
        return stop


def _props(event: Any) -> str:
    parts = [f"&{event.anchor}"] if event.anchor else []
    tag = event.tag
    explicit = tag is not None and (
        isinstance(event, yaml.ScalarEvent) or getattr(event, "implicit", True) is False)
    if explicit:
        parts.append(f"!!{tag[len(_CORE):]}" if tag.startswith(_CORE) else
                     "!" if tag == "!" else f"!<{tag}>")
    return " ".join(parts)
