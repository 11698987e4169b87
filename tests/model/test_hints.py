"""The common mistakes behind an unknown key, recognised (the fixtures show them said:
tests/fixtures/invalid/TC101-with-a-hint-*, TC103-key-one-level-too-deep,
TC202-tool-key-under-params)."""

from __future__ import annotations

import pytest
from toolc.loader import YMap, load_text
from toolc.model.hints import SCHEMA, TOOL, TOOLSET, TOP, comma_split, entry_note, unknown_key_note


def flow(text: str) -> tuple[YMap, str]:
    source = f"p: {text}\n"
    node = load_text(source, "s.yaml").data["p"]
    assert isinstance(node, YMap)
    return node, source


def test_a_value_cut_by_commas_is_one_mistake_said_at_the_first_comma() -> None:
    node, text = flow("{type: string, description: One, two, three, minimum: 1}")
    first = comma_split(node, "two", text)
    assert first is not None and first.first
    assert (first.comma.line, first.comma.col) == (1, 35)
    assert first.pieces == ("two", "three") and first.text == "One, two, three"
    assert first.message() == ("a `,` ends the `description` text in this one-line mapping, "
                               "so 'two' and 'three' are read as keys of their own")
    later = comma_split(node, "three", text)
    assert later is not None and not later.first  # said with the first


@pytest.mark.parametrize("text", [
    '{type: string, description: "One", two}',   # a quoted value ends where it says
    "{type: string, two, description: One}",      # nothing before it to cut
    "{type: string, description: One, two: 2}",   # a key with a value of its own
])
def test_what_a_comma_did_not_cut_is_not_said_so(text: str) -> None:
    node, source = flow(text)
    assert comma_split(node, "two", source) is None


def test_a_block_mapping_has_no_comma_to_blame() -> None:
    source = "p:\n  description: One\n  two:\n"
    node = load_text(source, "s.yaml").data["p"]
    assert comma_split(node, "two", source) is None


@pytest.mark.parametrize(("level", "key", "value", "beside", "note"), [
    (TOOL, "approval_required", True, None, ("`approval_required` is a toolset kind; for this "
     "tool to pause for approval before it runs, write `requires_approval: true`")),
    (TOP, "approval_required", None, None,
     ("`approval_required` is a toolset kind: write it under `toolsets:` as "
     "`kind: approval_required`")),
    (TOP, "params", None, None, ("`params` is a key of a tool, not of the top level: it goes "
     "under `tools:`, in the tool's own mapping")),
    (SCHEMA, "handler", "x", "returns", ("`handler` is a key of a tool, not of a schema: move "
     "it up to the tool, beside `returns:`")),
    (TOOLSET, "servers", {}, None, "`servers` is a key of the `mcp_manager` kind"),
    (TOOLSET, "description", "x", None,
     "`description` is a key of a tool or the top level, not of a toolset"),
    (TOOL, "enum", [], None, ("`enum` is a schema keyword: a tool's parameters go under "
     "`params:`")),
    (TOP, "enum", [], None, "`enum` is a schema keyword: named schemas go under `types:`"),
    (TOOL, "colour", "red", None, None),
])
def test_a_word_of_another_level_says_where_it_belongs(level: str, key: str, value: object,
                                                      beside: str | None,
                                                      note: str | None) -> None:
    assert unknown_key_note(level, key, value, beside) == note


def test_a_mapping_at_the_top_that_looks_like_a_tool_goes_under_tools() -> None:
    tool = load_text("t: {description: Read., handler: a:b}\n", "s.yaml").data["t"]
    assert unknown_key_note(TOP, "read", tool) == (
        "`read` looks like a tool: it goes under `tools:`, in the tool's own mapping")


def test_an_entry_named_like_a_key_of_the_level_above() -> None:
    assert entry_note("params", "returns") == (
        "`returns` here names a parameter; the tool's own `returns` goes one level up, beside "
        "`params:`")
    assert entry_note("toolsets", "export") == (
        "`export` here names a toolset; the spec's own `export` goes one level up, beside "
        "`toolsets:`")
    assert entry_note("params", "path") is None
