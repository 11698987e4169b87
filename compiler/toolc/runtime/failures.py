"""How a failing tool call reads to its caller: `ToolError` as written, anything else masked.

A handler fails on purpose by raising `ToolError("message for the model")` (or returning
an error result): that message is the result, as written, everywhere.

Any other exception is a bug or an accident, and its text may hold paths, addresses or
secrets. Called in-process, the caller is the application itself, so the result says
`"{tool} failed: {type}: {message}"`. Behind a server (`to_mcp_server`, `toolc serve`)
the caller is a remote client: inside `reporting_failures(FailurePolicy(expose=False))`
the result says only `"internal error in tool X (ref N)"`, and the server's log holds the
traceback under the same ref, so the two can be matched.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field

from toolc.runtime.results import ToolResult


def _log(level: str, message: str, *args: object, exc: BaseException) -> None:
    # lazy: only when something failed: importing the runtime stays cheap
    import logging

    getattr(logging.getLogger("toolc.runtime"), level)(message, *args, exc_info=exc)


class ToolError(Exception):
    """Raised by a handler to fail the call with this message: the model reads it as is."""


@dataclass(slots=True)
class FailurePolicy:
    """A server's choice: `expose` the exception's text, or mask it behind a ref."""

    expose: bool = False
    _refs: Iterator[int] = field(default_factory=lambda: itertools.count(1), repr=False)

    def result(self, tool_name: str, exc: BaseException) -> ToolResult:
        if self.expose:
            _log("warning", "tool %s failed", tool_name, exc=exc)
            return _described(tool_name, exc)
        return ToolResult.error(self.masked(f"in tool {tool_name}", exc))

    def masked(self, where: str, exc: BaseException) -> str:
        """"internal error {where} (ref N)", the traceback logged under that ref."""
        ref = next(self._refs)
        _log("error", "internal error %s (ref %d)", where, ref, exc=exc)
        return f"internal error {where} (ref {ref})"


# The policy of the server whose call is running; None: an in-process call.
# (the server's call path sets and resets it by hand, on every served call)
POLICY: ContextVar[FailurePolicy | None] = ContextVar("toolc_failure_policy", default=None)


class reporting_failures:  # named as the context manager it is used as
    """Calls made inside report unexpected exceptions by `policy` (the adapters use it;
    a plain class, cheaper than a generator-based context manager)."""

    __slots__ = ("_policy", "_token")

    def __init__(self, policy: FailurePolicy) -> None:
        self._policy = policy

    def __enter__(self) -> None:
        self._token = POLICY.set(self._policy)

    def __exit__(self, *exc: object) -> None:
        POLICY.reset(self._token)


def failure_result(tool_name: str, exc: BaseException) -> ToolResult:
    """The error result for an exception of user code (a `ToolError`: its message)."""
    if isinstance(exc, ToolError):
        return ToolResult.error(str(exc))
    policy = POLICY.get()
    if policy is not None:
        return policy.result(tool_name, exc)
    _log("warning", "tool %s failed", tool_name, exc=exc)
    return _described(tool_name, exc)


def cannot_run(tool_name: str, exc: Exception) -> ToolResult:
    """A call its toolset could not start: a predicate, a prepare function, a wrapper's
    import or a connection failed. Its text may quote user code, so it is masked alike."""
    policy = POLICY.get()
    if policy is not None and not policy.expose:
        return ToolResult.error(policy.masked(f"in tool {tool_name}", exc))
    return ToolResult.error(f"{tool_name} cannot run: {exc}")


def _described(tool_name: str, exc: BaseException) -> ToolResult:
    return ToolResult.error(f"{tool_name} failed: {type(exc).__name__}: {exc}")
