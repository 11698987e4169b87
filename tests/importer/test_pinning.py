"""MCP tools -> pinned tools: every field where it belongs, nothing added or lost."""

from __future__ import annotations

import pytest
from toolc.importer.listing import ImportFailure, Server
from toolc.importer.pinning import identifier, manager_spec, pinned_tool, pinned_tools, server_spec


def test_known_fields_take_their_spec_keys_in_a_fixed_order() -> None:
    tool = {"_meta": {"m": 1}, "inputSchema": {"type": "object"}, "name": "t",
            "annotations": {"readOnlyHint": True}, "description": "D", "title": "T",
            "outputSchema": {"type": "object"}}
    entry = pinned_tool(tool, "here")
    assert list(entry) == ["title", "description", "annotations", "input_schema",
                           "output_schema", "meta"]
    assert entry["meta"] == {"m": 1} and entry["input_schema"] == {"type": "object"}


def test_other_fields_and_known_fields_of_another_type_go_to_extra_as_given() -> None:
    tool = {"name": "t", "inputSchema": {"type": "object"}, "title": None, "description": 3,
            "icons": [{"src": "x"}], "_meta": None, "x-vendor": {"a": [1]}}
    entry = pinned_tool(tool, "here")
    assert entry == {"input_schema": {"type": "object"},
                     "extra": {"title": None, "description": 3, "icons": [{"src": "x"}],
                               "_meta": None, "x-vendor": {"a": [1]}}}


def test_nothing_is_made_up_for_what_the_server_leaves_out() -> None:
    assert pinned_tool({"name": "t", "inputSchema": {}}, "here") == {"input_schema": {}}


@pytest.mark.parametrize("schema", [None, [], True, "object"])
def test_a_tool_without_an_object_input_schema_is_refused(schema: object) -> None:
    tool = {"name": "t"} if schema is None else {"name": "t", "inputSchema": schema}
    with pytest.raises(ImportFailure, match=r"here: tool 't' has .*inputSchema"):
        pinned_tool(tool, "here")


def test_a_name_listed_twice_is_refused() -> None:
    tools = [{"name": "a", "inputSchema": {}}, {"name": "a", "inputSchema": {}}]
    with pytest.raises(ImportFailure, match="server x lists tool 'a' twice"):
        pinned_tools(tools, "server x")


@pytest.mark.parametrize(("text", "expected"), [
    ("everything-server", "everything_server"), ("My Server!", "my_server"),
    ("3d", "server_3d"), ("class", "class_"), ("", "server"), ("@scope/pkg", "scope_pkg"),
    ("toolset", "toolset_")])
def test_identifiers(text: str, expected: str) -> None:
    assert identifier(text) == expected
    assert identifier(text, taken={expected}) == f"{expected}_2"


def test_specs_of_one_server_and_of_a_config() -> None:
    one = Server("a", stdio={"command": "run", "args": ["-x"]})
    two = Server("servers", http={"url": "http://h/mcp"})
    spec = server_spec("mod", "server", one, {"t": {"input_schema": {}}})
    assert spec["toolsets"]["server"] == {"kind": "mcp", "stdio": {"command": "run",
                                          "args": ["-x"]}, "tools": {"t": {"input_schema": {}}}}
    assert spec["export"] == "server"
    both = manager_spec("mod", [(one, {}), (two, {})], "cfg.json")
    assert list(both["toolsets"]) == ["a", "servers_2", "servers"]
    assert both["toolsets"]["servers"] == {"kind": "mcp_manager",
                                           "servers": {"a": "a", "servers": "servers_2"}}
