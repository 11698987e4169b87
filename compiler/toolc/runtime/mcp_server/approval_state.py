"""The `requestState` of a question (2026-07-28): signed, expiring, used once.

The server asks by answering a call with the question and a state; the client calls
again with the answer and the state, byte for byte. A question is toolc's approval
(kind `approval`) or a handler's own (`questions`: a form or a sampling request, through
`RunContext`; its state carries the answers of earlier rounds and whether the call was
approved, see `served_client.py`). Everything in the state comes back from the client,
so it is signed, and it says which call it was asked about:

    v1.<claims>.<mac>     claims: base64url JSON; mac: HMAC-SHA256 of "v1.<claims>"

The claims are the tool's name and a digest of its arguments (an answer counts only for
the call it was asked about), the server's name (two services sharing a key do not
accept each other's), the principal's digest when the server checks bearer tokens (one
user's answer is not another's), an expiry and a random nonce. Redeeming a state checks
all of them and then claims its nonce: a state answers one call, and the same request
sent again (a replay, a retry after the answer was used) is refused.

Keys: the first of `keys` signs, every one verifies (rotation: `[old, new]`, then
`[new, old]`, then `[new]` after one expiry). Without keys, a random key of this process
(a restart, or another replica, refuses its states); replicas behind a balancer share
theirs. Used nonces are remembered until their state expires, in this process by default
(`MemoryNonces`, bounded); a store shared by the replicas makes "once" hold across them.
"""

from __future__ import annotations

import base64
import hashlib
import heapq
import hmac
import json
import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

MIN_KEY_BYTES = 32
DEFAULT_TTL_S = 600.0
# An approval's state is about 300 characters; a handler's questions carry their answers
# (a sampled message), so theirs grows with them. Longer is not one toolc made.
MAX_STATE_CHARS = 256 * 1024
_PREFIX = "v1."
APPROVAL, QUESTIONS = "approval", "questions"  # the kinds of state


class NoncesFull(Exception):
    """The nonce memory holds its limit of unexpired nonces: nothing more can be redeemed."""


class UsedNonces(Protocol):
    """Where redeemed nonces are remembered until they expire."""

    async def claim(self, nonce: str, expires: float) -> bool:
        """Mark `nonce` used until `expires` (a `time.time()` value): True the first time,
        False when it was claimed before. Raise when it cannot tell (the call is refused)."""
        ...


class MemoryNonces:
    """Used nonces in this process's memory, each kept until its state expires, `limit`
    at most: at the limit of unexpired ones, `claim` raises `NoncesFull` (refusing is
    safe; forgetting one early would let its state be replayed).

    Attributes:
        limit: How many unexpired nonces it holds at most.
    """

    def __init__(self, limit: int = 100_000, clock: Callable[[], float] = time.time) -> None:
        self.limit = limit
        self._clock = clock
        self._used: set[str] = set()
        self._expiry: list[tuple[float, str]] = []  # a heap: the soonest expiry first

    async def claim(self, nonce: str, expires: float) -> bool:
        """Mark `nonce` used until `expires`: True the first time, False when it was
        claimed before; raises `NoncesFull` at the limit."""
        now = self._clock()
        while self._expiry and self._expiry[0][0] <= now:
            self._used.discard(heapq.heappop(self._expiry)[1])
        if nonce in self._used:
            return False
        if len(self._used) >= self.limit:
            raise NoncesFull(f"{self.limit} approvals are in their expiry window")
        self._used.add(nonce)
        heapq.heappush(self._expiry, (expires, nonce))
        return True

    def __len__(self) -> int:
        return len(self._used)


