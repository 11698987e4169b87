"""The canonical key order names every key of the format, each once, where it belongs:
a key added to the spec models must be given its place here (and in spec-format.md)."""

from __future__ import annotations

import pytest
from pydantic import BaseModel
from toolc.formatting.order import (
    CERTIFY,
    CONTEXT,
    EXTERNAL_TOOL,
    HTTP,
    ORDERS,
    PINNED_TOOL,
    STDIO,
    TOOL,
    TOOLSET_KEYS,
    TOP,
    child_place,
    key_order,
    reordered,
)
from toolc.importer.pinning import SPEC_ORDER
from toolc.model.module import CertifyContext, CertifySpec, ModuleSpec
from toolc.model.tools import ExternalToolSpec, PinnedToolSpec, ToolSpec
from toolc.model.toolsets import KINDS, HttpServer, StdioServer, ToolsetSpec


@pytest.mark.parametrize(("place", "model"), [
    (TOP, ModuleSpec), (TOOL, ToolSpec), (EXTERNAL_TOOL, ExternalToolSpec),
    (PINNED_TOOL, PinnedToolSpec), (STDIO, StdioServer), (HTTP, HttpServer),
    (CERTIFY, CertifySpec), (CONTEXT, CertifyContext)])
def test_each_place_orders_exactly_the_keys_of_its_model(place: str,
                                                         model: type[BaseModel]) -> None:
    order = ORDERS[place]
    assert len(set(order)) == len(order)
    assert set(order) == set(model.model_fields)


def test_each_toolset_kind_orders_exactly_its_keys_kind_first() -> None:
    models = {model.model_fields["kind"].annotation.__args__[0]: model  # type: ignore[union-attr]
              for model in ToolsetSpec.__args__}  # type: ignore[attr-defined]
    assert set(TOOLSET_KEYS) == set(KINDS) == set(models)
    for kind, order in TOOLSET_KEYS.items():
        assert order[0] == "kind" and set(order) == set(models[kind].model_fields)


def test_a_pinned_tool_is_ordered_as_toolc_import_writes_it() -> None:
    assert ORDERS[PINNED_TOOL] == (*SPEC_ORDER, "extra")


def test_places_are_found_from_the_top_and_data_is_never_reordered() -> None:
    assert child_place(child_place(TOP, "tools"), "anyTool") == TOOL
    toolsets = child_place(TOP, "toolsets")
    assert child_place(child_place(child_place(toolsets, "x"), "tools", "mcp"), "t") \
        == PINNED_TOOL
    assert child_place(child_place(toolsets, "x"), "tools", "function") is None
    params = child_place(child_place(child_place(TOP, "tools"), "t"), "params")
    assert params is None and child_place(params, "x") is None
    assert key_order(None, ["b", "a"]) == [0, 1]
    assert key_order(TOOL, ["params", "zz", "description", "title"]) == [3, 2, 0, 1]


def test_reordered_data_keeps_the_order_of_everything_below_the_format_s_keys() -> None:
    data = {"tools": {"b": {"params": {"z": {"type": "string", "description": "Z."},
                                       "a": {"description": "A.", "type": "string"}},
                            "description": "B."}},
            "toolc": 1}
    assert reordered(data) == data
    assert list(reordered(data)) == ["toolc", "tools"]
    tool = reordered(data)["tools"]["b"]
    assert list(tool) == ["description", "params"]
    assert list(tool["params"]) == ["z", "a"] and list(tool["params"]["a"]) == [
        "description", "type"]
