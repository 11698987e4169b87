"""The canonical layout of a spec (docs/spec-format.md, "Layout").

- Mappings and lists are blocks indented by two (a list's items too, under their key),
  a list of mappings compact (``- name: x`` with the other keys below ``name``).
- A collection is written in flow style (``{type: string, description: ...}``,
  ``[a, b]``) when it fits on its line within :data:`WIDTH` columns and is shallow: its
  items are scalars or collections of scalars. Else it is a block, and so are a tool
  (it is read by its description) and a mapping of definitions (whose every value is a
  mapping: ``params``, ``properties``, ``tools``). A collection holding a comment is a
  block, and so is the value of a key whose line ends with a comment; a one-line flow
  collection with a comment after it stays as it is (:mod:`toolc.formatting.attach`).
- Keys in canonical order where the format names them (:mod:`toolc.formatting.order`).
- Blank lines: one where the source had one or more, none at the start of a block, and at
  the top level one around every block (``types:``, ``tools:``, ...). Comments are kept
  with what they belong to, at its indentation; an end-of-line comment after two spaces.
"""

from __future__ import annotations

from .comments import Comment
from .meaning import FormatBug
from .order import EXTERNAL_TOOL, PINNED_TOOL, TOOL, TOOLSET, TOP, child_place, key_order
from .scalars import MAX_KEY
from .strings import block_lines, flow_text, string_text
from .tree import Alias, Collection, Document, Entry, Node, Scalar

WIDTH = 100  # a flow collection ends at or before this column, as in `toolc import`
INDENT = 2
_ALWAYS_BLOCK = frozenset({TOOL, EXTERNAL_TOOL, PINNED_TOOL})


class _Kept(str):
    """The last line of a block scalar that keeps its final line breaks (``|+``): a blank
    line after it would be its text."""

    __slots__ = ()


class _Blank(str):
    """A blank line between entries (a block scalar's empty lines are its text: plain "")."""

    __slots__ = ()


_SEPARATOR = _Blank()


