"""``openai-strict``: OpenAI function calling with ``strict: true`` (Structured Outputs).

Sources: OpenAI's "Structured model outputs" guide, its "Supported schemas" section
(the keywords, formats and limits below), and the OpenAI Agents SDK's strict conversion
(``openai-agents`` 0.24.0, ``agents/strict_schema.py``: what it rewrites, and the
refusals it raises itself). Where the two differ, the row says which one it follows.
Checked 2026-12-02. To update a figure, edit its line.
"""

from __future__ import annotations

from .table import (
    Limit,
    Lowering,
    Target,
    changed,
    kept,
    rejected,
)

SDK = "openai-agents 0.24.0 agents/strict_schema.py"

_NOT_PERMITTED = ("strict mode refuses the request: the keyword is not in the supported "
                  "subset")
_DESCRIBE = ("say it in the description, or leave openai-strict out of `targets` for this "
             "module")

TABLE = Target(
    name="openai-strict",
    provider="OpenAI function calling, strict: true",
    source="OpenAI docs 'Structured model outputs' (Supported schemas); " + SDK,
    checked="2026-12-02",
    keywords={
        "type": kept(), "properties": kept(), "required": kept(), "items": kept(),
        "additionalProperties": kept(), "anyOf": kept(), "enum": kept(), "const": kept(),
        "$ref": kept(), "$defs": kept(), "definitions": kept(), "description": kept(),
        "title": kept(), "pattern": kept(), "format": kept(), "multipleOf": kept(),
        "minimum": kept(), "maximum": kept(), "exclusiveMinimum": kept(),
        "exclusiveMaximum": kept(), "minItems": kept(), "maxItems": kept(),
        "oneOf": changed("the Agents SDK rewrites oneOf as anyOf: a value matching several "
                         "branches is then accepted", "write `anyOf` if any branch may "
                         "match", Lowering.ANY_OF, SDK),
        "default": rejected("strict mode does not permit 'default' (every property is "
                            "required there, so a default never applies)",
                            "say the default in the description", Lowering.DESCRIBE),
    },
    other=rejected(_NOT_PERMITTED, _DESCRIBE, Lowering.DESCRIBE),
    formats=frozenset({"date-time", "time", "date", "duration", "email", "hostname",
                       "ipv4", "ipv6", "uuid"}),
    other_format=rejected("strict mode supports only the formats date-time, time, date, "
                          "duration, email, hostname, ipv4, ipv6 and uuid",
                          "use `pattern`, or say the format in the description"),
    objects_closed=rejected("strict mode requires `additionalProperties: false` on every "
                            "object (the Agents SDK adds it, which closes the object)",
                            "give the object `additionalProperties: false`", Lowering.CLOSE),
    open_object=rejected("strict mode takes only `additionalProperties: false`; the Agents "
                         "SDK refuses anything else", "close the object, or leave "
                         "openai-strict out of `targets`", Lowering.NO, SDK),
    all_required=rejected("strict mode requires every property in `required` (an optional "
                          "one is written as a required union with null)",
                          "make the property required (`nullable: true` if it may be "
                          "absent), or leave openai-strict out of `targets`",
                          Lowering.NULL_UNION),
    root_object=rejected("the parameters must be an object schema (`type: object`)",
                         "wrap the input in an object", Lowering.NO),
    root_any_of=rejected("the root of a strict schema must not be `anyOf`",
                         "make the input one object, or split the tool", Lowering.NO, SDK),
    local_refs=rejected("strict mode resolves only references into the document "
                        "(`#/...`)", "inline the schema", Lowering.INLINE, SDK),
    tool_name=r"^[a-zA-Z0-9_-]{1,64}$",
    tool_name_row=rejected("function names match ^[a-zA-Z0-9_-]{1,64}$",
                           "rename the tool, or give a `prefix`/`names` that fits",
                           Lowering.RENAME),
    limits={
        "properties": Limit(5000, "object properties in one schema"),
        "depth": Limit(10, "levels of nesting (objects inside objects)"),
        "enum_values": Limit(1000, "enum values in one schema"),
        "string_chars": Limit(120000, "characters of property names, definition names, "
                              "enum values and const values in one schema"),
        "large_enum_chars": Limit(7500, "characters of the values of one string enum of "
                                  "more than 250 values"),
    },
)
