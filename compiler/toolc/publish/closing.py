"""Closed objects: which objects of a tool's input publish ``additionalProperties: false``.

A typo in a nested key (``filters: {priorty: high}``) would be silently ignored by an
open object, so every object a tool's input declares with ``properties`` is closed,
unless the spec says otherwise or the object may take its properties from elsewhere.
The writer (:mod:`toolc.publish.writer`) asks these rules node by node; outputs, named
types as documents of their own and raw schemas are never closed.
"""

from __future__ import annotations

from typing import Any

JSON = Any


# Where a subschema describes a value of its own, so closing it says what it says. Not
# under `allOf`, `if`/`then`/`else`, `dependentSchemas`, `not`, ...: there a subschema is
# one part of its parent's object, and closing the part would refuse the other parts'
# properties (or, under `not`, accept what was refused). Not in a spec's own `$defs`
# either: an entry is a part of whatever object `$ref`s it, beside that object's own
# keywords. `anyOf`/`oneOf` branches are alternatives: closable when their parent
# describes a value of its own and says nothing else about the object (and has only one
# of the two), else they are parts of it too.
CLOSABLE = frozenset({"properties", "patternProperties", "additionalProperties", "items",
                       "prefixItems"})
ALTERNATIVES = frozenset({"anyOf", "oneOf"})
# A parent with any of these says something about the object its branches describe.
_OBJECT_KEYWORDS = frozenset({"properties", "patternProperties", "additionalProperties",
                              "unevaluatedProperties", "required", "dependentRequired",
                              "propertyNames", "minProperties", "maxProperties", "not",
                              "allOf", "if", "then", "else", "dependentSchemas",
                              "dependencies", "$ref", "$dynamicRef", "$recursiveRef"})

# Keywords that say how unknown properties are treated, or through which the object may
# take properties declared elsewhere: with any of them the object is published as written.
_OPEN_BY = frozenset({"additionalProperties", "patternProperties", "unevaluatedProperties",
                      "allOf", "anyOf", "oneOf", "if", "then", "else", "dependentSchemas",
                      "dependencies", "$ref", "$dynamicRef", "$recursiveRef"})


def closes(core: dict[str, JSON]) -> bool:
    """Whether a written object of a tool's input gets ``additionalProperties: false``:
    it declares ``properties`` and nothing that decides (or widens) the rest itself."""
    return isinstance(core.get("properties"), dict) and not any(k in core for k in _OPEN_BY)


def alternatives_closable(node: dict[str, Any]) -> bool:
    """Whether the ``anyOf``/``oneOf`` branches of ``node`` are alternatives of their own
    (closable): the node has one of the two and says nothing else about the object."""
    return sum(k in ALTERNATIVES for k in node) == 1 and not any(
        k in _OBJECT_KEYWORDS for k in node)
