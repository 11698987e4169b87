from __future__ import annotations

import toolc.runtime as rt


def test_empty_context_has_no_deps_and_no_answers() -> None:
    ctx = rt.RunContext.empty()
    assert (ctx.deps, ctx.step, ctx.tool_call_id) == (None, 0, None)
    assert dict(ctx.approvals) == {} and dict(ctx.external_results) == {}


def test_for_call_keeps_the_turn_memo() -> None:
    ctx = rt.RunContext(deps={"user": "ada"}, step=3)
    ctx.turn_memo["seen"] = 1
    call = ctx.for_call("call-1")
    assert call.tool_call_id == "call-1" and call.step == 3 and call.deps == {"user": "ada"}
    assert call.turn_memo is ctx.turn_memo


def test_for_call_keeps_the_answers_and_a_subclass_with_its_own_fields() -> None:
    import dataclasses

    answers = {"c": rt.Approved()}
    ctx = rt.RunContext(deps=None, approvals=answers, external_results={"x": "done"})
    call = ctx.for_call("c")
    assert call.approvals is answers and dict(call.external_results) == {"x": "done"}

    @dataclasses.dataclass(slots=True)
    class Traced(rt.RunContext[None]):
        trace: str = "t0"

    traced = Traced(deps=None, trace="t1").for_call("c2")
    assert type(traced) is Traced and traced.trace == "t1" and traced.tool_call_id == "c2"


def test_next_turn_starts_fresh() -> None:
    ctx = rt.RunContext(deps="d", step=1, tool_call_id="c", approvals={"c": rt.Approved()})
    ctx.turn_memo["seen"] = 1
    nxt = ctx.next_turn()
    assert (nxt.deps, nxt.step, nxt.tool_call_id) == ("d", 2, None)
    assert nxt.turn_memo == {} and dict(nxt.approvals) == {}


def test_resume_carries_answers_and_keeps_the_rest() -> None:
    ctx = rt.RunContext(deps=None, step=2, tool_call_id="c")
    resumed = ctx.resume(approvals={"c": rt.Denied("no")}, external_results={"x": "done"})
    assert resumed.approvals == {"c": rt.Denied("no")}
    assert resumed.external_results == {"x": "done"}
    assert (resumed.step, resumed.tool_call_id) == (2, "c")
    assert resumed.resume(external_results={}).approvals == {"c": rt.Denied("no")}