class Layout:
    """Writes one document; ``pinned``: the ids of collections kept in flow style."""

    def __init__(self, document: Document, pinned: set[int]) -> None:
        self.document = document
        self.pinned = pinned
        self.owners = {id(e.value): e for e in document.entries
                       if isinstance(e.value, Collection)}
        self.commented = self._commented()
        self._flows: dict[tuple[int, bool], str | None] = {}  # (node, strict) -> its flow
        self.reorder = True
        root = document.root
        if root is not None and not self._anchors_in_order(root, TOP, {}):
            self.reorder = False  # an alias would come before its anchor: keep the order

    # -- the document --------------------------------------------------------------------

    def render(self) -> str:
        out = list(self.document.start)
        root = self.document.root
        if isinstance(root, Collection) and root.props:
            if not out or out[-1] != "---":
                out.append("---")
            out[-1] += " " + root.props
        if isinstance(root, Collection) and root.entries:
            first = root.entries[0]
            head, head_blank = first.leading, first.blank_before and bool(first.leading)
            if head:
                first.leading, first.blank_before = [], False
            loose = sorted(self.document.comments, key=lambda c: c.line)
            out += self._comment_lines([c for c in loose if c.line < first.line] + head, 0,
                                       first=True)
            if head_blank:
                out.append(_SEPARATOR)
            out += (self.block_map(root, 0, TOP, top=True) if root.is_map
                    else self.block_seq(root, 0, None))
            out += self._comment_lines([c for c in loose if c.line >= first.line], 0)
        else:
            out += self._lone(root)
        lines = [line for i, line in enumerate(out)
                 if not (isinstance(line, _Blank) and i and isinstance(out[i - 1], _Kept))]
        return "\n".join(lines) + "\n" if lines else ""

    def _lone(self, root: Node | None) -> list[str]:
        """A document that is one scalar, an alias, an empty collection or nothing."""
        comments = sorted(self.document.comments, key=lambda c: c.line)
        if root is None:
            return self._comment_lines(comments, 0, first=True)
        at = root.line
        out = self._comment_lines([c for c in comments if c.line < at], 0, first=True)
        if isinstance(root, Collection):
            text = [("{}" if root.is_map else "[]")]
        elif isinstance(root, Alias):
            text = [f"*{root.name}"]
        else:
            text = block_lines(root, 0)
            props = root.props if not isinstance(root, Collection) else ""
            text[0] = " ".join(part for part in (props, text[0]) if part)
        return out + text + self._comment_lines([c for c in comments if c.line >= at], 0)

    # -- blocks --------------------------------------------------------------------------

    def block_map(self, node: Collection, indent: int, place: str | None, *,
                  top: bool = False) -> list[str]:
        out: list[str] = []
        was_block = False
        pad = " " * indent
        for i, (entry, below) in enumerate(self.ordered(node, place)):
            key = self.key_text(entry.key)
            if key is not None:
                body, is_block = self._value(f"{pad}{key}:", entry, indent, below)
            else:  # longer than YAML's implicit keys may be: `? key`, then `: value`
                body, is_block = self._value(f"{pad}:", entry, indent, below)
                body.insert(0, f"{pad}? {self.key_text(entry.key, long=True)}")
            out += self._entry(entry, body, indent, first=i == 0,
                               force_blank=top and (is_block or was_block))
            was_block = is_block
        return out + self._comment_lines(node.trailing, indent)

    def block_seq(self, node: Collection, indent: int, place: str | None) -> list[str]:
        out: list[str] = []
        pad = " " * indent
        for i, (entry, below) in enumerate(self.ordered(node, place)):
            value = entry.value
            if isinstance(value, Collection) and value.is_map and value.entries and \
                    not value.props and entry.eol is None and \
                    self._flow_choice(value, below, indent + 2, False) is None:
                # "- key: value", the other keys below the first (whose comments
                # toolc.formatting.attach has put above the item)
                body = self.block_map(value, indent + INDENT, below)
                body[0] = f"{pad}- {body[0][indent + INDENT:]}"
            else:
                body, _ = self._value(f"{pad}-", entry, indent, below)
            out += self._entry(entry, body, indent, first=i == 0)
        return out + self._comment_lines(node.trailing, indent)

    def _value(self, head: str, entry: Entry, indent: int, place: str | None
               ) -> tuple[list[str], bool]:
        """``head`` (``key:`` or ``-``) and the entry's value; whether that is a block."""
        value = entry.value
        eol = f"  {entry.eol.text}" if entry.eol is not None else ""
        props = f" {value.props}" if value.props else ""
        if isinstance(value, Alias):
            return [f"{head} *{value.name}{eol}"], False
        if isinstance(value, Scalar):
            parts = block_lines(value, indent)
            lines = [f"{head}{props}" + (f" {parts[0]}" if parts[0] else ""), *parts[1:]]
            late = entry.eol is not None and entry.eol.line > entry.line and len(lines) > 1 \
                and value.style not in ("|", ">")
            lines[-1 if late else 0] += eol
            if parts[0][:1] in ("|", ">") and "+" in parts[0]:
                lines[-1] = _Kept(lines[-1])
            return lines, False
        flow = self._flow_choice(value, place, len(head) + len(props) + 1,
                                 entry.eol is not None)
        if flow is not None:
            return [f"{head}{props} {flow}{eol}"], False
        nested = (self.block_map(value, indent + INDENT, place) if value.is_map
                  else self.block_seq(value, indent + INDENT, place))
        return [f"{head}{props}{eol}", *nested], True

    def _entry(self, entry: Entry, body: list[str], indent: int, *, first: bool,
               force_blank: bool = False) -> list[str]:
        """An entry's comment lines, blank lines and body."""
        comments = entry.leading
        out = self._comment_lines(comments, indent, first=first, force_blank=force_blank)
        if not (first and not comments) and (entry.blank_before or (
                force_blank and not comments)):
            out.append(_SEPARATOR)
        return out + body

    def _comment_lines(self, comments: list[Comment], indent: int, *, first: bool = False,
                       force_blank: bool = False) -> list[str]:
        out: list[str] = []
        for j, comment in enumerate(comments):
            if not (first and j == 0) and (comment.blank_before or (force_blank and j == 0)):
                out.append(_SEPARATOR)
            out.append(" " * indent + comment.text)
        return out

    # -- flow ----------------------------------------------------------------------------

    def _flow_choice(self, node: Collection, place: str | None, used: int,
                     commented_line: bool) -> str | None:
        """The flow form of a key's or an item's collection, or None: a block."""
        if id(node) in self.pinned:
            return self.flow(node, place, strict=False)
        if not node.entries:
            return "{}" if node.is_map else "[]"
        if commented_line or id(node) in self.commented or place in _ALWAYS_BLOCK or (
                node.is_map and all(_is_map(e.value) for e in node.entries)):
            return None
        text = self.flow(node, place, strict=True)
        return text if text is not None and used + len(text) <= WIDTH else None

    def flow(self, node: Collection, place: str | None, *, strict: bool) -> str | None:
        """``{...}`` or ``[...]``; None where it cannot (or, ``strict``, should not) be."""
        known = (id(node), strict)  # a node is asked again by each collection around it
        if known not in self._flows:
            self._flows[known] = self._flow(node, place, strict)
        return self._flows[known]

    def _flow(self, node: Collection, place: str | None, strict: bool) -> str | None:
        parts: list[str] = []
        for entry, below in self.ordered(node, place):
            value = entry.value
            if strict and isinstance(value, Collection) and not _shallow(value):
                return None
            text = self._flow_value(value, below, strict)
            if text is None:
                return None
            if node.is_map:
                key = self.key_text(entry.key, flow=True)
                if key is None:
                    return None
                text = f"{key}: {text}"
            parts.append(text)
        return ("{%s}" if node.is_map else "[%s]") % ", ".join(parts)

    def _flow_value(self, value: Node, place: str | None, strict: bool) -> str | None:
        props = f"{value.props} " if value.props else ""
        if isinstance(value, Alias):
            return f"*{value.name}"
        if isinstance(value, Scalar):
            if value.multiline or (strict and ("\n" in value.value or (
                    value.style == "" and not value.raw))):
                return None
            return props + flow_text(value)
        if id(value) in self.commented:
            return None
        if not value.entries:
            return props + ("{}" if value.is_map else "[]")
        inner = self.flow(value, place, strict=strict)
        return None if inner is None else props + inner

    # -- shared --------------------------------------------------------------------------

    def ordered(self, node: Collection, place: str | None) -> list[tuple[Entry, str | None]]:
        """The entries in the order written out, each with the place of its value."""
        entries = node.entries
        if not node.is_map:
            return [(e, child_place(place, i)) for i, e in enumerate(entries)]
        keys = [e.key.value if e.key is not None else "" for e in entries]
        kind = _kind(node) if place == TOOLSET else None
        order = key_order(place, keys, kind) if self.reorder else range(len(entries))
        return [(entries[i], child_place(place, keys[i], kind)) for i in order]

    def key_text(self, key: Scalar | None, flow: bool = False, long: bool = False
                 ) -> str | None:
        """The key as written before its ``:``; None when it must be an explicit ``? key``
        (``long``: as written after the ``?``)."""
        assert key is not None
        text = key.raw if key.tagged else string_text(key.value, flow, key=True)
        if "\n" in text:
            raise FormatBug(f"the key on line {key.line + 1} is written over several lines; "
                            "toolc fmt cannot write it")
        if len(text) > MAX_KEY and not long:
            return None
        return f"{key.props} {text}" if key.props else text

    def _commented(self) -> set[int]:
        """The ids of the collections that hold a comment, at any depth."""
        marked: set[int] = set()

        def mark(collection: Collection | None) -> None:
            while collection is not None and id(collection) not in marked:
                marked.add(id(collection))
                holder = self.owners.get(id(collection))
                collection = holder.parent if holder is not None else None
        for entry in self.document.entries:
            if entry.leading or entry.eol is not None:
                mark(entry.parent)
            if isinstance(entry.value, Collection) and entry.value.trailing:
                mark(entry.value)
        root = self.document.root
        if isinstance(root, Collection) and root.trailing:
            mark(root)
        return marked

    def _anchors_in_order(self, node: Node, place: str | None,
                          current: dict[str, Node]) -> bool:
        """Whether, written in canonical order, every alias still follows its anchor."""
        if isinstance(node, Alias):
            return current.get(node.name) is node.target
        if node.anchor is not None:
            current[node.anchor] = node
        if isinstance(node, Scalar):
            return True
        for entry, below in self.ordered(node, place):
            if entry.key is not None and not self._anchors_in_order(entry.key, None, current):
                return False
            if not self._anchors_in_order(entry.value, below, current):
                return False
        return True


def _shallow(child: Collection) -> bool:
    """A collection a flow collection may hold: one of scalars."""
    return all(not isinstance(e.value, Collection) for e in child.entries)


def _is_map(node: Node) -> bool:
    return isinstance(node, Collection) and node.is_map


def _kind(node: Collection) -> str | None:
    for entry in node.entries:
        value = entry.value
        if entry.key is not None and entry.key.value == "kind" and isinstance(value, Scalar):
            meaning = value.value if value.tagged else value.meaning()
            return meaning if isinstance(meaning, str) else None
    return None
