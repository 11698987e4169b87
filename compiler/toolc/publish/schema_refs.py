"""``$ref`` as toolc publishes it: every published schema resolves on its own, offline.

A spec's schema is written into a bigger published document (a parameter sits at
``#/properties/<name>`` of the tool's ``inputSchema``, a named type wherever it is used),
so a reference is rewritten for where its schema lands:

- ``#`` and ``#/<pointer>`` name the schema document they are written in (a parameter,
  ``returns``, a named type): they become pointers into the published document;
- ``#<anchor>`` and everything below a subschema with its own ``$id`` resolve against
  that resource wherever it lands: left as written;
- a relative reference (``common.yaml#/$defs/Point``) names a local ``.json``/``.yaml``
  file, relative to the file it is written in and inside the project: the file is
  embedded in the published document's ``$defs`` (under its project-relative path) and
  the reference points there;
- anything else (``https://...``, ``urn:...``) is a URL: never fetched, refused unless a
  subschema of the published document carries it as its ``$id``.

This module holds the rules; the writer (:mod:`toolc.publish.writer`) says where each
schema document lands (:class:`Scope`) and hands every reference to the :class:`RefLog`
of the published document, which inlines the local files :mod:`.schema_files` reads.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from ..diagnostics import Span
from ..model.keywords import ANNOTATIONS
from .json_documents import (
    declared_ids,
    first_token,
    fragment,
    has_scheme,
    lookup,
    pointer_token,
    resolve_uri,
)
from .schema_files import LocalFiles

if TYPE_CHECKING:
    from ..model.parse import ParsedModule

JSON = Any


@dataclass(frozen=True, slots=True)
class RefProblem:
    """A reference that cannot be published so that it resolves: rule, why, where."""

    code: str
    message: str
    span: Span


@dataclass(frozen=True, slots=True)
class Scope:
    """The schema document a ``#`` names, as it lands in the published one: its pointer
    (and the pointer of its keywords, inside ``anyOf/0`` when nullable wraps it), the
    module whose file relative references start from; ``resource`` below an ``$id``."""

    ptr: str
    inner: str
    module: ParsedModule | None
    resource: bool = False
    base_uri: str = ""  # below an `$id`: what its references are relative to


@dataclass(slots=True)
class RefLog:
    """The references of one published document: rewritten as they are written, then
    checked against the finished document (:meth:`check`)."""

    pointer_refs: list[tuple[str, str, Span]] = field(default_factory=list)  # (new, old, at)
    # (as written, the resource it names, at)
    absolute_refs: list[tuple[str, str, Span]] = field(default_factory=list)
    files: dict[str, JSON] = field(default_factory=dict)  # embedded: $defs key -> schema
    problems: list[RefProblem] = field(default_factory=list)
    references: dict[str, Span] = field(default_factory=dict)  # published -> where written
    # (resource, keyword, name) -> where each declaration of it is written
    anchors: dict[tuple[str, str, str], list[Span]] = field(default_factory=dict)

    def anchor(self, key: str, name: str, span: Span, scope: Scope | None) -> None:
        """An ``$anchor``/``$dynamicAnchor`` written in the resource ``scope`` is part of."""
        resource = scope.base_uri if scope is not None else ""
        self.anchors.setdefault((resource, key, name), []).append(span)

    def rewrite(self, value: str, span: Span, scope: Scope | None, files: LocalFiles) -> str:
        """``value`` as it must be published to resolve where ``scope`` lands."""
        new = self._rewritten(value, span, scope, files)
        self.references[new] = span
        return new

    def _rewritten(self, value: str, span: Span, scope: Scope | None,
                   files: LocalFiles) -> str:
        base, _, frag = value.partition("#")
        if scope is not None and scope.resource:
            if base:  # it must name a resource of the document, whatever its base
                self.absolute_refs.append((value, resolve_uri(scope.base_uri, base), span))
            return value
        if scope is None:
            return value
        if not base:
            if frag and not frag.startswith("/"):
                return value  # an anchor names itself wherever it lands
            at = scope.ptr if not frag or first_token(frag) in ANNOTATIONS else scope.inner
            new = fragment(at + unquote(frag))  # one encoding, whatever was written
            self.pointer_refs.append((new, value, span))
            return new
        if has_scheme(base):
            self.absolute_refs.append((value, base, span))
            return value
        source = scope.module.file.origin if scope.module is not None else None
        return self._file_reference(value, base, frag, span, source, files)

    def _file_reference(self, value: str, base: str, frag: str, span: Span,
                        source: str | None, files: LocalFiles) -> str:
        """A reference to a local schema file: embedded in the document's ``$defs``."""
        found = files.find(base, source)
        if isinstance(found, str):
            self.problems.append(RefProblem("TC211", f"`$ref` '{value}' cannot be inlined: "
                                            f"{found}", span))
            return value
        todo, seen = [found], set()
        while todo:
            path = todo.pop()
            if path in seen:
                continue
            seen.add(path)
            embedded = files.embed(path)
            if isinstance(embedded, str):
                self.problems.append(RefProblem("TC211", f"`$ref` '{value}' cannot be "
                                                f"inlined: {embedded}", span))
                return value
            for problem in embedded.problems:
                code = "TC210" if "a URL" in problem else "TC211"
                self.problems.append(RefProblem(code, f"`$ref` '{value}': {problem}", span))
            self.files[embedded.key] = embedded.schema
            if source is not None:
                files.used.setdefault(source, set()).add(files.key(path))
            todo.extend(embedded.needs)
        if frag and not frag.startswith("/"):
            return "#" + frag
        new = fragment(f"/$defs/{pointer_token(files.key(found))}" + unquote(frag))
        self.pointer_refs.append((new, value, span))
        return new

    def check(self, schema: JSON) -> None:
        """Every reference points into the finished document (TC211/TC212, TC210), and
        no anchor is declared twice in one resource (TC215)."""
        for (_, key, name), spans in self.anchors.items():
            if len(set(spans)) > 1:  # one named type written twice is one declaration
                first = min(spans)
                for span in sorted(set(spans))[1:]:
                    self.problems.append(RefProblem(
                        "TC215", f"`{key}: {name}` is declared again here, and the published "
                        f"schema is one document: '#{name}' would name either (first at "
                        f"{first.line}:{first.col})", span))
        for new, old, span in self.pointer_refs:
            if not lookup(schema, new[1:])[0]:
                self.problems.append(_dangling(new, old, span))
        if self.absolute_refs:
            ids = declared_ids(schema)
            for value, uri, span in self.absolute_refs:
                if uri not in ids:
                    shown = "" if uri == value.partition("#")[0] else f" ({uri})"
                    self.problems.append(RefProblem(
                        "TC210", f"`$ref` '{value}'{shown} names a URL outside the published "
                        "schema, which toolc never fetches", span))


def _dangling(new: str, old: str, span: Span) -> RefProblem:
    file, _, frag = old.partition("#")
    if file:
        return RefProblem("TC211", f"`$ref` '{old}': {file} has nothing at '{frag}'", span)
    where = "" if new == old else f" (published as '{new}')"
    return RefProblem("TC212", f"`$ref` '{old}' does not resolve in the published "
                      f"schema{where}: nothing is there", span)

