"""``gemini``: a Gemini ``FunctionDeclaration``'s ``parameters`` (an OpenAPI 3.0 subset).

Sources: the Google Gen AI SDK's own models (``google-genai`` 3.6.1, ``google/genai/
types.py``): ``Schema`` lists every field ``parameters`` takes and forbids any other
(``extra='forbid'``: an unknown keyword is a validation error in the SDK, and a 400
INVALID_ARGUMENT "Unknown name" from the API); ``FunctionDeclaration.name`` and
``parameters`` say the name rules; ``_transformers.process_schema`` refuses a truthy
`additionalProperties` outside Vertex AI (Gemini Enterprise Agent Platform). The issue
said names of at most 64 characters without `:`; the SDK says 128 with `:`, and the
SDK wins. The formats are the ``Schema.format`` docstring's; the API answered other
string formats with "only 'enum' and 'date-time' are supported for STRING type" in 2025
(enechange/collmbo#195), so they are refused. ``parametersJsonSchema`` takes JSON Schema
instead, and is not this target. Checked 2026-12-02. To update a figure, edit its line.
"""

from __future__ import annotations

from .table import (
    Lowering,
    Target,
    kept,
    rejected,
)

SDK = "google-genai 3.6.1 google/genai/types.py"

_UNKNOWN = ("the `parameters` Schema (an OpenAPI 3.0 subset) has no such field: the "
            "request fails (400 INVALID_ARGUMENT, Unknown name), and the SDK refuses it")
_FIX = "say it in the description, or leave gemini out of `targets` for this module"

TABLE = Target(
    name="gemini",
    provider="Gemini function calling, FunctionDeclaration.parameters",
    source=f"{SDK} (Schema, FunctionDeclaration); google/genai/_transformers.py",
    checked="2026-12-02",
    keywords={
        "type": kept(), "format": kept(), "title": kept(), "description": kept(),
        "nullable": kept(), "enum": kept(), "maxItems": kept(), "minItems": kept(),
        "properties": kept(), "required": kept(), "minProperties": kept(),
        "maxProperties": kept(), "minLength": kept(), "maxLength": kept(),
        "pattern": kept(), "example": kept(), "anyOf": kept(), "propertyOrdering": kept(),
        "default": kept(), "items": kept(), "minimum": kept(), "maximum": kept(),
        "additionalProperties": kept(),
        "ref": kept(), "defs": kept(),  # Gemini's own (`#/defs/Name`), not JSON Schema's
        "$ref": rejected(_UNKNOWN + " (its own `ref` and `defs` are not JSON Schema's "
                         "`$ref` and `$defs`)", "write the schema out in place",
                         Lowering.REF),
        "$defs": rejected(_UNKNOWN, "write the schemas out in place", Lowering.REF),
        "const": rejected(_UNKNOWN, "write `enum: [value]`", Lowering.ENUM),
        "oneOf": rejected(_UNKNOWN, "write `anyOf` if any branch may match", Lowering.ANY_OF),
        "examples": rejected(_UNKNOWN + " (it has one `example`)",
                             "say the examples in the description"),
        "exclusiveMinimum": rejected(_UNKNOWN, "use `minimum`, or say it in the description"),
        "exclusiveMaximum": rejected(_UNKNOWN, "use `maximum`, or say it in the description"),
    },
    other=rejected(_UNKNOWN, _FIX),
    formats=frozenset({"enum", "date-time", "date", "email", "byte", "password", "float",
                       "double", "int32", "int64"}),
    other_format=rejected("Schema.format takes float and double for numbers, int32 and "
                          "int64 for integers, enum, date-time, date, email, byte and "
                          "password for strings; the API refused other string formats",
                          "use `pattern`, or say the format in the description"),
    open_object=rejected("a truthy `additionalProperties` is refused by the Gemini "
                         "Developer API (the SDK raises: only Vertex AI takes it)",
                         "list the object's properties", Lowering.NO),
    type_list=rejected("Schema.type is one type; a list is refused",
                       "use `nullable: true` for a type or null, `anyOf` for several",
                       Lowering.NULLABLE),
    enum_kinds=frozenset({"string"}),
    other_enum_value=rejected("Schema.enum is a list of strings",
                              "use string values (Gemini writes integer enums as strings "
                              "with `format: enum`)", Lowering.STRINGS),
    root_object=rejected("parameters must be an object schema (`type: object`)",
                         "wrap the input in an object", Lowering.NO),
    local_refs=None,
    tool_name=r"^[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}$",
    tool_name_row=rejected("function names start with a letter or `_` and hold letters, "
                           "digits, `_`, `.`, `:` and `-`, at most 128",
                           "rename the tool, or give a `prefix`/`names` that fits",
                           Lowering.RENAME),
    property_name=r"^[a-zA-Z_][a-zA-Z0-9_]{0,63}$",
    property_name_row=rejected("parameter names start with a letter or `_` and hold "
                               "letters, digits and `_`, at most 64",
                               "rename the property", Lowering.RENAME),
)
