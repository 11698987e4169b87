"""The states of questions (approvals, a handler's own): signed under a key ring, bound to
one call and one principal, expiring, redeemed once; the memory of used nonces bounded."""

from __future__ import annotations

from typing import Any

import pytest
from toolc.runtime.mcp_server.approval_state import (
    APPROVAL,
    MAX_STATE_CHARS,
    QUESTIONS,
    ApprovalStates,
    MemoryNonces,
    NoncesFull,
    StateRefused,
)

pytestmark = pytest.mark.anyio
OLD, NEW = b"o" * 32, b"n" * 32
ARGS: dict[str, Any] = {"text": "users", "times": 2}


async def reason(states: ApprovalStates, state: str, tool: str = "dropAll",
                 args: dict[str, Any] = ARGS, principal: str | None = None) -> str | None:
    try:
        await states.redeem(state, tool, args, principal)
    except StateRefused as refused:
        return refused.reason
    return None


async def test_a_state_is_redeemed_once_for_its_call_and_principal() -> None:
    states = ApprovalStates()
    state = states.issue("dropAll", ARGS, "alice")
    assert await reason(states, state, args={"times": 2, "text": "users"}, principal="bob") \
        == "other call"
    assert await reason(states, state, tool="dropSome", principal="alice") == "other call"
    assert await reason(states, state, principal=None) == "other call"
    assert await reason(states, state, principal="alice") is None  # key order is not the call
    assert await reason(states, state, principal="alice") == "used"


async def test_keys_rotate_the_first_signing_every_one_verifying() -> None:
    before = ApprovalStates([OLD]).issue("dropAll", ARGS, None)
    during = ApprovalStates([NEW, OLD])
    assert await reason(during, before) is None
    assert await reason(ApprovalStates([NEW]), during.issue("dropAll", ARGS, None)) is None
    assert await reason(ApprovalStates([NEW]), ApprovalStates([OLD]).issue("dropAll", ARGS, None)) \
        == "other key"
    assert await reason(ApprovalStates([OLD], audience="desk"),
                        ApprovalStates([OLD], audience="shop").issue("dropAll", ARGS, None)) \
        == "other call"


@pytest.mark.parametrize("state", ["", "v1.", "v2.e30.AAAA", "v1.e30", "v1.e30.!!", "v1.ü.AA",
                                   "v1." + "A" * MAX_STATE_CHARS + ".AA"])
async def test_what_toolc_did_not_make_is_malformed(state: str) -> None:
    assert await reason(ApprovalStates(), state) == "malformed"


def test_keys_shorter_than_32_bytes_and_bad_expiries_are_refused() -> None:
    with pytest.raises(ValueError, match="at least 32 bytes; key 2 of 2 is 5"):
        ApprovalStates([OLD, b"short"])
    with pytest.raises(ValueError, match="positive number of seconds"):
        ApprovalStates(ttl=0)


async def test_the_nonce_memory_forgets_only_what_expired_and_refuses_beyond_its_limit() -> None:
    now = [0.0]
    nonces = MemoryNonces(limit=2, clock=lambda: now[0])
    assert await nonces.claim("a", 10) and await nonces.claim("b", 20)
    assert not await nonces.claim("a", 10)
    with pytest.raises(NoncesFull, match="2 approvals are in their expiry window"):
        await nonces.claim("c", 30)
    now[0] = 10.0  # "a" expired: forgotten, room for "c"
    assert await nonces.claim("c", 30) and len(nonces) == 2
    assert not await nonces.claim("b", 20)


async def test_a_store_that_cannot_tell_refuses_the_call() -> None:
    class Down:
        async def claim(self, nonce: str, expires: float) -> bool:
            raise ConnectionError("the store is down")

    states = ApprovalStates(used=Down())
    with pytest.raises(StateRefused) as refused:
        await states.redeem(states.issue("dropAll", ARGS, None), "dropAll", ARGS, None)
    assert (refused.value.reason, refused.value.detail) == (
        "unrecorded", "ConnectionError: the store is down")


async def test_a_state_carries_what_it_was_given_and_counts_for_its_own_kind_only() -> None:
    states = ApprovalStates()
    carried = {"asked": {"toolc/ask/0": "d1"}, "approved": True}
    state = states.issue("dropAll", ARGS, None, kind=QUESTIONS, carried=carried)
    assert (states.kind_of(state), states.kind_of(states.issue("dropAll", ARGS, None))) == (
        QUESTIONS, APPROVAL)
    assert await reason(states, state) == "other call"  # not an approval
    assert await states.redeem(state, "dropAll", ARGS, None, kind=QUESTIONS) == carried
    assert await states.redeem(states.issue("dropAll", ARGS, None), "dropAll", ARGS, None) == {}


@pytest.mark.parametrize("state", ["", "v1.e30", "v1.!!.AA", "v1.W10.AA", "x" * 10])
def test_the_kind_of_what_toolc_did_not_make_is_none(state: str) -> None:
    assert ApprovalStates.kind_of(state) is None
