"""The shape of a target's table: what a provider does with each part of a published tool.

A table is data, one module per target (``openai_strict.py``, ``anthropic_strict.py``,
``gemini.py``), each figure on its own line with where it was checked. Every row says
three things, so that the build's check and a later lowering read the same data:

- its **fate**: what the provider does with the keyword as published (it keeps it, the
  request fails, or it is silently dropped, written into the description, or changed);
- **why**, in the provider's terms, and the **fix** a spec author can make;
- its **lowering**: how a view for that provider would carry the keyword instead
  (:class:`Lowering`), so that nothing the canonical schema says is lost without a word.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field


class Fate(enum.Enum):
    """What a target does with a keyword (or a rule) of a published schema."""

    KEPT = "kept"
    REJECTED = "rejected"     # the request fails (a 400) or the provider's SDK raises
    DROPPED = "dropped"       # removed without a word: the model never reads it
    DESCRIBED = "described"   # moved into the description as text, nothing enforces it
    CHANGED = "changed"       # rewritten into something that accepts other values

    @property
    def silent(self) -> bool:
        """The request goes through, but the model reads something else than published."""
        return self in (Fate.DROPPED, Fate.DESCRIBED, Fate.CHANGED)


class Lowering(enum.Enum):
    """How a target's view of a tool would carry what the target cannot take as is."""

    NONE = "none"             # nothing to move: it is kept
    DESCRIBE = "describe"     # written into the description ("at least 1"), checked by toolc
    DROP = "drop"             # an annotation the model can do without (its text kept aside)
    ANY_OF = "any-of"         # oneOf written as anyOf (the runtime still checks exactly one)
    ENUM = "enum"             # const written as a one-value enum
    NULL_UNION = "null-union"  # an optional property written required, its type or null
    CLOSE = "close"           # the object written with additionalProperties: false
    NULLABLE = "nullable"     # a type list with null written as OpenAPI's nullable
    INLINE = "inline"         # a $ref written out in place
    REF = "ref"               # $ref/$defs written as the target's own ref/defs
    RENAME = "rename"         # a name the target refuses mapped to one it takes
    STRINGS = "strings"       # enum values written as strings (Gemini's `format: enum`)
    SPLIT = "split"           # too much for one request: fewer tools per request
    NO = "no"                 # cannot be lowered: the spec must change


@dataclass(frozen=True, slots=True)
class Row:
    """One keyword (or rule) of a table."""

    fate: Fate
    why: str = ""              # what the provider does, in its own terms
    fix: str = ""              # what a spec author can do
    lowering: Lowering = Lowering.NONE
    source: str = ""           # where the row comes from, when not the table's main source


def kept() -> Row:
    return Row(Fate.KEPT)


def rejected(why: str, fix: str, lowering: Lowering = Lowering.DESCRIBE,
             source: str = "") -> Row:
    return Row(Fate.REJECTED, why, fix, lowering, source)


def dropped(why: str, fix: str, lowering: Lowering = Lowering.DROP, source: str = "") -> Row:
    return Row(Fate.DROPPED, why, fix, lowering, source)


def described(why: str, fix: str, lowering: Lowering = Lowering.DESCRIBE,
              source: str = "") -> Row:
    return Row(Fate.DESCRIBED, why, fix, lowering, source)


def changed(why: str, fix: str, lowering: Lowering, source: str = "") -> Row:
    return Row(Fate.CHANGED, why, fix, lowering, source)


@dataclass(frozen=True, slots=True)
class Limit:
    """A bound of the target: at most ``most`` of what ``counts`` (its message names it)."""

    most: int
    counts: str                # "object properties in one tool", ...
    fate: Fate = Fate.REJECTED
    lowering: Lowering = Lowering.NO
    source: str = ""


@dataclass(frozen=True, slots=True)
class Target:
    """One provider dialect: its rows, value rules, limits and name rules, with sources.

    ``keywords`` lists what differs from ``other`` (the fate of a keyword not listed);
    the value rules apply to keywords the target keeps."""

    name: str                            # as `targets = [...]` names it
    provider: str                        # who reads the schema, as docs say it
    source: str                          # the documentation page and SDK version checked
    checked: str                         # the date the table was checked (YYYY-MM-DD)
    keywords: Mapping[str, Row]
    other: Row                           # a keyword not in ``keywords``
    formats: frozenset[str] | None = None  # the `format` values kept (None: any)
    other_format: Row | None = None      # the fate of another format
    objects_closed: Row | None = None    # an object without additionalProperties: false
    all_required: Row | None = None      # an object with a property not in `required`
    open_object: Row | None = None       # additionalProperties given as anything but false
    min_items_most: int | None = None    # `minItems` kept up to this value
    large_min_items: Row | None = None   # the fate of a larger one
    enum_kinds: frozenset[str] | None = None  # the JSON kinds an enum/const value may be
    other_enum_value: Row | None = None  # an `enum` or `const` value of another kind
    type_list: Row | None = None         # `type` given as a list
    root_object: Row | None = None       # an input schema that is not `type: object`
    root_any_of: Row | None = None       # an input schema with `anyOf` at its root
    local_refs: Row | None = None        # a `$ref` that is not `#...` in the document
    recursion: Row | None = None         # a schema that refers to itself (None: allowed)
    tool_name: str = ""                  # a regular expression a tool's name must match
    tool_name_row: Row | None = None
    property_name: str = ""              # one a property's name must match ("": any)
    property_name_row: Row | None = None
    limits: Mapping[str, Limit] = field(default_factory=dict)   # per tool
    request: Mapping[str, Limit] = field(default_factory=dict)  # per request (an export)

    def row(self, keyword: str) -> Row:
        return self.keywords.get(keyword, self.other)
