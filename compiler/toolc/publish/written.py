"""What writing a schema out returns: the published schema, and where each part of it is
written in the spec.

Every write records where each published description came from (JSON pointer -> spec
span) and which defaults were written where, so that they can be checked against the
very schema a client will see; where each node and keyword is written, so that a schema
change is shown at the line a reviewer edits; and the references that cannot resolve.
A schema published as written (an external or pinned tool's) has the same places,
found here by :func:`raw_description_spans` and :func:`raw_node_spans`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Span
from ..loader import YList, YMap
from ..model.keywords import KEYWORDS
from .json_documents import pointer_token
from .schema_refs import RefProblem

JSON = Any


@dataclass(slots=True)
class DefaultSite:
    """A ``default`` written in the spec, and the published schema of its own node."""

    value: JSON
    span: Span
    schema: dict[str, JSON]
    pointer: str = ""  # where ``schema`` sits in its published document


@dataclass(slots=True)
class Written:
    """One schema written out as published, and where each part of it is in the spec."""

    schema: JSON
    description_spans: dict[str, Span] = field(default_factory=dict)
    defaults: list[DefaultSite] = field(default_factory=list)
    # References that cannot be published so that they resolve (see toolc.publish.schema_refs),
    # and every reference written, as published -> where the spec says it.
    problems: list[RefProblem] = field(default_factory=list)
    references: dict[str, Span] = field(default_factory=dict)
    # Where each schema node and keyword of the published document is written in the
    # spec (JSON pointer -> the key's span), so a schema change can be shown at the line
    # a reviewer edits; a keyword a named type brings points into the type.
    node_spans: dict[str, Span] = field(default_factory=dict)


def defs_span(node: Any) -> Span | None:
    """Where a document's own ``$defs`` is written (or the document, or nothing)."""
    if not isinstance(node, YMap):
        return None
    return node.key_spans.get("$defs", node.span)


def item_spans(value: Any, ptr: str, nodes: dict[str, Span]) -> None:
    """Where each item of a list of subschemas, or each entry of a mapping, is written."""
    if isinstance(value, YList):
        nodes.update((f"{ptr}/{i}", span) for i, span in enumerate(value.item_spans))
    elif isinstance(value, YMap):
        nodes.update((f"{ptr}/{pointer_token(k)}", span) for k, span in value.key_spans.items())


def forget_spans(spans: dict[str, Span], prefix: str) -> None:
    """Forget the spans below ``prefix``: what a node's own keyword replaced."""
    for ptr in [p for p in spans if p.startswith(prefix)]:
        del spans[ptr]


def raw_description_spans(node: Any, ptr: str, spans: dict[str, Span]) -> None:
    """Where each description of a schema published as written (external tools) sits."""
    if not isinstance(node, YMap):
        return
    if isinstance(node.get("description"), str):
        spans[f"{ptr}/description"] = node.value_spans["description"]
    for key, value in node.items():
        kw = KEYWORDS.get(key)
        if kw is None:
            continue
        p = f"{ptr}/{pointer_token(key)}"
        if kw.kind == "schema":
            raw_description_spans(value, p, spans)
        elif kw.kind == "schema_list" and isinstance(value, YList):
            for i, item in enumerate(value):
                raw_description_spans(item, f"{p}/{i}", spans)
        elif kw.kind in ("schema_map", "dependencies") and isinstance(value, YMap):
            for k, item in value.items():
                raw_description_spans(item, f"{p}/{pointer_token(k)}", spans)


def raw_node_spans(node: Any, ptr: str, spans: dict[str, Span]) -> None:
    """Where each node and keyword of a schema published as written (external and pinned
    tools) sits: the key's span, as :attr:`Written.node_spans` records for toolc's own."""
    if not isinstance(node, YMap):
        return
    for key, value in node.items():
        p = f"{ptr}/{pointer_token(key)}"
        spans[p] = node.key_spans[key]
        kw = KEYWORDS.get(key)
        kind = kw.kind if kw is not None else "value"
        if kind == "schema":
            raw_node_spans(value, p, spans)
        elif kind == "schema_list" and isinstance(value, YList):
            for i, (item, span) in enumerate(zip(value, value.item_spans, strict=False)):
                spans[f"{p}/{i}"] = span
                raw_node_spans(item, f"{p}/{i}", spans)
        elif kind in ("schema_map", "dependencies") and isinstance(value, YMap):
            for k, item in value.items():
                spans[f"{p}/{pointer_token(k)}"] = value.key_spans[k]
                raw_node_spans(item, f"{p}/{pointer_token(k)}", spans)
