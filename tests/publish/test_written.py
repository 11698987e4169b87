"""Where each part of a schema published as written (an external or pinned tool's) sits in
the spec: the places toolc's own schemas get from the writer."""

from __future__ import annotations

from toolc.diagnostics import Span
from toolc.loader import load_text
from toolc.publish.written import raw_description_spans, raw_node_spans

SCHEMA = """\
type: object
description: Top.
properties:
  a/b: {type: string, description: A.}
  list:
    type: array
    prefixItems:
      - {description: First.}
    items: {description: Items.}
"""


def test_every_description_of_a_raw_schema_is_placed() -> None:
    spans: dict[str, Span] = {}
    raw_description_spans(load_text(SCHEMA, "s.yaml").data, "/inputSchema", spans)
    assert {p: s.line for p, s in spans.items()} == {
        "/inputSchema/description": 2,
        "/inputSchema/properties/a~1b/description": 4,
        "/inputSchema/properties/list/prefixItems/0/description": 8,
        "/inputSchema/properties/list/items/description": 9,
    }


def test_every_node_and_keyword_of_a_raw_schema_is_placed() -> None:
    spans: dict[str, Span] = {}
    raw_node_spans(load_text(SCHEMA, "s.yaml").data, "", spans)
    assert spans["/properties/a~1b"].line == 4
    assert spans["/properties/list/prefixItems/0"][1:3] == (8, 9)  # the item, not its key
    assert spans["/properties/list/items/description"].line == 9
    assert set(spans) == {
        "/type", "/description", "/properties", "/properties/a~1b", "/properties/a~1b/type",
        "/properties/a~1b/description", "/properties/list", "/properties/list/type",
        "/properties/list/prefixItems", "/properties/list/prefixItems/0",
        "/properties/list/prefixItems/0/description", "/properties/list/items",
        "/properties/list/items/description"}
