"""Pydantic's validation errors, told as located diagnostics a person can act on.

Each error's ``loc`` is walked twice in step: through the loaded YAML (to find the span
of the offending key or value) and through the model's type annotations (to find what
was expected there, the keys that would have been known, and the union tags pydantic
inserts into ``loc`` but the YAML does not have).
"""

from __future__ import annotations

import dataclasses
import difflib
import types
import typing
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from ..diagnostics import RULES, Diagnostic, Fix, Span
from ..loader import YList, YMap
from .base import Expect
from .hints import TOOL, TOOLSET, TOP, comma_split, entry_note, hint_fixes, unknown_key_note
from .suggestions import describe_value, did_you_mean, near_miss, reset_suggestions, suggest

YAML_BOOL_NOTE = ("YAML 1.2 reads only true and false as booleans; "
                  "yes, no, on and off are strings")


def describe_path(path: Sequence[Any], pinned: bool = False) -> str:
    """Name the place ``path`` (in the loaded YAML) points at, the way a reader would;
    ``pinned``: the toolset's ``tools`` are an ``mcp`` set's pinned tools."""
    if not path:
        return "the spec"
    if len(path) == 2 and path[0] == "tools":
        return f"tool '{path[1]}'"
    if len(path) == 2 and path[0] == "toolsets":
        return f"toolset '{path[1]}'"
    if len(path) == 2 and path[0] == "types":
        return f"type '{path[1]}'"
    if len(path) == 4 and path[0] == "toolsets" and path[2] == "tools":
        return f"{'pinned' if pinned else 'external'} tool '{path[3]}' of toolset '{path[1]}'"
    last = path[-1]
    if isinstance(last, int):
        return f"item {last + 1} of {describe_path(path[:-1], pinned)}"
    return f"`{last}` of {describe_path(path[:-1], pinned)}" if len(path) > 1 else f"`{last}`"


@dataclass(slots=True)
class _Step:
    container: Any  # the YMap/YList the step goes into (None when the YAML lacks it)
    key: Any


@dataclass(slots=True)
class _Cursor:
    """Where an error's ``loc`` leads, in the YAML and in the model's types."""

    steps: list[_Step] = field(default_factory=list)
    root: Any = None
    node: Any = None
    found: bool = True
    tp: Any = None
    parent_tp: Any = None
    expect: str | None = None

    @property
    def path(self) -> tuple[Any, ...]:
        return tuple(s.key for s in self.steps)


def _unwrap(tp: Any) -> tuple[Any, list[Any]]:
    """Strip ``Annotated`` and ``X | None``; keep the metadata found on the way."""
    meta: list[Any] = []
    while True:
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            args = typing.get_args(tp)
            meta.extend(args[1:])
            tp = args[0]
        elif origin in (typing.Union, types.UnionType):
            members = [a for a in typing.get_args(tp) if a is not type(None)]
            if len(members) != 1:
                return tp, meta
            tp = members[0]
        else:
            return tp, meta


def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, BaseModel)


def _union_member(tp: Any, tag: Any) -> Any:
    for member in typing.get_args(tp):
        kind = getattr(member, "model_fields", {}).get("kind")
        if kind is not None and tag in typing.get_args(kind.annotation):
            return member
    return None


def _child(node: Any, part: Any) -> tuple[Any, bool]:
    """The child ``part`` of a loaded mapping or list, and whether it is there."""
    if isinstance(node, YMap) and isinstance(part, str) and part in node:
        return node[part], True
    if isinstance(node, YList) and isinstance(part, int) and 0 <= part < len(node):
        return node[part], True
    return None, False


def _locate(root: Any, root_tp: Any, loc: Sequence[Any]) -> _Cursor:
    cur = _Cursor(root=root, node=root)
    tp, _ = _unwrap(root_tp)
    for part in loc:
        cur.parent_tp = tp
        meta: list[Any] = []
        if typing.get_origin(tp) in (typing.Union, types.UnionType):
            member = _union_member(tp, part)
            if member is not None:  # a discriminated union's tag: not in the YAML
                tp = member
                continue
        if _is_model(tp):
            info = tp.model_fields.get(part)
            tp, meta = _unwrap(info.annotation) if info else (Any, [])
            if info:
                meta = list(info.metadata) + meta
        elif typing.get_origin(tp) in (dict, list):
            args = typing.get_args(tp)
            tp, meta = _unwrap(args[-1] if args else Any)
        else:
            tp = Any
        cur.tp = tp
        cur.expect = next((m.text for m in meta if isinstance(m, Expect)), None)
        node = cur.node if cur.found else None
        cur.steps.append(_Step(node if isinstance(node, (YMap, YList)) else None, part))
        cur.node, cur.found = _child(node, part)
    return cur


