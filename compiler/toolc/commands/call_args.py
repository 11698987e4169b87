"""``toolc call``'s arguments: ``--args JSON`` and ``key=value`` words, typed by the
tool's published input schema.

A ``key=value`` word is typed by what the schema says ``key`` is, as a client that read
the tools/list would type it: ``lines=5`` is the integer 5 where ``lines`` is an
integer, ``name=5`` the string "5" where ``name`` is a string, ``excited=true`` a
boolean. An array, an object or a JSON null is written as JSON, ``key:=JSON`` (httpie's
spelling). Words override what ``--args`` gives. A word this module cannot type is a
usage error (exit 2), said in words that name the fix.

The arguments are then checked against the tool's input schema as the server listed it
(the published one, the golden file's) by the runtime's validator of record, the very
check the served tool makes: arguments it refuses are a usage error too, each problem
at its JSON pointer, and the tool is not called. The server checks them again as it
does for every client (and asserts ``format`` where a tool asks for that, which a
listed schema does not tell), so its word stays the last.
"""

from __future__ import annotations

import difflib
import json
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..report.escaping import bounded, escape_controls
from ..runtime.json_pointers import MISSING, resolve_pointer
from ..runtime.validation import MAX_PROBLEMS, Validator, ValidatorBroken

# How deep $ref chains and anyOf branches are followed (a published schema is the
# build's, but a module target's may be anything: a cycle must end).
MAX_DEPTH = 32
_INTEGER = re.compile(r"[-+]?[0-9]+")
_JSON_TYPES = {bool: "boolean", int: "integer", float: "number", str: "string",
               type(None): "null", list: "array", dict: "object"}
# The order a word is tried in, when the schema allows several kinds.
_SCALAR_ORDER = ("integer", "number", "boolean", "string")
_JSON_ONLY = ("array", "object", "null")  # never typed from a word: key:=JSON


class ArgumentError(Exception):
    """Arguments that cannot be sent (exit 2); the message says what to write instead."""


def parse_args_json(text: str | None) -> dict[str, Any]:
    """``--args``: a JSON object, or nothing."""
    if text is None:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ArgumentError(f"--args is not JSON: {exc.msg} (line {exc.lineno}, column "
                            f"{exc.colno})") from None
    if not isinstance(value, dict):
        raise ArgumentError(f"--args must be a JSON object of arguments, not {_kind(value)}")
    return value


