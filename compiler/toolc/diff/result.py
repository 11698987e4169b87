"""What a schema diff produces: one :class:`Change` per classified difference.

A change is located by a JSON pointer into the published tool (the golden file's
content), e.g. ``/inputSchema/properties/level``. Where one keyword changed, the
pointer names that keyword (``.../level/description``); where a whole property, branch
or tool appeared or went away, it names that property, branch or tool. ``old`` and
``new`` are the JSON values at the pointer before and after (``None`` when absent).

What the diff compares is a :class:`ToolSet` (tool key -> published tool, with the file
and text each came from); ``sources.py`` reads one from a folder or a git commit.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any, Literal

from ..diagnostics import Diagnostic, Severity

Json = Any
"""A JSON value as :func:`json.loads` returns it."""

SchemaKind = Literal["input", "output", "tool"]


@dataclass(slots=True)
class SchemaDiff:
    """Classified changes between two sets of golden files, and where each tool lives:
    what a build (or ``toolc diff``) hands on to be rendered."""

    changes: list[Change]
    old: ToolSet
    new: ToolSet
    # Compared with a base (toolc.diff.gate): the pull request's changes to the gate's
    # rules, and the one line saying when the base had no rules to read.
    policy: list[Change] | None = None   # None: no base (two folders, say)
    note: str | None = None
    fail_on: str | None = None           # the base's threshold, when there is one
    # Said beside the changes in every format: acceptances that matched nothing.
    warnings: list[str] = field(default_factory=list)
    # Spec problems only the comparison finds (a `renamed_from` naming no tool of the
    # base): the build reports them with its diagnostics, `toolc diff` on stderr.
    problems: list[Diagnostic] = field(default_factory=list)

    def findings(self) -> list[Change]:
        """What the gate judges: the changes to its rules first, then the tools'."""
        return [*(self.policy or ()), *self.changes]


class DiffInputError(Exception):
    """The diff cannot run: an unreadable tool file, an unknown git ref, a bad policy."""


@dataclass(frozen=True, slots=True)
class SpecPlace:
    """A line of a spec file (its path as diagnostics show it), and what it is there."""

    path: str
    line: int
    col: int
    note: str | None = None  # "removed", "prefix 'desk_' of toolset 'public'", ...

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}:{self.col}"
        return f"{where} ({self.note})" if self.note else where

    def to_json(self) -> dict[str, Json]:
        return {"path": self.path, "line": self.line, "col": self.col, "note": self.note}


@dataclass(frozen=True, slots=True)
class Change:
    """One classified difference between two published versions of a tool."""

    tool: str  # its key: ``<folder>/<name>`` (``workbench/readLog``), or the name at the top
    pointer: str
    rule: str
    severity: Severity
    message: str
    old: Json = None
    new: Json = None
    schema: SchemaKind = "tool"
    accepted: bool = False
    reason: str | None = None
    # Where the spec writes what changed, when the new side is a fresh build
    # (toolc.diff.places); None when folders of golden files are compared.
    spec: SpecPlace | None = None
    # The other tools the same change is in (toolc.diff.rows): a tool that several modules
    # export changes in each module's folder alike, and is one row naming every key.
    also: tuple[str, ...] = ()

    @property
    def tools(self) -> tuple[str, ...]:
        """Every tool's key the change is in, ``tool`` first."""
        return (self.tool, *self.also)

    def sort_key(self) -> tuple[str, tuple[tuple[int, int, str], ...], str]:
        """By tool, then pointer (token by token, array indexes numerically), then rule."""
        return (self.tool, pointer_sort_key(self.pointer), self.rule)

    def to_json(self) -> dict[str, Json]:
        """The documented JSON row (see docs/diff.md); the renderer adds its ``files``."""
        return {
            "tool": self.tool,
            "pointer": self.pointer,
            "rule": self.rule,
            "severity": str(self.severity),
            "message": self.message,
            "old": self.old,
            "new": self.new,
            "accepted": self.accepted,
            "reason": self.reason,
            "spec": None if self.spec is None else self.spec.to_json(),
            "tools": list(self.tools),
        }


def escape_token(token: str) -> str:
    """RFC 6901: ``~`` becomes ``~0`` and ``/`` becomes ``~1``."""
    return token.replace("~", "~0").replace("/", "~1")


