"""``anthropic-strict``: Claude tool use with ``strict: true`` (grammar-constrained inputs).

Sources: Anthropic's "Structured outputs" page, its "JSON Schema limitations" section
(supported: the basic types, primitive `enum`, `const`, `anyOf`, `allOf`, local `$ref`
and `$defs`, `required`, `additionalProperties: false`, a list of formats, `minItems` 0
or 1; not supported: recursion, numeric and string-length constraints, other array
constraints, external `$ref`) and "Strict tool use" (the per-request bounds, also in the
issue); the Anthropic SDK's strict transform (``anthropic`` 2.15.0,
``anthropic/lib/_parse/_transform.py``, ``transform_schema``: what it moves into the
description, closes or rewrites without a word). The SDK keeps `duration` and
`hostname`, which the page does not list: the SDK's list wins. The tool-name rule is the
API's own 400 message (``tools.N.custom.name: String should match pattern
'^[a-zA-Z0-9_-]{1,128}$'``). A `type` list (`[string, null]`) is what the API counts
among union parameters; the SDK's transform fails on one (it handles single types only).
Checked 2026-12-02. To update a figure, edit its line.
"""

from __future__ import annotations

from .table import (
    Limit,
    Lowering,
    Target,
    changed,
    described,
    kept,
    rejected,
)

SDK = "anthropic 2.15.0 anthropic/lib/_parse/_transform.py"
DOCS = "Anthropic docs 'Structured outputs' (JSON Schema limitations)"

_UNSUPPORTED = ("not in the strict subset (the API refuses the schema; the Anthropic SDK "
                "writes the keyword into the description instead, where nothing enforces it)")
_FIX = ("say it in the description (toolc still checks it), or leave anthropic-strict out "
        "of `targets` for this module")
_SDK_MOVES = ("the Anthropic SDK's strict transform writes it into the description: the "
              "model reads it, nothing enforces it")


def _unsupported(what: str) -> tuple[str, str]:
    why = (f"{what} are not supported in strict mode (the Anthropic SDK writes them into "
           "the description instead)")
    return why, _FIX


_NUMERIC = rejected(*_unsupported("numerical constraints"), source=DOCS)
_LENGTH = rejected(*_unsupported("string length constraints"), source=DOCS)
_ARRAY = rejected(*_unsupported("array constraints other than minItems 0 or 1"), source=DOCS)

TABLE = Target(
    name="anthropic-strict",
    provider="Claude tool use, strict: true",
    source=f"{DOCS} and 'Strict tool use'; {SDK}",
    checked="2026-12-02",
    keywords={
        "type": kept(), "properties": kept(), "required": kept(), "items": kept(),
        "additionalProperties": kept(), "anyOf": kept(), "allOf": kept(), "enum": kept(),
        "const": kept(), "$ref": kept(), "$defs": kept(),
        "description": kept(), "title": kept(), "format": kept(), "minItems": kept(),
        "minimum": _NUMERIC, "maximum": _NUMERIC, "exclusiveMinimum": _NUMERIC,
        "exclusiveMaximum": _NUMERIC, "multipleOf": _NUMERIC,
        "minLength": _LENGTH, "maxLength": _LENGTH,
        "maxItems": _ARRAY, "uniqueItems": _ARRAY, "prefixItems": _ARRAY, "contains": _ARRAY,
        "oneOf": changed("the Anthropic SDK rewrites oneOf as anyOf: a value matching "
                         "several branches is then accepted", "write `anyOf` if any branch "
                         "may match", Lowering.ANY_OF, SDK),
        "pattern": described(_SDK_MOVES + " (the page supports simple patterns only)",
                             "say the pattern in words too", source=SDK),
        "default": described(_SDK_MOVES, "say the default in the description", source=SDK),
        "examples": described(_SDK_MOVES, "put the examples in the description", source=SDK),
        "deprecated": described(_SDK_MOVES, "say it in the description", source=SDK),
        "readOnly": described(_SDK_MOVES, "say it in the description", source=SDK),
        "writeOnly": described(_SDK_MOVES, "say it in the description", source=SDK),
        "definitions": described("the Anthropic SDK keeps only `$defs`: it writes draft-07's "
                                 "`definitions` into the description, and the references "
                                 "into it are left dangling", "use `$defs`", Lowering.REF,
                                 SDK),
        "$comment": described(_SDK_MOVES + " (a comment for people becomes text for the "
                              "model)", "remove the comment", source=SDK),
    },
    other=rejected(_UNSUPPORTED, _FIX),
    formats=frozenset({"date-time", "time", "date", "duration", "email", "hostname", "uri",
                       "ipv4", "ipv6", "uuid"}),
    other_format=rejected("strict mode supports the formats date-time, time, date, "
                          "duration, email, hostname, uri, ipv4, ipv6 and uuid (the SDK "
                          "writes another into the description)",
                          "use one of those, or say the format in the description",
                          source=SDK),
    min_items_most=1,
    large_min_items=rejected("strict mode supports `minItems` of 0 or 1 only (the SDK "
                             "writes a larger one into the description)",
                             "say the least count in the description", source=DOCS),
    enum_kinds=frozenset({"string", "number", "boolean", "null"}),
    other_enum_value=rejected("strict mode supports enums of primitive values only",
                              "use primitive values", Lowering.NO, DOCS),
    objects_closed=changed("the Anthropic SDK closes every object (`additionalProperties: "
                           "false`), so extra properties the schema allows are refused",
                           "give the object `additionalProperties: false`, or list its "
                           "properties", Lowering.CLOSE, SDK),
    open_object=rejected("strict mode supports only `additionalProperties: false` (the SDK "
                         "silently closes the object)", "list the object's properties and "
                         "close it", Lowering.NO, DOCS),
    root_object=rejected("a tool's input_schema must be `type: object`",
                         "wrap the input in an object", Lowering.NO),
    local_refs=rejected("external `$ref`s are not supported", "inline the schema",
                        Lowering.INLINE, DOCS),
    recursion=rejected("recursive schemas are not supported in strict mode",
                       "bound the nesting (a type per level), or leave anthropic-strict "
                       "out of `targets`", Lowering.NO, DOCS),
    tool_name=r"^[a-zA-Z0-9_-]{1,128}$",
    tool_name_row=rejected("tool names match ^[a-zA-Z0-9_-]{1,128}$",
                           "rename the tool, or give a `prefix`/`names` that fits",
                           Lowering.RENAME),
    request={
        "strict_tools": Limit(20, "strict tools in one request", lowering=Lowering.SPLIT),
        "optional_params": Limit(24, "optional parameters across the strict tools of one "
                                 "request", lowering=Lowering.SPLIT),
        "union_params": Limit(16, "parameters with `anyOf` or a `type` list across the "
                              "strict tools of one request", lowering=Lowering.SPLIT),
    },
)
