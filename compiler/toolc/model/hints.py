"""What a diagnostic adds when the mistake behind it is a common one.

An unknown key or a schema that is not a mapping is often not a typo but one of a few
mistakes a newcomer makes: a ``,`` inside the text of a one-line mapping (``{type:
string, description: Start time, ISO 8601 with offset.}`` makes ``ISO 8601 with
offset.`` a key), a key written one level off (a tool's ``description`` under
``params:``, a schema keyword beside ``params``), or a word of the format used where it
means something else (``approval_required`` is a toolset kind, a tool says
``requires_approval``). Each function here recognises one of them and says what to
write instead; the checks and :mod:`toolc.model.errors` add what they say.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from typing import Any

from ..diagnostics import Fix, Span, replacement
from ..loader import YMap
from .module import ModuleSpec
from .tools import ToolSpec
from .toolsets import ToolsetSpec

# -- a `,` inside the text of a one-line mapping ----------------------------------------


@dataclass(frozen=True, slots=True)
class CommaSplit:
    """A key that is only the rest of a value a ``,`` cut short in a ``{...}`` mapping."""

    first: bool              # the first piece after the value (the others are said with it)
    key: str                 # the key whose value was cut: `description`
    comma: Span              # the `,` that cut it
    text: str                # the whole text, as written: `Start time, ISO 8601 with offset.`
    pieces: tuple[str, ...]  # the keys the rest became: `ISO 8601 with offset.`
    start: Span              # where the text starts

    def message(self) -> str:
        named = " and ".join(f"'{p}'" for p in self.pieces)
        what = "a key of its own" if len(self.pieces) == 1 else "keys of their own"
        return (f"a `,` ends the `{self.key}` text in this one-line mapping, so {named} "
                f"{'is' if len(self.pieces) == 1 else 'are'} read as {what}")

    def notes(self) -> tuple[str, ...]:
        notes = ["in `{...}` a `,` separates entries: quote the text or use a block mapping"]
        if '"' not in self.text and "\\" not in self.text:
            notes.append(f'as in: {self.key}: "{self.text}"')
        return tuple(notes)

    def fixes(self) -> tuple[Fix, ...]:
        """The text quoted in place (what the note's example shows)."""
        if '"' in self.text or "\\" in self.text:
            return ()
        start = self.start
        return (Fix("Quote the text", Span(start.path, start.line, start.col, len(self.text)),
                    f'"{self.text}"'),)


# Keys whose value is a text (what a `,` may go on from even after a single word).
_TEXT_KEYS = frozenset({"description", "title", "$comment", "default", "hint"})


def comma_split(node: YMap, key: str, text: str) -> CommaSplit | None:
    """Whether ``key`` of ``node`` (a key without a value) is a piece of the plain text
    value before it on the line, cut there by a ``,`` of a ``{...}`` mapping."""
    if node.get(key, 0) is not None:
        return None
    keys = list(node)
    at = keys.index(key)
    lines = text.splitlines()
    start = node.span
    if not (0 < start.line <= len(lines)) or lines[start.line - 1][start.col - 1:start.col] != "{":
        return None
    line = node.key_spans[key].line
    source = lines[line - 1]
    before = at - 1
    while before >= 0 and node[keys[before]] is None and node.key_spans[keys[before]].line == line:
        before -= 1
    if before < 0:
        return None
    owner = keys[before]
    value, span = node[owner], node.value_spans[owner]
    if not isinstance(value, str) or span.line != line or source[span.col - 1:span.col] in "\"'":
        return None
    if owner not in _TEXT_KEYS and " " not in value:
        return None  # `{type: string, two}`: a name, not a text a comma went on from
    end = span.col - 1 + span.length
    comma = source.find(",", end)
    if comma < 0 or comma >= node.key_spans[key].col - 1:
        return None
    last = at
    while last + 1 < len(keys) and node[keys[last + 1]] is None \
            and node.key_spans[keys[last + 1]].line == line:
        last += 1
    tail = node.key_spans[keys[last]]
    whole = source[span.col - 1:tail.col - 1 + tail.length]
    return CommaSplit(before == at - 1, owner, Span(span.path, line, comma + 1), whole,
                      tuple(keys[before + 1:last + 1]), span)


# -- a key one level off, or a word of the format in the wrong place ---------------------

# The levels of a spec whose keys are known.
TOP, TOOL, TOOLSET, SCHEMA = "top", "tool", "toolset", "schema"
_KEYS: dict[str, frozenset[str]] = {}
_KIND_KEYS: dict[str, frozenset[str]] = {}
_A = {TOP: "the top level", TOOL: "a tool", TOOLSET: "a toolset", SCHEMA: "a schema"}
_GOES = {TOP: ": write it unindented, at the start of its line", TOOL: ": it goes under `tools:`, in the tool's own mapping",
         TOOLSET: ": it goes under `toolsets:`, in the toolset's own mapping"}


def _keys(level: str) -> frozenset[str]:
    """The keys ``level`` knows, taken from the models once (when a hint is first due)."""
    if not _KEYS:
        # lazy: keywords imports errors, which imports this module
        from .keywords import KEYWORDS, TOOLC_KEYWORDS

        for model in typing.get_args(ToolsetSpec):
            kind = typing.get_args(model.model_fields["kind"].annotation)[0]
            _KIND_KEYS[kind] = frozenset(model.model_fields) - {"kind"}
        _KEYS.update({TOP: frozenset(ModuleSpec.model_fields),
                      TOOL: frozenset(ToolSpec.model_fields),
                      TOOLSET: frozenset().union(*_KIND_KEYS.values()) | {"kind"},
                      SCHEMA: frozenset(KEYWORDS) | frozenset(TOOLC_KEYWORDS) | {"required"}})
    return _KEYS[level]


def _looks_like(value: Any) -> str | None:
    """What a mapping found in the wrong place looks like: a tool, a toolset or a schema."""
    if not isinstance(value, YMap) or not value:
        return None
    keys = set(value)
    if "kind" in keys:
        return TOOLSET
    if keys & {"handler", "params", "returns"}:
        return TOOL
    if keys <= _keys(SCHEMA) and keys & {"type", "description", "enum", "properties"}:
        return SCHEMA
    return None


def unknown_key_note(level: str, key: str, value: Any, beside: str | None = None) -> str | None:
    """What an unknown ``key`` of ``level`` (``top``, ``tool``, ``toolset``, ``schema``) is,
    when it is a word of the format meant for another place; ``beside``: in a schema, the
    key of the tool it belongs to (``params``, ``returns``)."""
    _keys(TOP)
    if level == TOOL and key == "approval_required":
        return ("`approval_required` is a toolset kind; for this tool to pause for "
                "approval before it runs, write `requires_approval: true`")
    if key in _KIND_KEYS and level != TOOLSET:
        return f"`{key}` is a toolset kind: write it under `toolsets:` as `kind: {key}`"
    looks = _looks_like(value)
    if level == TOP and looks in (TOOL, TOOLSET):
        return f"`{key}` looks like {_A[looks]}{_GOES[looks]}"
    if level == TOOL and looks == SCHEMA:
        return f"`{key}` looks like a parameter: a tool's parameters go under `params:`"
    if level == TOOLSET:
        kinds = [kind for kind, keys in _KIND_KEYS.items() if key in keys]
        if kinds:
            return f"`{key}` is a key of the {_or(kinds)} kind{'s' if len(kinds) > 1 else ''}"
    others = [other for other in (TOOL, TOOLSET, TOP) if other != level and key in _keys(other)]
    if len(others) > 1:
        return f"`{key}` is a key of {_or([_A[o] for o in others], quote=False)}, not of " \
               f"{_A[level]}"
    if others:
        move = f": move it up to the tool, beside `{beside}:`" \
            if level == SCHEMA and others[0] == TOOL and beside else _GOES[others[0]]
        return f"`{key}` is a key of {_A[others[0]]}, not of {_A[level]}{move}"
    if level in (TOP, TOOL) and key in _keys(SCHEMA):
        where = "a tool's parameters go under `params:`" if level == TOOL else \
            "named schemas go under `types:`"
        return f"`{key}` is a schema keyword: {where}"
    return None


def hint_fixes(level: str | None, key: str, span: Span) -> tuple[Fix, ...]:
    """The fix of what :func:`unknown_key_note` says, where it is a word to replace."""
    if level == TOOL and key == "approval_required":
        return replacement(span, key, "requires_approval")
    return ()


def _or(words: list[str], *, quote: bool = True) -> str:
    shown = [f"`{w}`" if quote else w for w in words]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"


def entry_note(section: str, key: str) -> str | None:
    """What ``key``, an entry of ``section`` (``params``, ``properties``, ``tools``,
    ``toolsets``) whose value is not what an entry is, was probably meant to be: a key of
    the level above, written one level too deep, or of the level below."""
    if section == "params" and key in _keys(TOOL):
        return (f"`{key}` here names a parameter; the tool's own `{key}` goes one level "
                "up, beside `params:`")
    if section == "properties" and key in _keys(SCHEMA):
        return (f"`{key}` here names a property; the object's own `{key}` goes one level "
                "up, beside `properties:`")
    if section == "properties" and key in _keys(TOOL):
        return f"`{key}` here names a property; a tool's `{key}` goes beside its `params:`"
    if section in ("tools", "toolsets"):
        what = "tool" if section == "tools" else "toolset"
        if key in _keys(TOP):
            return (f"`{key}` here names a {what}; the spec's own `{key}` goes one level "
                    f"up, beside `{section}:`")
        if key in _keys(TOOL if section == "tools" else TOOLSET):
            return (f"`{key}` here names a {what}; a {what}'s keys go one level down, under "
                    f"its name (`{section}: {{name: {{{key}: ...}}}}`)")
    return None


__all__ = ["CommaSplit", "comma_split", "entry_note", "hint_fixes", "unknown_key_note"]