def unescape_token(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def pointer_of(parts: tuple[str, ...]) -> str:
    return "".join("/" + escape_token(p) for p in parts)


def parts_of(pointer: str) -> tuple[str, ...]:
    if not pointer:
        return ()
    return tuple(unescape_token(t) for t in pointer.split("/")[1:])


def pointer_sort_key(pointer: str) -> tuple[tuple[int, int, str], ...]:
    # Array indexes sort as numbers, so anyOf/10 comes after anyOf/2; they are ASCII
    # digits (a property named "²" is a digit to str.isdigit, not to int).
    return tuple((0, int(t), "") if t.isascii() and t.isdigit() else (1, 0, t)
                 for t in parts_of(pointer))


def schema_kind(parts: tuple[str, ...]) -> SchemaKind:
    if parts and parts[0] == "inputSchema":
        return "input"
    if parts and parts[0] == "outputSchema":
        return "output"
    return "tool"


@dataclass(frozen=True, slots=True)
class At:
    """Where the walk is: the tool's key, and the path inside its published JSON."""

    tool: str
    parts: tuple[str, ...] = ()

    def child(self, *parts: str | int) -> At:
        return At(self.tool, self.parts + tuple(str(p) for p in parts))

    @property
    def pointer(self) -> str:
        return pointer_of(self.parts)

    @property
    def kind(self) -> SchemaKind:
        return schema_kind(self.parts)

    def describe(self) -> str:
        """A reader's name for this place: ``input property 'filter.level'``, ``output schema``."""
        if self.kind == "tool":
            return f"tool '{self.tool}'"
        path, branch = _readable_path(self.parts[1:])
        if not path:
            where = f"{self.kind} schema"
        elif path.startswith("$defs."):
            where = f"{self.kind} definition '{path[len('$defs.'):]}'"
        else:
            where = f"{self.kind} property '{path}'"
        return f"{where}, {branch}" if branch else where


def _readable_path(parts: tuple[str, ...]) -> tuple[str, str]:
    """``properties/a/items/properties/b`` -> ``a[].b``; a trailing combinator is named apart."""
    path, branch, i = "", "", 0
    while i < len(parts):
        part = parts[i]
        nxt = parts[i + 1] if i + 1 < len(parts) else None
        if part in ("properties", "patternProperties") and nxt is not None:
            path, branch, i = f"{path}.{nxt}" if path else nxt, "", i + 2
        elif part == "$defs" and nxt is not None:
            path, branch, i = f"$defs.{nxt}", "", i + 2
        elif part in ("anyOf", "oneOf", "allOf") and nxt is not None:
            branch, i = f"{part} branch {nxt}", i + 2
        elif part == "prefixItems" and nxt is not None:
            path, branch, i = f"{path}[{nxt}]", "", i + 2
        elif part == "items":
            path, branch, i = f"{path}[]", "", i + 1
        elif part in ("additionalProperties", "unevaluatedProperties"):
            path, branch, i = f"{path}.*" if path else "*", "", i + 1
        else:
            path, branch, i = f"{path}/{part}" if path else part, "", i + 1
    return path, branch


def _normalized(value: Json) -> Json:
    # JSON Schema equality: 1 and 1.0 are the same number; true is not 1.
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _normalized(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_normalized(v) for v in value]
    return value


def canonical(value: Json) -> str:
    """One text per JSON value: key order and 1 vs 1.0 do not matter."""
    return json.dumps(_normalized(value), sort_keys=True, ensure_ascii=False,
                      separators=(",", ":"))


def same(a: Json, b: Json) -> bool:
    return canonical(a) == canonical(b)


def compact(value: Json) -> str:
    """A short one-line JSON rendering for messages."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(", ", ": "))


class ToolSet(dict[str, dict[str, Any]]):
    """Tool key -> published tool; ``paths`` and ``texts`` say where each came from.

    A tool's key is its ``name``, qualified by the folder its file sits in when that is
    not the top (``workbench/wb_readLog`` for ``schemas/workbench/wb_readLog.json``):
    two modules may each export a tool of the same name, and each is served on its own.
    """

    def __init__(self) -> None:
        super().__init__()
        self.paths: dict[str, str] = {}
        self.texts: dict[str, str] = {}
        self._keys: dict[str, str] | None = None  # file -> key, made by ``same``

    @classmethod
    def from_texts(cls, files: Mapping[str, str], label: str = "",
                   known: ToolSet | None = None) -> ToolSet:
        """Tool files not written yet (relative path -> text), e.g. a fresh build's
        golden files; ``label`` prefixes the paths in errors; ``known`` as for ``add``."""
        tools = cls()
        for relative in sorted(files):
            tools.add(relative, files[relative], f"{label}{relative}", known)
        return tools

    def same(self, relative: str, text: str) -> dict[str, Any] | None:
        """The tool of ``relative`` if this set has that file with that very text."""
        if self._keys is None:
            self._keys = {path: key for key, path in self.paths.items()}
        key = self._keys.get(relative)
        return self[key] if key is not None and self.texts[key] == text else None

    def add(self, relative: str, text: str, label: str,
            known: ToolSet | None = None) -> None:
        """Parse one tool file; ``label`` names it in errors (a path, or ``ref:path``).
        ``known``: a set that may have the same file with the same text, whose parsed
        tool is taken (the diff reads tools and never changes one)."""
        tool = known.same(relative, text) if known is not None else None
        if tool is not None:
            self._keep(relative, text, label, tool)
            return
        try:
            tool = json.loads(text, parse_constant=_no_constants)
        except json.JSONDecodeError as exc:
            raise DiffInputError(f"{label}:{exc.lineno}:{exc.colno}: not valid JSON: "
                                 f"{exc.msg}") from None
        except ValueError as exc:
            raise DiffInputError(f"{label}: not valid JSON: {exc}") from None
        except RecursionError:
            raise DiffInputError(f"{label}: nested too deeply to read") from None
        if not isinstance(tool, dict):
            raise DiffInputError(f"{label}: a tool file holds one JSON object, "
                                 f"found {type(tool).__name__}")
        self._keep(relative, text, label, tool)

    def _keep(self, relative: str, text: str, label: str, tool: dict[str, Any]) -> None:
        name = tool.get("name")
        if not isinstance(name, str) or not name:
            raise DiffInputError(f"{label}: no \"name\" field; each tool file names its tool")
        key = tool_key(relative, name)
        if key in self:
            raise DiffInputError(f"{label}: tool {key!r} is already defined by "
                                 f"{self.paths[key]}")
        self[key] = tool
        self.paths[key] = relative
        self.texts[key] = text


def tool_key(relative: str, name: str) -> str:
    """``<folder>/<name>`` for a file in a folder below the top, else ``name`` alone."""
    folder, slash, _ = relative.rpartition("/")
    if slash and ("//" in relative or folder.startswith("./") or "/." in folder):
        folder = PurePosixPath(relative).parent.as_posix()  # written other than normalised
    return name if folder in ("", ".") else f"{folder}/{name}"


def _no_constants(word: str) -> None:
    raise ValueError(f"{word} is not a JSON value")
