"""Read a spec file into plain data that remembers where every piece came from.

The loader builds values straight from the YAML event stream (libyaml's C parser when
it is installed) instead of composing a node tree first. That one pass is where the
format's safety rules live: the size limit is checked on the bytes, the nesting depth
and the alias expansion are counted while events arrive (so a billion-laughs file or a
file nested thousands deep stops at once, before any recursion), scalars take their
YAML 1.2 core-schema meaning (``yes`` stays a string; :mod:`toolc.scalars`, which also
bounds numbers), tags are refused and duplicate keys are reported at the second key.
Only a regular file is read, and a symbolic link only to a file inside the project.

Mappings load as :class:`YMap` and sequences as :class:`YList`: a ``dict`` and a
``list`` that also hold the span of each key and value, so every later stage can point
back at the source. Scalars are plain ``str``/``int``/``float``/``bool``/``None``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import yaml

from .diagnostics import Diagnostic, Related, Severity, Span, SpecError, Suppression, fail
from .scalars import NumberTooLarge, resolve_plain, short
from .suppressions import find_suppressions
from .syntax_errors import explain
from .untrusted import FileRefused, read_untrusted

MAX_BYTES = 10 * 1024 * 1024
# The one nesting bound: a spec file's mappings and lists (TC004), and every tool as
# published, named types written out in place (TC230, toolc.checks.bounds). Generated
# code nests at most two brackets per level, well inside the 200 Python parses.
MAX_DEPTH = 64
MAX_NODES = 100_000

_Parser: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_SCALAR, _ALIAS = yaml.ScalarEvent, yaml.AliasEvent
_MAP_START, _MAP_END = yaml.MappingStartEvent, yaml.MappingEndEvent
_SEQ_START, _SEQ_END = yaml.SequenceStartEvent, yaml.SequenceEndEvent
_DOC_START = yaml.DocumentStartEvent

_CORE = "tag:yaml.org,2002:"
_ALLOWED_TAGS = {f"{_CORE}{t}" for t in ("str", "int", "float", "bool", "null", "map", "seq")}


class YMap(dict[str, Any]):
    """A mapping from the source, with the span of the mapping, each key and each value."""

    __slots__ = ("key_spans", "span", "value_spans")

    def __init__(self, span: Span):
        super().__init__()
        self.span = span
        self.key_spans: dict[str, Span] = {}
        self.value_spans: dict[str, Span] = {}


class YList(list[Any]):
    """A sequence from the source, with its span and the span of each item."""

    __slots__ = ("item_spans", "span")

    def __init__(self, span: Span):
        super().__init__()
        self.span = span
        self.item_spans: list[Span] = []


@dataclass(slots=True)
class LoadedFile:
    path: str
    text: str
    data: Any
    diagnostics: list[Diagnostic] = field(default_factory=list)
    origin: str | None = None  # the file read, as opened (None for text loaded directly)
    suppressions: list[Suppression] = field(default_factory=list)  # `# toolc: ignore[...]`


def load_file(path: str, display: str | None = None, root: str | None = None, *,
              parse: Callable[[bytes, str], LoadedFile] | None = None,
              raw: bytes | None = None) -> LoadedFile:
    """Read and parse one spec file; raise :class:`SpecError` if it cannot be read at all.
    ``parse``: what makes the bytes read a LoadedFile (default :func:`load_bytes`; a warm
    process gives one that remembers, ``toolc.reuse.memory``). ``raw``: the file's text
    as an editor holds it, unsaved (``toolc lsp``), parsed instead of what is on disk;
    the file is refused for the same reasons (a link out of the project, not a regular
    file), and may not exist yet.

    Only a regular file is read, and with ``root`` (the project) a symbolic link only to
    a file inside it: a spec from a pull request may be a link to ``/proc/self/environ``
    or a FIFO, and neither may be read, nor echoed in a diagnostic.
    """
    shown = display or path
    if raw is None or os.path.lexists(path):
        disk = read_bytes(path, shown, root)  # the file's own checks, whatever is parsed
        raw = disk if raw is None else raw
    elif link_problem(path, root) is not None:
        read_bytes(path, shown, root)  # says why (TC010)
    loaded = (parse or load_bytes)(raw, shown)
    loaded.origin = path
    return loaded


def read_bytes(path: str, shown: str, root: str | None = None) -> bytes:
    """The bytes of a spec file (at most ``MAX_BYTES``), read as :func:`load_file` reads
    them: a regular file, through a link only to a file inside ``root``."""
    problem = link_problem(path, root)
    if problem is not None:
        fail("TC010", f"{shown} {problem}", Span(shown, 1, 1))
    # The file checked is the file opened: the link resolved, and no link followed on
    # opening it (one put there in between is refused). Without waiting for a FIFO.
    target = os.path.realpath(path) if root is not None else path
    try:
        return read_untrusted(target, MAX_BYTES, follow=root is None)
    except FileRefused as exc:
        if exc.kind == "large":
            fail("TC002", f"file is larger than {MAX_BYTES // (1024 * 1024)} MiB",
                 Span(shown, 1, 1))
        fail("TC010", f"{shown} {exc.why}; a spec must be one", Span(shown, 1, 1))
    except OSError as exc:
        fail("TC001", f"cannot read {shown}: {exc.strerror or exc}", Span(shown, 1, 1))


def link_problem(path: str, root: str | None) -> str | None:
    """Why ``path`` must not be read (a link out of ``root``), or None."""
    if root is None:
        return None
    real = os.path.realpath(path)
    if real == os.path.abspath(path):
        return None  # no link on the way: a file named outside the project is the user's
    inside = os.path.realpath(root)
    if real == inside or real.startswith(inside.rstrip(os.sep) + os.sep):
        return None
    return "is a symbolic link to a file outside the project; specs are read only inside it"


def load_bytes(raw: bytes, path: str) -> LoadedFile:
    if len(raw) > MAX_BYTES:
        fail("TC002", f"file is larger than {MAX_BYTES // (1024 * 1024)} MiB", Span(path, 1, 1))
    return load_text(_decode(raw, path), path)


def load_text(text: str, path: str) -> LoadedFile:
    """Parse YAML text; ``path`` is what diagnostics will call the file."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        fail("TC002", f"file is larger than {MAX_BYTES // (1024 * 1024)} MiB", Span(path, 1, 1))
    builder = _Builder(path)
    parser = _Parser(text)
    try:
        data = builder.build(parser)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = exc.problem or exc.context or "invalid YAML"
        if "maximum nesting depth" in problem:
            fail("TC004", f"nesting is deeper than {MAX_DEPTH} levels", Span(path, line, col))
        start = exc.context_mark
        opened = (exc.context, start.line + 1, start.column + 1) if exc.context and start \
            else None
        said = explain(problem, text, line, col, opened)
        raise SpecError([Diagnostic("TC003", Severity.ERROR, f"YAML syntax error: {said.message}",
                                    Span(path, said.line, said.col), said.notes)]) from None
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow, at its place
        line, col = _text_position(text, exc.position)
        what = f"#x{exc.character:04x}" if isinstance(exc.character, int) else repr(exc.character)
        fail("TC003", f"YAML syntax error: unacceptable character {what}: {exc.reason}",
             Span(path, line, col))
    except yaml.YAMLError as exc:
        fail("TC003", f"YAML syntax error: {str(exc).splitlines()[0]}", Span(path, 1, 1))
    finally:
        parser.dispose()
    return LoadedFile(path, text, data, builder.diagnostics,
                      suppressions=find_suppressions(text, path))


def _decode(raw: bytes, path: str) -> str:
    if b"\x00" in raw:
        line, col = _position(raw, raw.index(b"\x00"))
        fail("TC001", "binary file: a spec must be UTF-8 text", Span(path, line, col))
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line, col = _position(raw, exc.start)
        fail("TC001", f"not UTF-8 text: byte 0x{raw[exc.start]:02x} cannot be decoded",
             Span(path, line, col))


def _text_position(text: str, offset: int) -> tuple[int, int]:
    before = text[:max(0, offset)]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


def _position(raw: bytes, offset: int) -> tuple[int, int]:
    before = raw[:offset]
    line = before.count(b"\n") + 1
    col = len(before[before.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1
    return line, col


@dataclass(slots=True)
class _Open:
    """A mapping or sequence being built, with what it still waits for."""

    value: YMap | YList
    anchor: str | None
    size: int = 1
    key: Any = None
    key_span: Span | None = None
    has_key: bool = False
    skip: bool = False  # a duplicate key's value: parsed, then dropped


class _Builder:
    def __init__(self, path: str):
        self.path = path
        self.diagnostics: list[Diagnostic] = []
        self.anchors: dict[str, tuple[Any, int]] = {}
        self.expanded = 0

    def _span(self, event: Any, length: int = 1) -> Span:
        m = event.start_mark
        return Span(self.path, m.line + 1, m.column + 1, max(1, length))

    def _report(self, code: str, message: str, span: Span, notes: tuple[str, ...] = (),
                related: tuple[Related, ...] = ()) -> None:
        self.diagnostics.append(Diagnostic(code, Severity.ERROR, message, span, notes,
                                           related=related))

    def build(self, parser: Any) -> Any:  # noqa: C901  # one loop over the events: the hot path
        """Build the value of the single document ``parser`` (a PyYAML parser) reads.

        This loop runs once per YAML event, so it dispatches on the exact event class
        and handles the common case (an untagged, unanchored scalar) inline.
        """
        stack: list[_Open] = []
        result: Any = None
        documents = 0
        path = self.path
        get_event = parser.get_event
        new_span = tuple.__new__  # Span(...) without the named tuple's Python-level __new__
        while (event := get_event()) is not None:
            kind = type(event)
            if kind is _SCALAR:
                mark = event.start_mark
                end = event.end_mark
                length = end.column - mark.column if end.line == mark.line else 1
                span = new_span(Span, (path, mark.line + 1, mark.column + 1,
                                       length if length > 0 else 1))
                try:
                    if event.tag is None:
                        # implicit[0] is true only for a plain (unquoted) scalar.
                        value = resolve_plain(event.value) if event.implicit[0] else event.value
                    else:
                        value = self._tagged(event)
                except NumberTooLarge as exc:
                    fail("TC232", str(exc), span)
                size = 1
                if event.anchor is not None:
                    self.anchors[event.anchor] = (value, 1)
            elif kind is _MAP_START or kind is _SEQ_START:
                if len(stack) >= MAX_DEPTH:
                    fail("TC004", f"nesting is deeper than {MAX_DEPTH} levels", self._span(event))
                self._check_tag(event, "map" if kind is _MAP_START else "seq")
                container = YMap if kind is _MAP_START else YList
                stack.append(_Open(container(self._span(event)), event.anchor))
                continue
            elif kind is _MAP_END or kind is _SEQ_END:
                done = stack.pop()
                if done.anchor is not None:
                    self.anchors[done.anchor] = (done.value, done.size)
                value, size, span = done.value, done.size, done.value.span
            elif kind is _ALIAS:
                if event.anchor not in self.anchors:
                    fail("TC003", f"YAML syntax error: unknown alias *{event.anchor}",
                         self._span(event))
                value, size = self.anchors[event.anchor]
                span = self._span(event, len(event.anchor) + 1)
                # Only what aliases repeat counts: a long file without aliases is
                # bounded by its size in bytes, and a spec of 1,000 tools has more
                # than 100,000 nodes.
                self.expanded += size
                if self.expanded > MAX_NODES:
                    fail("TC005", f"aliases expand to more than {MAX_NODES:,} nodes", span)
            elif kind is _DOC_START:
                documents += 1
                if documents > 1:
                    fail("TC008", "a spec file holds one YAML document; found a second",
                         self._span(event))
                continue
            else:  # stream start/end, document end
                continue
            if not stack:
                result = value
                continue
            # The common cases of _add inline (a value under a key already read, an item):
            # a call per event is a tenth of the loader's time.
            parent = stack[-1]
            if parent.has_key and not parent.skip:
                parent.size += size
                mapping: YMap = parent.value  # type: ignore[assignment]  # has_key: a map
                mapping[parent.key] = value
                mapping.key_spans[parent.key] = parent.key_span  # type: ignore[assignment]
                mapping.value_spans[parent.key] = span
                parent.has_key = False
            elif type(parent.value) is YList:
                parent.size += size
                parent.value.append(value)
                parent.value.item_spans.append(span)
            else:
                self._add(parent, value, size, span)
        return result

    def _add(self, parent: _Open, value: Any, size: int, span: Span) -> None:
        parent.size += size
        if isinstance(parent.value, YList):
            parent.value.append(value)
            parent.value.item_spans.append(span)
            return
        if not parent.has_key:
            parent.has_key, parent.key_span, parent.skip = True, span, False
            if not isinstance(value, str):
                kind = type(value).__name__ if value is not None else "null"
                self._report("TC009", f"mapping keys must be strings, not {kind}; quote the key",
                             span)
                parent.skip = True
            elif value in parent.value:
                first = parent.value.key_spans[value]
                self._report("TC006", f"duplicate key '{value}' (first given on line {first.line})",
                             span, related=(Related(first, f"'{value}' first given here"),))
                parent.skip = True
            parent.key = value
            return
        mapping = parent.value
        if not parent.skip:
            mapping[parent.key] = value
            assert parent.key_span is not None
            mapping.key_spans[parent.key] = parent.key_span
            mapping.value_spans[parent.key] = span
        parent.has_key = False

    def _check_tag(self, event: Any, kind: str) -> None:
        tag = event.tag
        if tag is None or tag == "!" or getattr(event, "implicit", False) is True:
            return
        if tag not in _ALLOWED_TAGS or (kind in ("map", "seq") and not tag.endswith(kind)):
            fail("TC007", f"tag {tag!r} is not allowed: specs are plain data",
                 self._span(event, len(tag)))

    def _tagged(self, event: Any) -> Any:
        """A scalar with an explicit tag: only the core schema's own tags are allowed."""
        text = event.value
        if event.tag == "!":  # the non-specific tag: a quoted-style string
            return text
        self._check_tag(event, "scalar")
        kind = event.tag[len(_CORE):]
        if kind in ("map", "seq"):
            fail("TC007", f"tag !!{kind} does not fit a scalar", self._span(event))
        if kind == "str":
            return text
        value = resolve_plain(text) if text else None
        expected: dict[str, tuple[type, ...]] = {
            "int": (int,), "float": (int, float), "bool": (bool,), "null": (type(None),)}
        if not isinstance(value, expected[kind]) or (kind == "int" and isinstance(value, bool)):
            fail("TC007", f"{text!r} is not a valid !!{kind}", self._span(event))
        if kind != "float":
            return value
        try:
            return float(value)  # type: ignore[arg-type]
        except OverflowError:
            raise NumberTooLarge(f"{short(text)} is beyond the range of a float") from None


def spans_at(data: Any, path: tuple[Any, ...]) -> tuple[Span | None, Span | None]:
    """The (key span, value span) of the node at ``path``; the nearest ancestor's if absent."""
    key_span: Span | None = getattr(data, "span", None)
    value_span: Span | None = key_span
    node = data
    for part in path:
        if isinstance(node, YMap) and isinstance(part, str) and part in node:
            key_span, value_span = node.key_spans[part], node.value_spans[part]
            node = node[part]
        elif isinstance(node, YList) and isinstance(part, int) and 0 <= part < len(node):
            key_span = value_span = node.item_spans[part]
            node = node[part]
        else:
            break
    return key_span, value_span


__all__ = ["LoadedFile", "SpecError", "YList", "YMap", "load_bytes", "load_file", "load_text",
           "read_bytes", "spans_at"]