def build_arguments(base: Mapping[str, Any], words: Sequence[str], tool: str,
                    schema: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` (from ``--args``) with each ``key=value`` / ``key:=JSON`` word typed by
    ``schema`` (the tool's published input schema) over it."""
    arguments = dict(base)
    for word in words:
        key, value = _word(word, tool, schema)
        arguments[key] = value
    return arguments


def check_arguments(tool: str, arguments: Mapping[str, Any],
                    schema: Mapping[str, Any]) -> None:
    """An ArgumentError listing each problem the published input ``schema`` finds in
    ``arguments`` at its JSON pointer; nothing when they are valid, or when the schema
    cannot be compiled (the server says that, as the internal error it is)."""
    try:
        problems = Validator(schema).located(dict(arguments))
    except ValidatorBroken:
        return
    if not problems:
        return
    lines = [f"  {_shown(at) if at else '(arguments)'}: {_indented(said)}"
             for at, said in problems[:MAX_PROBLEMS]]
    if len(problems) > MAX_PROBLEMS:
        lines.append(f"  ... and {len(problems) - MAX_PROBLEMS} more")
    raise ArgumentError(f"the arguments do not match {_shown(tool)}'s published input "
                        "schema, so it was not called:\n" + "\n".join(lines))


def _indented(message: str) -> str:
    """A validator message for the terminal: inert, its further lines indented."""
    return "\n  ".join(escape_controls(line) for line in message.split("\n"))


def _word(word: str, tool: str, schema: Mapping[str, Any]) -> tuple[str, Any]:
    key, equals, text = word.partition("=")
    if not equals or not key.rstrip(":"):
        raise ArgumentError(f"{_quoted(word)} is not key=value (or key:=JSON for an array, "
                            "an object or null)")
    if key.endswith(":"):
        key = key[:-1]
        try:
            return key, json.loads(text)
        except json.JSONDecodeError as exc:
            raise ArgumentError(f"{_shown(key)}:= takes JSON, and {_quoted(text)} is not: "
                                f"{exc.msg} (column {exc.colno})") from None
    return key, type_word(key, text, _property(key, tool, schema), schema)


def _property(key: str, tool: str, schema: Mapping[str, Any]) -> Any:
    """The schema of argument ``key``: its property's, else ``additionalProperties``'
    (``True``, any value, when neither says); unknown to a closed schema: an error."""
    properties = schema.get("properties")
    properties = properties if isinstance(properties, dict) else {}
    if key in properties:
        return properties[key]
    extra = schema.get("additionalProperties", True)
    if extra is not False:
        return extra
    known = sorted(str(k) for k in properties)
    close = difflib.get_close_matches(key, known, n=1)
    hint = f" (did you mean {_quoted(close[0])}?)" if close else ""
    listed = f"; its arguments: {', '.join(_shown(k) for k in known)}" if known else \
        "; it takes no arguments"
    raise ArgumentError(f"{_shown(tool)} has no argument {_quoted(key)}{hint}{listed}")


def type_word(key: str, text: str, schema: Any, root: Mapping[str, Any]) -> Any:
    """``text`` as the JSON value ``schema`` asks for (the first kind it can be, in the
    order integer, number, boolean, string); anything, when the schema does not say."""
    kinds = schema_kinds(schema, root)
    if kinds is None:
        return text
    for kind in _SCALAR_ORDER:
        if kind in kinds:
            value = _as(kind, text)
            if value is not MISSING:
                return value
    wanted = " or ".join(k for k in (*_SCALAR_ORDER, *_JSON_ONLY) if k in kinds)
    fix = f"; write it as JSON: {_shown(key)}:=JSON" if kinds & set(_JSON_ONLY) else ""
    raise ArgumentError(f"{_shown(key)}={_quoted(text)}: {_quoted(key)} is "
                        f"{_article(wanted)}, and {_quoted(text)} is not one{fix}")


def _as(kind: str, text: str) -> Any:
    """``text`` as a value of JSON type ``kind``, or MISSING."""
    if kind == "string":
        return text
    if kind == "boolean":
        return {"true": True, "false": False}.get(text, MISSING)
    if _INTEGER.fullmatch(text):
        return int(text)
    if kind == "number":
        try:
            number = float(text)
        except ValueError:
            return MISSING
        return number if math.isfinite(number) else MISSING
    return MISSING


def schema_kinds(schema: Any, root: Mapping[str, Any], depth: int = 0) -> set[str] | None:
    """The JSON types a value of ``schema`` may have, or None: any (or not said).

    As :mod:`toolc.schema_typing` reads a schema: ``type`` decides; without it,
    ``enum``/``const`` (their values' types), ``anyOf``/``oneOf`` (the union of the
    branches) and ``$ref`` (the schema it names, in the same document)."""
    if not isinstance(schema, dict) or depth > MAX_DEPTH:
        return None
    declared = schema.get("type")
    if isinstance(declared, str):
        return {declared}
    if isinstance(declared, list) and all(isinstance(t, str) for t in declared):
        return set(declared)
    values = [schema["const"]] if "const" in schema else schema.get("enum")
    if isinstance(values, list) and values:
        return {_JSON_TYPES.get(type(v), "object") for v in values}
    for union in ("anyOf", "oneOf"):
        branches = schema.get(union)
        if isinstance(branches, list) and branches:
            kinds: set[str] = set()
            for branch in branches:
                found = schema_kinds(branch, root, depth + 1)
                if found is None:
                    return None
                kinds |= found
            return kinds
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#"):
        target = resolve_pointer(root, ref[1:])
        return None if target is MISSING else schema_kinds(target, root, depth + 1)
    return None


def _kind(value: Any) -> str:
    return _article(_JSON_TYPES.get(type(value), "value"))


def _article(kind: str) -> str:
    return ("an " if kind[:1] in "aeiou" else "a ") + kind


def _shown(text: str) -> str:
    """A word of the command line (or the schema's) as an error message may quote it."""
    return escape_controls(bounded(text, 80))


def _quoted(text: str) -> str:
    return f"'{_shown(text)}'"
