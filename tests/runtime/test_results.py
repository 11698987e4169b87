from __future__ import annotations

import json

import pytest
import toolc.runtime as rt
from pydantic import BaseModel, Field
from toolc.runtime.results import (
    UnknownToolResult,
    block_from_wire,
    restate_unknown,
    to_tool_result,
)
from toolc.runtime.validation import Validator

LINE_SCHEMA = Validator({"type": "object", "properties": {"line": {"type": "integer"}},
                         "required": ["line"]})


class Line(BaseModel):
    line: int = Field(description="Line number.")
    note: str | None = None


def test_str_is_one_text_block() -> None:
    result = to_tool_result("hello", "t")
    assert result == rt.ToolResult([rt.TextContent("hello")])


def test_dict_is_structured_with_a_json_text_rendering() -> None:
    result = to_tool_result({"line": 3, "ü": "é"}, "t")
    assert result.structured_content == {"line": 3, "ü": "é"}
    assert result.text_content == '{"line": 3, "ü": "é"}'
    assert not result.is_error


def test_model_is_structured_leaving_out_what_the_handler_did_not_set() -> None:
    assert to_tool_result(Line(line=4), "t").structured_content == {"line": 4}
    assert to_tool_result(Line(line=4, note=None), "t").structured_content == {
        "line": 4,
        "note": None,
    }


def test_dict_is_validated_against_the_output_schema_and_never_converted() -> None:
    assert to_tool_result({"line": 5}, "t", LINE_SCHEMA).structured_content == {"line": 5}
    bad = to_tool_result({"line": "5"}, "saveNote", LINE_SCHEMA)  # no "5" -> 5 behind its back
    assert bad.is_error and bad.structured_content is None
    assert bad.text_content == (
        "saveNote returned a result that does not match its output schema:\n"
        '- line: "5" is not of type "integer"')


def test_a_model_is_validated_as_the_json_it_becomes() -> None:
    class Other(BaseModel):
        line: str

    assert to_tool_result(Line(line=6), "t", LINE_SCHEMA).structured_content == {"line": 6}
    assert to_tool_result(Other(line="6"), "t", LINE_SCHEMA).is_error


def test_a_result_that_is_not_json_is_an_error() -> None:
    result = to_tool_result({"when": object()}, "t", LINE_SCHEMA)
    assert result.is_error


def test_content_blocks_pass_as_they_are() -> None:
    image = rt.ImageContent("AAAA", "image/png")
    assert to_tool_result(image, "t").content == [image]
    blocks = [rt.TextContent("a"), rt.ResourceLink("file:///x", "x")]
    assert to_tool_result(blocks, "t").content == blocks


def test_a_tool_result_passes_as_it_is() -> None:
    explicit = rt.ToolResult.error("note too long")
    assert to_tool_result(explicit, "t") is explicit


def test_other_json_values_become_text_and_the_rest_an_error() -> None:
    assert to_tool_result([1, 2], "t").text_content == "[1, 2]"
    assert to_tool_result(None, "t").text_content == "null"
    bad = to_tool_result(object(), "weird")
    assert bad.is_error and bad.text_content == (
        "weird returned a object, which is not a valid tool result"
    )
    assert to_tool_result({"x": object()}, "t").is_error


BLOCKS = [
    rt.TextContent("hi", annotations={"audience": ["user"]}, meta={"k": 1}),
    rt.ImageContent("aW1n", "image/png"),
    rt.AudioContent("YXVk", "audio/wav"),
    rt.EmbeddedResource("file:///a.txt", text="body", mime_type="text/plain"),
    rt.EmbeddedResource("file:///a.bin", blob="AAEC"),
    rt.ResourceLink("file:///b", "b", title="B", description="d", mime_type="text/x", size=3),
]


@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: type(b).__name__)
def test_blocks_round_trip_through_the_wire_shape(block: rt.ContentBlock) -> None:
    assert block_from_wire(json.loads(json.dumps(block.to_wire()))) == block


def test_wire_shapes_are_mcp_shapes() -> None:
    assert BLOCKS[1].to_wire() == {"type": "image", "data": "aW1n", "mimeType": "image/png"}
    assert BLOCKS[3].to_wire() == {
        "type": "resource",
        "resource": {"uri": "file:///a.txt", "mimeType": "text/plain", "text": "body"},
    }
    assert BLOCKS[0].to_wire()["_meta"] == {"k": 1}
    result = rt.ToolResult.structured({"a": 1})
    assert result.to_wire() == {
        "content": [{"type": "text", "text": '{"a": 1}'}],
        "structuredContent": {"a": 1},
        "isError": False,
    }
    assert rt.ToolResult.from_wire(result.to_wire()) == result


def test_unknown_block_type_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown content block type 'video'"):
        block_from_wire({"type": "video"})


def test_unknown_tool_results_are_restated_with_the_callers_name() -> None:
    inner = UnknownToolResult("note")
    outer = restate_unknown(inner, "wb_note")
    assert outer.is_error and outer.text_content == "Unknown tool 'wb_note'."
    plain = rt.ToolResult.error("Unknown tool 'note'.")
    assert restate_unknown(plain, "wb_note") is plain
