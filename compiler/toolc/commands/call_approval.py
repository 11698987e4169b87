"""``toolc call``'s answer to the server's approval question, asked on the terminal.

A tool that requires approval makes the server ask the user through MCP elicitation (a
form with one boolean field, ``toolc.runtime.mcp_server.approval``); the client's
elicitation callback is this. The question is written to stderr, inert (every control
character escaped: it quotes the arguments, and a tool's name comes from a spec), and
the answer is read from stdin, a line: ``y``/``yes`` approves, ``n``/``no``, an empty
line, the end of input or Ctrl-C declines. Without a terminal on stdin nobody can be
asked: the call is declined with a message that says so, unless ``--yes`` approved it
beforehand (a pipe's ``y`` is no one's answer). Any other form (a handler asking for
values) is declined with a message: ``toolc call`` only answers yes or no.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any, TextIO

import mcp_types as types

from .call_output import inert

# Unclear answers are asked again, this many times, before the call is declined.
ASKS = 3
_YES, _NO = frozenset({"y", "yes"}), frozenset({"n", "no", ""})


class TerminalApproval:
    """The elicitation callback of ``toolc call``'s client."""

    def __init__(self, *, yes: bool, stdin: TextIO, err: TextIO) -> None:
        self.yes = yes
        self.stdin = stdin
        self.err = err

    async def __call__(self, context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        self.say(params.message)
        field = confirmation_field(params)
        if field is None:
            self.err.write("toolc call: declined: it answers approval questions (yes or no) "
                           "only, and this one asks for more\n")
            return types.ElicitResult(action="decline")
        if self.yes:
            self.err.write("toolc call: approved by --yes\n")
            return types.ElicitResult(action="accept", content={field: True})
        if not _isatty(self.stdin):
            self.err.write("toolc call: not approved: stdin is not a terminal, so nobody "
                           "can be asked; run it in a terminal, or pass --yes to approve "
                           "it beforehand\n")
            return types.ElicitResult(action="decline")
        if self.ask():
            return types.ElicitResult(action="accept", content={field: True})
        return types.ElicitResult(action="decline")

    def say(self, message: str) -> None:
        self.err.write(f"{inert(message)}\n")

    def ask(self) -> bool:
        """The user's yes (True) or no, read from the terminal; Ctrl-C is a no."""
        try:
            with _ctrl_c_raises():  # from before the prompt shows: a Ctrl-C at once is seen
                return self._answer()
        except KeyboardInterrupt:
            self.err.write("\n")
            return False

    def _answer(self) -> bool:
        for _ in range(ASKS):
            self.err.write("Approve? [y/N] ")
            self.err.flush()
            line = self.stdin.readline()
            if not line:  # the end of input (Ctrl-D)
                self.err.write("\n")
                return False
            answer = line.strip().lower()
            if answer in _YES or answer in _NO:
                return answer in _YES
            self.err.write("please answer y or n\n")
        return False


def confirmation_field(params: types.ElicitRequestParams) -> str | None:
    """The one boolean field of a yes-or-no form (the approval question's ``confirm``),
    or None for any other question."""
    if not isinstance(params, types.ElicitRequestFormParams):
        return None
    properties = params.requested_schema.get("properties")
    if not isinstance(properties, dict) or len(properties) != 1:
        return None
    [(name, schema)] = properties.items()
    return name if isinstance(schema, dict) and schema.get("type") == "boolean" else None


@contextlib.contextmanager
def _ctrl_c_raises() -> Iterator[None]:
    """Ctrl-C raises KeyboardInterrupt in the read: asyncio's runner, whose loop this read
    blocks, only cancels its main task on the first one, and the read would go on."""
    if threading.current_thread() is not threading.main_thread():
        yield  # (signals are the main thread's: nothing to change)
        return
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed stream, or none at all
        return False
