"""TC220: where a handler's Python type is wider than the schema it receives.

Calls are validated against the published schema itself; the generated parameter types
only convert what was accepted, so they are never narrower than the schema. Where a
schema says something no Python type can (``patternProperties``, ``if``/``then``, a
``maxLength`` without a ``type``, ...), the parameter gets a wider type (``Any``,
``dict[str, Any]``, the type ``type`` names) and the author is told so, once, at the
schema: the handler may see values its annotation does not describe precisely.
``toolc.schema_typing`` decides, for this check and the generator alike.
"""

from __future__ import annotations

from ..diagnostics import Severity, Span
from ..loader import YMap
from ..model.keywords import JSON_TYPES
from ..schema_typing import widening
from .facts import Walk

# Schemas that become handler types: parameters and the named types they use.
_NOTE = ("calls are validated against the published schema before the handler runs; "
         "only the handler's type annotation says less")
_TYPED_ROOTS = ("params", "type")


def check_python_type(walk: Walk, node: YMap, key_span: Span,
                      trail: tuple[str, ...] | None) -> None:
    """TC220 (info): the schema has no faithful Python type."""
    if not walk.toolc or walk.root.kind not in _TYPED_ROOTS or not node:
        return
    top = walk.root.kind == "type" and node is walk.root.node
    if trail is None and not top:
        return  # a branch or items schema: said once, at the property that holds it
    reason = widening(node, _toolc_keys(node))
    if reason is None:
        return
    what = f"parameter '{'.'.join(trail)}'" if trail else f"type '{walk.root.owner}'"
    walk.report(
        "TC220", f"the Python type of {what} is wider than its schema: {reason}", key_span,
        severity=Severity.INFO,
        notes=(_NOTE,))


def _toolc_keys(node: YMap) -> frozenset[str]:
    """toolc's own additions in this node, which are not JSON Schema's to judge."""
    own = {"nullable"}
    kind = node.get("type")
    if isinstance(kind, str) and kind not in JSON_TYPES:
        own.add("type")  # a named type: its own schema is checked where it is declared
    if isinstance(node.get("required"), bool):
        own.add("required")
    return frozenset(own)
