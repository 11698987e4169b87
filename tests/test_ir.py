"""toolc.ir: a tool's published form is the runtime's wire shape."""

from __future__ import annotations

from toolc.diagnostics import Span
from toolc.ir import ToolIR
from toolc.runtime.abstract import ToolDefinition
from toolc.runtime.metakeys import REQUIRES_APPROVAL

SPAN = Span("specs/a.toolc.yaml", 1, 1)


def _tool(**fields: object) -> ToolIR:
    return ToolIR(name="readLog", module="logs", description="Read.",
                  input_schema={"type": "object"}, span=SPAN, **fields)  # type: ignore[arg-type]


def test_a_compiled_tool_publishes_what_the_runtime_lists() -> None:
    tool = _tool(title="Read log", output_schema={"type": "object"},
                 annotations={"readOnlyHint": True}, meta={"k": 1}, extra={"icons": []})
    listed = ToolDefinition(name="readLog", description="Read.", input_schema={"type": "object"},
                            output_schema={"type": "object"}, title="Read log",
                            annotations={"readOnlyHint": True}, meta={"k": 1},
                            extra={"icons": []})
    assert list(tool.published().items()) == list(listed.published().items())


def test_approval_is_marked_in_meta_and_a_pinned_tool_without_description_has_none() -> None:
    tool = _tool(requires_approval=True, has_description=False, meta={"k": 1})
    assert tool.published() == {"name": "readLog", "inputSchema": {"type": "object"},
                                "_meta": {"k": 1, REQUIRES_APPROVAL: True}}
