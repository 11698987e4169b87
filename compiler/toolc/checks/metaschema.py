"""TC221: a ``$schema`` that names another metaschema than JSON Schema 2020-12's.

The published schema is validated by a 2020-12 validator, offline: a ``$schema`` naming
draft-07, or a custom metaschema that turns vocabularies off, cannot be honoured, and the
runtime would enforce something else than the schema says. In toolc's own schemas it is
an error; in a raw schema someone else wrote (an external or pinned tool's, where
``draft-07`` is common) a warning: it is published as given, and jsonschema-rs applies
a draft it knows (draft-07's ``dependencies``, say) but no custom vocabulary.
"""

from __future__ import annotations

from ..diagnostics import Severity, Span
from ..loader import YMap
from .facts import Walk

DRAFT_2020_12 = frozenset({"https://json-schema.org/draft/2020-12/schema",
                           "https://json-schema.org/draft/2020-12/schema#"})


def check_metaschema(walk: Walk, node: YMap, key_span: Span,
                     trail: tuple[str, ...] | None) -> None:
    """TC221: ``$schema``, where given, is 2020-12's."""
    value = node.get("$schema")
    if not isinstance(value, str) or value in DRAFT_2020_12:
        return  # absent, or not a string: the keyword check reports that (TC202)
    span = node.value_spans["$schema"]
    notes = ("remove `$schema`, or give https://json-schema.org/draft/2020-12/schema",)
    if walk.toolc:
        walk.error("TC221", f"`$schema` names {value!r}: toolc publishes and validates "
                   "JSON Schema 2020-12, so another metaschema's rules cannot be honoured",
                   span, notes)
    else:
        walk.report(
            "TC221", f"`$schema` names {value!r}: published as written, calls are validated "
            "by that draft's rules where the validator knows it (a custom metaschema's "
            "vocabularies are not honoured)", span, severity=Severity.WARNING, notes=notes)
