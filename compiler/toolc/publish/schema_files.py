"""Local schema files, as a ``$ref`` inlines them: found inside the project, read once,
bounded, their own references rewritten for where they are embedded.

A relative reference (``common.yaml#/$defs/Point``) names a ``.json``/``.yaml`` file,
relative to the file it is written in; the file lands in the published document's
``$defs`` under its project-relative path (the rules are in :mod:`.schema_refs`). Never
a URL: a file that names one says so, and nothing is fetched.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from ..diagnostics import Severity, SpecError
from ..loader import load_bytes
from ..model.keywords import KEYWORDS
from ..untrusted import FileRefused, read_untrusted
from .json_documents import REFERENCES, fragment, has_scheme, pointer_token, to_json

JSON = Any

SCHEMA_FILE_SUFFIXES = (".json", ".yaml", ".yml")
MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_FILE_DEPTH = 200  # as deep as the loader lets a spec nest


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
        if key in REFERENCES and isinstance(value, str) and not resource:
            out[key] = _file_reference(value, embedded, path, files)
        else:
            out[key] = _rewrite_value(key, value, embedded, path, files, resource, d)
    return out


def _rewrite_value(key: str, value: JSON, embedded: Embedded, path: Path, files: LocalFiles,
                   resource: bool, depth: int) -> JSON:
    """A keyword's value in a file's schema: its subschemas rewritten, anything else kept."""
    kw = KEYWORDS.get(key)
    if kw is None or kw.kind == "value":
        return value
    if kw.kind == "schema":
        return _rewrite_file(value, embedded, path, files, resource, depth)
    if kw.kind == "schema_list" and isinstance(value, list):
        return [_rewrite_file(v, embedded, path, files, resource, depth) for v in value]
    if isinstance(value, dict):
        return {k: v if isinstance(v, list) else
                _rewrite_file(v, embedded, path, files, resource, depth)
                for k, v in value.items()}
    return value


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
