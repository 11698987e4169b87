"""The JSON Schema of the spec format, generated from the models, for editors.

yaml-language-server reads it to complete and check specs as they are typed. The parts
that are JSON Schema themselves (parameters, ``returns``, ``types``, an external tool's
``input_schema``) come from the keyword catalogue of :mod:`toolc.model.keywords`, so the
editor knows every keyword and flags a misspelt one, as the compiler does.
"""

from __future__ import annotations

import json
from typing import Any

from .base import RAW_SCHEMA_MARK, TOOLC_SCHEMA_MARK
from .keywords import JSON_TYPES, KEYWORDS
from .module import ModuleSpec

DRAFT = "https://json-schema.org/draft/2020-12/schema"


def _dialect(ref: str, toolc: bool) -> dict[str, Any]:
    """The schema of one schema node, subschemas pointing back at ``ref``."""
    text = json.dumps({name: kw.editor for name, kw in KEYWORDS.items()})
    props: dict[str, Any] = json.loads(text.replace("#/$defs/Schema", ref))
    if toolc:
        props["type"] = {"anyOf": [
            {"enum": list(JSON_TYPES)},
            {"type": "string", "description": "A named type: `Name` or `othermodule.Name`."},
            {"type": "array", "items": {"enum": list(JSON_TYPES)}, "minItems": 1},
        ]}
        props["required"] = {"anyOf": [
            {"type": "boolean", "description": "On a property: whether it must be given."},
            {"type": "array", "items": {"type": "string"}},
        ]}
        props["nullable"] = {"type": "boolean", "description": "Also accept null."}
        props["title"] = {"type": "string", "description": (
            "A short name the model reads; on a branch of `anyOf`/`oneOf`, also the name of "
            "its generated model (`title: Not planned` on a branch of `reason`: "
            "`...ReasonNotPlanned`).")}
    else:
        props["type"] = {"anyOf": [{"enum": list(JSON_TYPES)},
                                   {"type": "array", "items": {"enum": list(JSON_TYPES)}}]}
    return {"anyOf": [{"type": "boolean"},
                      {"type": "object", "properties": props, "additionalProperties": False}]}


def _replace_marks(node: Any) -> Any:
    if isinstance(node, dict):
        if node.get(TOOLC_SCHEMA_MARK) is True:
            return {"$ref": "#/$defs/ToolcSchema"}
        if node.get(RAW_SCHEMA_MARK) is True:
            return {"$ref": "#/$defs/JsonSchema"}
        return {k: _replace_marks(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_replace_marks(v) for v in node]
    return node


def spec_json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a ``*.toolc.yaml`` file."""
    generated = _replace_marks(ModuleSpec.model_json_schema(by_alias=True))
    defs = generated.pop("$defs", {})
    defs["ToolcSchema"] = _dialect("#/$defs/ToolcSchema", toolc=True)
    defs["JsonSchema"] = _dialect("#/$defs/JsonSchema", toolc=False)
    generated.pop("title", None)
    return {
        "$schema": DRAFT,
        "title": "toolc spec (format version 1)",
        "description": "A toolc spec file, *.toolc.yaml: one module of tools and toolsets.",
        **generated,
        "$defs": dict(sorted(defs.items())),
    }
