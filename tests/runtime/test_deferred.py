from __future__ import annotations

import toolc.runtime as rt


def test_with_tool_names_keeps_the_kind_of_pause() -> None:
    paused = rt.ExternalCallRequired([rt.DeferredToolRequest("c", "run", {"a": 1})])
    renamed = paused.with_tool_names(lambda n: "ext_" + n)
    assert type(renamed) is rt.ExternalCallRequired
    assert renamed.requests == [rt.DeferredToolRequest("c", "ext_run", {"a": 1})]


def test_both_pauses_share_one_base_class() -> None:
    """`except DeferredCallError` handles approvals and external calls alike (issue 16)."""
    from toolc.runtime.deferred import (
        ApprovalRequiredError,
        DeferredCallError,
        DeferredToolRequest,
        ExternalCallRequired,
    )

    request = [DeferredToolRequest("c1", "t", {})]
    for pause in (ApprovalRequiredError(request), ExternalCallRequired(request)):
        try:
            raise pause
        except DeferredCallError as caught:
            assert caught.requests == request
    assert not issubclass(ExternalCallRequired, ApprovalRequiredError)