class StateRefused(Exception):
    """A state that does not let the call run; `reason` is one of REASONS."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.detail = detail


REASONS = ("malformed", "other key", "other call", "expired", "used", "unrecorded")


class ApprovalStates:
    """Makes and redeems the states of questions (approvals, a handler's own) under one
    key ring.

    Args:
        keys: The key ring, each key at least 32 bytes: the first signs, every one
            verifies (rotate as `[old, new]`, then `[new, old]`, then `[new]`). None: a
            random key of this process, so another process refuses its states.
        ttl: How long an answer holds after its question, in seconds.
        audience: The name states are signed for (the states `to_mcp_server` makes
            when given none are signed for the server's name).
        used: Where redeemed nonces are remembered: an object with `async def
            claim(nonce, expires) -> bool` (True the first time); `MemoryNonces` by
            default. A store the replicas share makes "once" hold across them.
        clock: The time, as `time.time()` gives it.

    Raises:
        ValueError: A key shorter than 32 bytes, or a `ttl` that is not positive.

    Attributes:
        shared: Whether the keys were given (replicas share them); False: a key of this
            process only.
        ttl: How long an answer holds after its question, in seconds.
        audience: The name states are signed for; another audience's are refused.
        used: Where redeemed nonces are remembered (`MemoryNonces` by default).
    """

    def __init__(self, keys: Sequence[bytes] | None = None, *, ttl: float = DEFAULT_TTL_S,
                 audience: str = "toolc", used: UsedNonces | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        ring = list(keys) if keys else [secrets.token_bytes(MIN_KEY_BYTES)]
        short = [i for i, key in enumerate(ring) if len(key) < MIN_KEY_BYTES]
        if short:
            raise ValueError(f"a state key must be at least {MIN_KEY_BYTES} bytes; key "
                             f"{short[0] + 1} of {len(ring)} is {len(ring[short[0]])}")
        if not ttl > 0:
            raise ValueError(f"the approval expiry must be a positive number of seconds: {ttl}")
        self.shared = bool(keys)  # False: a key of this process only
        self.ttl = ttl
        self.audience = audience
        self.used: UsedNonces = used if used is not None else MemoryNonces(clock=clock)
        self._ring = ring
        self._clock = clock

    def issue(self, tool: str, args: dict[str, Any], principal: str | None, *,
              kind: str = APPROVAL, carried: dict[str, Any] | None = None) -> str:
        """The state of a question about this call, valid for `ttl` seconds; `carried`
        (JSON) comes back from `redeem`."""
        claims: dict[str, Any] = {
            "k": kind, "aud": self.audience, "t": tool, "a": _digest(args),
            "exp": round(self._clock() + self.ttl, 3), "n": _b64(secrets.token_bytes(16))}
        if principal is not None:
            claims["p"] = _digest(principal)
        if carried:
            claims["c"] = carried
        body = _PREFIX + _b64(json.dumps(claims, separators=(",", ":")).encode())
        return f"{body}.{_b64(_mac(self._ring[0], body))}"

    async def redeem(self, state: str, tool: str, args: dict[str, Any],
                     principal: str | None, *, kind: str = APPROVAL) -> dict[str, Any]:
        """Accept `state` for this call once: what it carried; raises `StateRefused`
        saying why not."""
        claims = self._verified(state)
        expected = {"k": kind, "aud": self.audience, "t": tool, "a": _digest(args),
                    "p": None if principal is None else _digest(principal)}
        if any(claims.get(key) != value for key, value in expected.items()):
            raise StateRefused("other call")
        expires, nonce, carried = claims.get("exp"), claims.get("n"), claims.get("c", {})
        if not isinstance(expires, int | float) or not isinstance(nonce, str) \
                or not isinstance(carried, dict):
            raise StateRefused("malformed")
        if not self._clock() < expires:
            raise StateRefused("expired")
        try:
            fresh = await self.used.claim(nonce, float(expires))
        except Exception as exc:  # a store that cannot tell: refuse, say why
            raise StateRefused("unrecorded", f"{type(exc).__name__}: {exc}") from exc
        if not fresh:
            raise StateRefused("used")
        return carried

    @staticmethod
    def kind_of(state: str) -> str | None:
        """The kind `state` says it is, unverified (to route it: `redeem` verifies);
        None when it is not one toolc made."""
        body, dot, _ = state.rpartition(".")
        if len(state) > MAX_STATE_CHARS or not dot or not body.startswith(_PREFIX):
            return None
        try:
            claims = json.loads(_unb64(body[len(_PREFIX):]))
        except ValueError:
            return None
        kind = claims.get("k") if isinstance(claims, dict) else None
        return kind if isinstance(kind, str) else None

    def _verified(self, state: str) -> dict[str, Any]:
        body, dot, mac = state.rpartition(".")
        if (len(state) > MAX_STATE_CHARS or not state.isascii() or not dot
                or not body.startswith(_PREFIX)):
            raise StateRefused("malformed")
        try:
            given = _unb64(mac)
        except ValueError:
            raise StateRefused("malformed") from None
        if not any(hmac.compare_digest(given, _mac(key, body)) for key in self._ring):
            raise StateRefused("other key")
        try:
            claims = json.loads(_unb64(body[len(_PREFIX):]))
        except ValueError:
            raise StateRefused("malformed") from None
        if not isinstance(claims, dict):
            raise StateRefused("malformed")
        return claims


def _mac(key: bytes, body: str) -> bytes:
    return hmac.new(key, body.encode("ascii"), hashlib.sha256).digest()


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))  # ASCII: total
    return _b64(hashlib.sha256(text.encode()).digest()[:16])


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    """Strictly the inverse of `_b64` (ValueError otherwise)."""
    if not text.isascii():
        raise ValueError("not base64url")
    raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    if _b64(raw) != text:
        raise ValueError("not canonical base64url")
    return raw
