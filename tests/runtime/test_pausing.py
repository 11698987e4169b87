"""The approval gate: pause, run, or the denial result."""

from __future__ import annotations

import pytest
import toolc.runtime as rt
from toolc.runtime.pausing import approval_gate


def test_no_answer_pauses_with_the_request() -> None:
    ctx = rt.RunContext(deps=None, tool_call_id="call-7")
    with pytest.raises(rt.ApprovalRequiredError) as info:
        approval_gate(ctx, "saveNote", {"text": "hi"})
    assert info.value.requests == [rt.DeferredToolRequest("call-7", "saveNote", {"text": "hi"})]
    assert "saveNote (call call-7)" in str(info.value)


def test_a_call_without_an_id_gets_a_fresh_one() -> None:
    with pytest.raises(rt.ApprovalRequiredError) as first:
        approval_gate(rt.RunContext.empty(), "t", {})
    with pytest.raises(rt.ApprovalRequiredError) as second:
        approval_gate(rt.RunContext.empty(), "t", {})
    ids = {first.value.requests[0].call_id, second.value.requests[0].call_id}
    assert len(ids) == 2 and all(ids)


def test_approved_runs_with_the_original_or_overridden_args() -> None:
    args = {"text": "hi"}
    ctx = rt.RunContext(deps=None, tool_call_id="c", approvals={"c": rt.Approved()})
    assert approval_gate(ctx, "t", args) is args
    ctx = ctx.resume(approvals={"c": rt.Approved(override_args={"text": "bye"})})
    assert approval_gate(ctx, "t", args) == {"text": "bye"}


def test_denied_is_an_error_result_the_model_can_read() -> None:
    ctx = rt.RunContext(deps=None, tool_call_id="c", approvals={"c": rt.Denied("too risky")})
    result = approval_gate(ctx, "dropTable", {})
    assert isinstance(result, rt.ToolResult) and result.is_error
    assert result.text_content == "The call to 'dropTable' was not run: too risky"


def test_an_answer_for_another_call_does_not_count() -> None:
    ctx = rt.RunContext(deps=None, tool_call_id="mine", approvals={"other": rt.Approved()})
    with pytest.raises(rt.ApprovalRequiredError):
        approval_gate(ctx, "t", {})


def test_a_wrong_answer_type_is_a_clear_type_error() -> None:
    ctx = rt.RunContext(deps=None, tool_call_id="c", approvals={"c": True})  # type: ignore[dict-item]
    with pytest.raises(TypeError, match=r"ctx.approvals\['c'\] must be Approved"):
        approval_gate(ctx, "t", {})
