"""What a handler may ask of whoever made the call: the contract, and where it is missing.

A handler reaches these through its `RunContext` (`await ctx.report_progress(...)`,
`ctx.log(...)`, `ctx.elicit(...)`, `ctx.sample(...)`, `ctx.cancelled`); the context
hands them to its `client`, a `CallClient`:

- served over MCP (`toolc serve`, `rt.to_mcp_server`, the Claude Agent SDK's in-process
  server) the client is the MCP client of the call (`toolc.runtime.mcp_server.served_client`),
  in either protocol era;
- in process (`toolset.call_tool(ctx, ...)`, the adapters) there is none unless the
  caller gives one (`RunContext(deps, client=...)`, a subclass of `CallClient`, say with
  canned answers in a test). Then progress goes nowhere (as over MCP when the client
  asked for none), log messages go to Python's `logging` (logger `toolc.client`), and
  a question or a sampling request fails with `ClientUnavailable`, a `ToolError` whose
  message says what is missing and where it works.

The records are toolc's own, in MCP's JSON shapes: `Elicited` (the user's action and the
form's content) and `Sampled` (the client model's message).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from toolc.runtime.failures import ToolError

LogLevel = Literal["debug", "info", "notice", "warning", "error", "critical", "alert",
                   "emergency"]
LOG_LEVELS: tuple[LogLevel, ...] = ("debug", "info", "notice", "warning", "error", "critical",
                                    "alert", "emergency")
# Python's level for each MCP level, where log messages go without a client.
_PYTHON_LEVELS = {"debug": 10, "info": 20, "notice": 25, "warning": 30, "error": 40,
                  "critical": 50, "alert": 50, "emergency": 50}
_SERVED = "toolc serve or rt.to_mcp_server, to an MCP client that supports it"


class ClientUnavailable(ToolError):
    """A handler asked for what nobody here can give (a question to the user, the
    client's model): the message names it and where it works."""


@dataclass(frozen=True, slots=True)
class Elicited:
    """The user's answer to a form (`ctx.elicit`).

    Attributes:
        action: `"accept"`, `"decline"` or `"cancel"`, as the user answered.
        content: The form's values when accepted (checked against the form's schema by
            `ctx.elicit`); None otherwise.
    """

    action: Literal["accept", "decline", "cancel"]
    content: dict[str, Any] | None = None

    @property
    def accepted(self) -> bool:
        """Whether the user filled in the form and sent it (`action` is "accept")."""
        return self.action == "accept"


@dataclass(frozen=True, slots=True)
class Sampled:
    """The client model's answer (`ctx.sample`).

    Attributes:
        role: Who speaks in it: `"assistant"`.
        content: Its blocks in MCP's JSON shape (`{"type": "text", "text": ...}`,
            images, ...).
        model: The name of the model that answered.
        stop_reason: Why it stopped (`"endTurn"`, `"maxTokens"`, ...), when said.
    """

    role: str
    content: list[dict[str, Any]]
    model: str
    stop_reason: str | None = None

    @property
    def text(self) -> str:
        """The text blocks, joined."""
        return "".join(str(b.get("text", "")) for b in self.content if b.get("type") == "text")


def sampling_messages(messages: str | Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A prompt as MCP sampling messages: a string is one user message of text."""
    if isinstance(messages, str):
        return [{"role": "user", "content": {"type": "text", "text": messages}}]
    return [dict(m) for m in messages]


class CallClient:
    """Whoever made a call, as a handler may address it. A subclass overrides what it
    can do; what it leaves is done as without a client (see the module's docstring).

    Every method is a coroutine of the event loop: a plain `def` handler, which runs in
    a worker thread, calls one with `anyio.from_thread.run(ctx.log, "info", "...")`.
    """

    where = "outside an MCP server (this call comes from Python or an agent framework)"
    """Where the call comes from, as the errors say it: "ctx.elicit is not available
    {where}: ..."."""

    async def report_progress(self, progress: float, total: float | None = None,
                              message: str | None = None) -> None:
        """Progress of this call (`progress` of `total`); nothing when nobody asked."""

    async def log(self, level: LogLevel, data: Any, logger: str | None = None) -> None:
        """A log message for the caller at MCP `level` (`data`: any JSON value)."""
        # lazy: logging, only when this runs
        import logging

        logging.getLogger("toolc.client" if logger is None else f"toolc.client.{logger}").log(
            _PYTHON_LEVELS[level], "%s", data)

    async def elicit(self, message: str, schema: Mapping[str, Any]) -> Elicited:
        """Ask the user to fill in a form (`schema`, checked by the context already)."""
        raise ClientUnavailable(
            f"ctx.elicit is not available {self.where}: there is no user to ask (it works "
            f"when the tool is served by {_SERVED}: elicitation)")

    async def sample(self, messages: list[dict[str, Any]], *, max_tokens: int,
                     options: Mapping[str, Any]) -> Sampled:
        """Ask the caller's model (MCP sampling); `options` the request's other fields in
        MCP's JSON shape (`systemPrompt`, `temperature`, ...)."""
        raise ClientUnavailable(
            f"ctx.sample is not available {self.where}: there is no client model to ask "
            f"(it works when the tool is served by {_SERVED}: sampling)")

    def cancel_requested(self) -> bool:
        """Whether the caller has cancelled this call (as the client said it)."""
        return False


NO_CLIENT = CallClient()