def _step_spans(step: _Step) -> tuple[Span, Span] | None:
    c, k = step.container, step.key
    if isinstance(c, YMap) and k in c:
        return c.key_spans[k], c.value_spans[k]
    if isinstance(c, YList) and isinstance(k, int) and 0 <= k < len(c):
        return c.item_spans[k], c.item_spans[k]
    return None


def _top(path: str) -> Span:
    return Span(path, 1, 1)


def _key_span(cur: _Cursor, upto: int, path: str) -> Span:
    """The key span of the node ``upto`` steps deep, or of its nearest known ancestor."""
    for step in reversed(cur.steps[:upto]):
        spans = _step_spans(step)
        if spans:
            return spans[0]
    return _top(path)


def _value_span(cur: _Cursor, path: str) -> Span:
    for step in reversed(cur.steps):
        spans = _step_spans(step)
        if spans:
            return spans[1]
    return _top(path)


def _expected_from_type(tp: Any) -> str:
    origin = typing.get_origin(tp)
    if tp is str:
        return "a string"
    if tp is bool:
        return "true or false"
    if tp is int:
        return "an integer"
    if tp is float:
        return "a number"
    if origin is dict or _is_model(tp):
        return "a mapping"
    if origin is list:
        return "a list"
    if origin is typing.Literal:
        return "one of " + ", ".join(repr(a) for a in typing.get_args(tp))
    if origin in (typing.Union, types.UnionType) and all(
            _is_model(a) for a in typing.get_args(tp)):
        return "a mapping"
    return "a different value"


def _known_keys(tp: Any) -> list[str]:
    return list(tp.model_fields) if _is_model(tp) else []


def _label(path: tuple[Any, ...], root: Any = None) -> str:
    return describe_path(path, _pinned(path, root))


def _pinned(path: tuple[Any, ...], root: Any) -> bool:
    """Whether ``path`` goes into the ``tools`` of an ``mcp`` toolset (pinned tools)."""
    if len(path) < 4 or path[0] != "toolsets" or path[2] != "tools":
        return False
    toolsets = root.get("toolsets") if isinstance(root, YMap) else None
    node = toolsets.get(path[1]) if isinstance(toolsets, YMap) else None
    return isinstance(node, YMap) and node.get("kind") == "mcp"


def _diag(code: str, message: str, span: Span, notes: tuple[str, ...] = (),
          fixes: tuple[Fix, ...] = ()) -> Diagnostic:
    return Diagnostic(code, RULES[code].severity, message, span, notes, fixes)


def _missing(cur: _Cursor, path: str) -> Diagnostic:
    name = cur.steps[-1].key
    parent = cur.path[:-1]
    span = _key_span(cur, len(cur.steps) - 1, path) if parent else _top(path)
    if name == "toolc" and not parent:
        return _diag("TC104", "the spec has no `toolc: 1`; every spec starts with the "
                     "format version", span)
    return _diag("TC102", f"{_label(parent, cur.root)} has no `{name}`", span)


_LEVELS = {"tools": TOOL, "toolsets": TOOLSET}


def _unknown_key(cur: _Cursor, path: str, text: str) -> Diagnostic | None:
    key = cur.steps[-1].key
    container = cur.steps[-1].container
    split = comma_split(container, key, text) if isinstance(container, YMap) else None
    if split is not None:  # the pieces after the first are said with it
        return _diag("TC101", split.message(), split.comma, split.notes(), split.fixes()) \
            if split.first else None
    known = _known_keys(cur.parent_tp)
    span = _key_span(cur, len(cur.steps), path)
    hint, fixes = suggest(key, known, span)
    where = cur.path[:-1]
    level = TOP if not where else _LEVELS.get(where[0]) if len(where) == 2 else None
    note = unknown_key_note(level, key, cur.node) if level is not None else None
    notes = (note,) if note else () if hint or not known else \
        (f"known keys: {', '.join(known)}",)
    message = f"unknown key '{key}' in {_label(where, cur.root)}{hint}"
    return _diag("TC101", message, span, notes, fixes or hint_fixes(level, key, span))


def _kinds(err: Any) -> list[str]:
    tags = str(err.get("ctx", {}).get("expected_tags", ""))
    return [t.strip().strip("'") for t in tags.split(",") if t.strip()]


def _bad_kind(cur: _Cursor, err: Any, path: str) -> Diagnostic:
    node = cur.node
    kind = node.get("kind") if isinstance(node, YMap) else None
    span = node.value_spans["kind"] if isinstance(node, YMap) and "kind" in node else \
        _value_span(cur, path)
    kinds = _kinds(err)
    notes = (f"kinds: {', '.join(kinds)}",)
    if not isinstance(kind, str):
        return _diag("TC103", f"`kind` must name a toolset kind, got {describe_value(kind)}",
                     span, notes)
    hint, fixes = suggest(kind, kinds, span)
    return _diag("TC103", f"unknown toolset kind '{kind}'{hint}", span, () if hint else notes,
                 fixes)


