"""ToolDefinition and its wire shape."""

from __future__ import annotations

import toolc.runtime as rt


def test_published_has_the_mcp_keys_and_leaves_absent_ones_out() -> None:
    full = rt.ToolDefinition(
        name="readLog",
        description="Read.",
        input_schema={"type": "object"},
        output_schema={"type": "object", "properties": {}},
        title="Read log",
        annotations={"readOnlyHint": True},
        meta={"k": None},
    )
    assert full.published() == {
        "name": "readLog",
        "title": "Read log",
        "description": "Read.",
        "inputSchema": {"type": "object"},
        "outputSchema": {"type": "object", "properties": {}},
        "annotations": {"readOnlyHint": True},
        "_meta": {"k": None},
    }
    bare = rt.ToolDefinition("t", None, {"type": "object"})
    assert bare.published() == {"name": "t", "inputSchema": {"type": "object"}}


def test_extra_fields_are_published_verbatim_after_the_known_keys() -> None:
    extra = {"icons": [{"src": "i.png"}], "x-vendor": {"n": [1, None]}}
    tool = rt.ToolDefinition("t", "d", {"type": "object"}, meta={"k": 1}, extra=extra)
    published = tool.published()
    assert list(published) == ["name", "description", "inputSchema", "_meta", "icons", "x-vendor"]
    assert published["x-vendor"] is extra["x-vendor"]
    assert tool.renamed("u").published()["icons"] == [{"src": "i.png"}]
    assert tool != rt.ToolDefinition("t", "d", {"type": "object"}, meta={"k": 1})


def test_a_known_key_in_extra_is_published_as_given() -> None:
    tool = rt.ToolDefinition("t", None, {"type": "object"}, extra={"title": None})
    assert list(tool.published().items()) == [
        ("name", "t"), ("inputSchema", {"type": "object"}), ("title", None)
    ]


def test_published_shares_the_schemas_it_was_given() -> None:
    schema = {"type": "object"}
    assert rt.ToolDefinition("t", "d", schema).published()["inputSchema"] is schema


def test_renamed_changes_only_the_name() -> None:
    tool = rt.ToolDefinition("a", "d", {"type": "object"}, title="A")
    assert tool.renamed("b") == rt.ToolDefinition("b", "d", {"type": "object"}, title="A")
