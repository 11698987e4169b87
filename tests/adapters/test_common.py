"""toolc.adapters._common: approval names through the runtime's kinds, private schemas."""

from __future__ import annotations

from toolc import runtime as rt
from toolc.adapters._common import approval_names, published_schema


def tool(name: str, *, approval: bool = False) -> rt.Tool:
    return rt.Tool(name, f"{name}.", handler=lambda ctx: name,
                   input_schema={"type": "object"}, requires_approval=approval)


def test_approval_names_follow_prefixes_renames_and_combinations() -> None:
    own = rt.FunctionToolset([tool("read"), tool("write", approval=True)])
    guarded = rt.ApprovalRequiredToolset(rt.FunctionToolset([tool("drop"), tool("purge")]))
    combined = rt.CombinedToolset([
        rt.PrefixedToolset(own, "a_"),
        rt.RenamedToolset(guarded, {"drop": "remove"}),
        rt.ExternalToolset([rt.ExternalTool("open", "Open.", {"type": "object"})]),
    ])
    assert approval_names(combined) == {"a_write", "remove", "purge"}
    assert approval_names(rt.FilteredToolset(own, lambda ctx: True)) == {"write"}


def test_published_schema_is_an_equal_private_copy() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string", "description": "A."}}}
    definition = rt.ToolDefinition("t", "T.", schema)
    copied = published_schema(definition)
    assert copied == schema and copied is not schema
    copied["properties"]["a"]["description"] = "changed by a framework"
    assert schema["properties"]["a"]["description"] == "A."