def _no_kind(cur: _Cursor, path: str) -> Diagnostic:
    # lazy: 20 more toolc module(s), only when this runs
    from .toolsets import KINDS

    span = _key_span(cur, len(cur.steps), path)
    return _diag("TC102", f"{_label(cur.path, cur.root)} has no `kind`", span,
                 (f"kinds: {', '.join(KINDS)}",))


def _wrong_value(cur: _Cursor, err: Any, path: str) -> Diagnostic:
    span = _value_span(cur, path)
    value = err.get("input")
    where = cur.path
    if where == ("toolc",):
        return _diag("TC104", f"`toolc` must be the integer 1, got {describe_value(value)}",
                     span)
    kind, ctx = err["type"], err.get("ctx", {})
    label = _label(where, cur.root)
    if kind == "literal_error":
        options = [a for a in typing.get_args(cur.tp) if isinstance(a, str)]
        hint, fixes = suggest(value, options, span)
        listed = ", ".join(repr(o) for o in options)
        return _diag("TC103", f"{label} must be one of {listed}, got "
                     f"{describe_value(value)}{hint}", span, fixes=fixes)
    if kind == "too_short":
        return _diag("TC103", f"{label} must not be empty", span)
    if kind in ("greater_than_equal", "greater_than"):
        bound = ctx.get("ge", ctx.get("gt"))
        return _diag("TC103", f"{label} must be at least {bound}, got "
                     f"{describe_value(value)}", span)
    if kind.endswith(("_type", "_parsing")) or kind == "int_from_float":
        expected = cur.expect or _expected_from_type(cur.tp)
        notes = ((YAML_BOOL_NOTE,) if cur.tp is bool and isinstance(value, str)
                 and value.lower() in ("yes", "no", "on", "off", "y", "n") else ())
        return _diag("TC103", f"{label}: expected {expected}, got {describe_value(value)}",
                     span, notes)
    return _diag("TC103", f"{label}: {err.get('msg', 'invalid value')}", span)


def diagnostics_from(exc: ValidationError, root: Any, root_tp: Any, path: str,
                     text: str = "") -> list[Diagnostic]:
    """Turn every error of ``exc`` (raised validating ``root`` as ``root_tp``) into a diagnostic.

    ``path`` names the file, for spans that fall back to its first line; ``text`` is
    the file's text (what a hint quotes).
    """
    errors = exc.errors(include_url=False)
    located = [(err, _locate(root, root_tp, err["loc"])) for err in errors]
    explained = _explained_by_misspelling(located)
    out: list[Diagnostic] = []
    for err, cur in located:
        kind = err["type"]
        if kind == "missing":
            if (id(cur.steps[-1].container), cur.steps[-1].key) in explained:
                continue  # "unknown key 'prefx'; did you mean 'prefix'?" already says it
            out.append(_missing(cur, path))
        elif kind == "extra_forbidden":
            unknown = _unknown_key(cur, path, text)
            if unknown is not None:
                out.append(unknown)
        elif kind == "union_tag_invalid":
            out.append(_bad_kind(cur, err, path))
        elif kind == "union_tag_not_found":
            out.append(_no_kind(cur, path))
        else:
            out.append(_with_entry_note(_wrong_value(cur, err, path), cur))
    return out


def _with_entry_note(diagnostic: Diagnostic, cur: _Cursor) -> Diagnostic:
    """A tool or toolset that is not a mapping: a key of the level above or below, when
    its name is one (``tools: {description: ...}``)."""
    where = cur.path
    if len(where) != 2 or where[0] not in _LEVELS or isinstance(cur.node, YMap):
        return diagnostic
    note = entry_note(where[0], where[1])
    return diagnostic if note is None else \
        dataclasses.replace(diagnostic, notes=(*diagnostic.notes, note))


def _explained_by_misspelling(located: list[tuple[Any, _Cursor]]) -> set[tuple[int, str]]:
    """(mapping id, field) for each missing field that a misspelt key of the mapping names."""
    found: set[tuple[int, str]] = set()
    for err, cur in located:
        if err["type"] != "extra_forbidden":
            continue
        close = difflib.get_close_matches(str(cur.steps[-1].key), _known_keys(cur.parent_tp),
                                          n=1, cutoff=0.6)
        if close:
            found.add((id(cur.steps[-1].container), close[0]))
    return found


__all__ = ["YAML_BOOL_NOTE", "describe_path", "describe_value", "diagnostics_from",
           "did_you_mean", "near_miss", "reset_suggestions", "suggest"]
