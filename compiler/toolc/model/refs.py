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

This module holds the rules, the pointer arithmetic and the local files; the writer
(:mod:`toolc.model.written`) says where each schema document lands (:class:`Scope`) and
hands every reference to the :class:`RefLog` of the published document.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, unquote, urljoin

from ..diagnostics import Severity, Span, SpecError
from ..loader import load_bytes
from ..untrusted import FileRefused, read_untrusted
from .keywords import ANNOTATIONS, KEYWORDS

if TYPE_CHECKING:
    from .parse import ParsedModule

JSON = Any

SCALARS = (str, int, float, bool, type(None))


# Here rather than in written.py (which imports this module): _embed needs it too.
def to_json(value: Any) -> JSON:
    """A loaded value as plain JSON data (dicts and lists, spans dropped)."""
    if isinstance(value, SCALARS):
        return value
    if isinstance(value, dict):
        return {k: v if isinstance(v, SCALARS) else to_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [v if isinstance(v, SCALARS) else to_json(v) for v in value]
    return value


REFERENCES = ("$ref", "$dynamicRef")
ANCHORS = ("$anchor", "$dynamicAnchor")
SCHEMA_FILE_SUFFIXES = (".json", ".yaml", ".yml")
MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_FILE_DEPTH = 200  # as deep as the loader lets a spec nest
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
# What a URI fragment may hold as it is (RFC 3986): the rest is percent-encoded.
_FRAGMENT_SAFE = "/?:@!$&'()*+,;=-._~"


@dataclass(frozen=True, slots=True)
class RefProblem:
    """A reference that cannot be published so that it resolves: rule, why, where."""

    code: str
    message: str
    span: Span


def has_scheme(uri: str) -> bool:
    """Whether ``uri`` is absolute (``https:``, ``urn:``, ``file:``, ...), not relative."""
    return bool(_SCHEME.match(uri))


def pointer_token(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")


def fragment(pointer: str) -> str:
    """A JSON pointer as a URI fragment (``#`` included): percent-encoded where needed."""
    return "#" + quote(pointer, safe=_FRAGMENT_SAFE)


def first_token(frag: str) -> str | None:
    """The first token of a pointer fragment (``/$defs/a`` -> ``$defs``), decoded."""
    if not frag.startswith("/"):
        return None
    return unquote(frag[1:].split("/", 1)[0]).replace("~1", "/").replace("~0", "~")


def lookup(document: JSON, frag: str) -> tuple[bool, JSON]:
    """(found, value) of the pointer fragment ``frag`` (without ``#``) in ``document``."""
    node = document
    if not frag:
        return True, node
    if not frag.startswith("/"):
        return False, None
    for raw in unquote(frag).split("/")[1:]:
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node) and (
                token == "0" or not token.startswith("0")):
            node = node[int(token)]
        else:
            return False, None
    return True, node


def resolve_uri(base: str, reference: str) -> str:
    """``reference`` resolved against ``base`` (a relative ``$id`` or ``$ref``), no fragment."""
    joined = urljoin(base, reference) if base else reference
    return joined.partition("#")[0]


def declared_ids(document: JSON) -> set[str]:
    """Every ``$id`` a published document declares, resolved against the ones above it
    (what a reference may name without leaving the document)."""
    found: set[str] = set()
    stack: list[tuple[JSON, str]] = [(document, "")]
    while stack:
        node, base = stack.pop()
        if isinstance(node, dict):
            own = node.get("$id")
            if isinstance(own, str):
                base = resolve_uri(base, own)
                found.add(base)
            stack.extend((v, base) for v in node.values())
        elif isinstance(node, list):
            stack.extend((v, base) for v in node)
    return found


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


# -- local files ----------------------------------------------------------------------------


@dataclass(slots=True)
class Embedded:
    """A local schema file as it is embedded: its ``$defs`` key and its rewritten schema,
    the other files it needs, and what is wrong in it (URLs it names)."""

    key: str
    schema: JSON
    needs: list[Path] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


class LocalFiles:
    """The local schema files of one build, each read and rewritten once.

    ``root`` confines them (the project); without one, each spec's own folder does.
    """

    def __init__(self, root: Path | None):
        self.root = root.resolve() if root is not None else None
        self.done: dict[Path, Embedded | str] = {}
        self.read: dict[str, str] = {}  # what was read: shown path -> sha256 of its bytes
        self.used: dict[str, set[str]] = {}  # spec file (origin) -> the files it inlines
        self.bounds: dict[Path, Path] = {}  # each file found -> the folder confining it

    def find(self, reference: str, source: str | None, within: Path | None = None
             ) -> Path | str:
        """The file ``reference`` (no fragment) names from ``source``, or why there is none;
        ``within`` confines it when the project does not (a file found from a file)."""
        if source is None:
            return "the spec was not read from a file, so no file is relative to it"
        path_text = unquote(reference)
        if "\\" in path_text or path_text.startswith("/"):
            return f"'{reference}' is not a relative path (write it with '/', from this file)"
        try:
            origin = Path(source).resolve()
            target = (origin.parent / path_text).resolve()
        except (OSError, RuntimeError) as exc:  # a loop of symbolic links, say
            return f"'{reference}' cannot be followed: {exc}"
        bound = self.root or within or origin.parent
        if not target.is_relative_to(bound):
            return f"'{reference}' is outside the project ({bound.name}/); toolc reads " \
                   "schema files only inside it"
        if target.suffix.lower() not in SCHEMA_FILE_SUFFIXES:
            return f"'{reference}' is not a .json or .yaml file"
        if not target.is_file():
            shown = target.relative_to(bound).as_posix()
            return f"'{reference}' does not exist (looked for {shown})"
        self.bounds.setdefault(target, bound)
        return target

    def embed(self, path: Path) -> Embedded | str:
        """The file at ``path`` as embedded, or why it cannot be (cached)."""
        if path not in self.done:
            self.done[path] = self._embed(path)
        return self.done[path]

    def key(self, path: Path) -> str:
        return self._shown(path)

    def _shown(self, path: Path) -> str:
        """The file's path inside what confines it (the project): its ``$defs`` key."""
        bound = self.bounds.get(path, self.root)
        if bound is not None and path.is_relative_to(bound):
            return path.relative_to(bound).as_posix()
        return path.name

    def _embed(self, path: Path) -> Embedded | str:
        shown = self._shown(path)
        try:  # the path is resolved: a link put there since is refused
            raw = read_untrusted(path, MAX_FILE_BYTES)
        except FileRefused as exc:
            return f"{shown} {exc.why}"
        except OSError as exc:
            return f"cannot read {shown}: {exc.strerror or exc}"
        self.read[shown] = hashlib.sha256(raw).hexdigest()
        try:
            if path.suffix.lower() == ".json":
                data = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
            else:
                loaded = load_bytes(raw, shown)
                errors = [d for d in loaded.diagnostics if d.severity is Severity.ERROR]
                if errors:
                    return f"{shown} is not valid YAML: {errors[0].message}"
                data = to_json(loaded.data)
        except SpecError as exc:
            return f"{shown} is not valid YAML: {exc.diagnostics[0].message}"
        except (ValueError, RecursionError) as exc:
            return f"{shown} is not valid JSON: {exc}"
        if not isinstance(data, (dict, bool)):
            return f"{shown} holds no schema (a mapping or true/false)"
        embedded = Embedded(self.key(path), None)
        try:
            embedded.schema = _rewrite_file(data, embedded, path, self)
        except RecursionError:
            return f"{shown} is nested more than {MAX_FILE_DEPTH} levels deep"
        return embedded


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _rewrite_file(node: JSON, embedded: Embedded, path: Path, files: LocalFiles,
                  resource: bool = False, depth: int = 0) -> JSON:
    """A file's schema with its references rewritten for where it is embedded."""
    if not isinstance(node, dict):
        return node
    if depth > MAX_FILE_DEPTH:
        raise RecursionError(depth)
    d = depth + 1
    resource = resource or isinstance(node.get("$id"), str)
    out: dict[str, JSON] = {}
    for key, value in node.items():
        kw = KEYWORDS.get(key)
        if key in REFERENCES and isinstance(value, str) and not resource:
            out[key] = _file_reference(value, embedded, path, files)
        elif kw is None or kw.kind == "value":
            out[key] = value
        elif kw.kind == "schema":
            out[key] = _rewrite_file(value, embedded, path, files, resource, d)
        elif kw.kind == "schema_list" and isinstance(value, list):
            out[key] = [_rewrite_file(v, embedded, path, files, resource, d) for v in value]
        elif isinstance(value, dict):
            out[key] = {k: v if isinstance(v, list) else
                        _rewrite_file(v, embedded, path, files, resource, d)
                        for k, v in value.items()}
        else:
            out[key] = value
    return out


def _file_reference(value: str, embedded: Embedded, path: Path, files: LocalFiles) -> str:
    base, _, frag = value.partition("#")
    if not base:
        if frag and not frag.startswith("/"):
            return value  # an anchor: the embedded file's anchors are the document's
        return fragment(f"/$defs/{pointer_token(embedded.key)}" + unquote(frag))
    if has_scheme(base):
        embedded.problems.append(f"{embedded.key} refers to '{value}', a URL; toolc never "
                                 "fetches one")
        return value
    found = files.find(base, str(path), files.bounds.get(path))
    if isinstance(found, str):
        embedded.problems.append(f"{embedded.key} refers to '{value}': {found}")
        return value
    embedded.needs.append(found)
    if frag and not frag.startswith("/"):
        return "#" + frag
    return fragment(f"/$defs/{pointer_token(files.key(found))}" + unquote(frag))
