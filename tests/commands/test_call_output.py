"""What `toolc call` prints (toolc.commands.call_output) and how it answers a question that
is not a yes or no (toolc.commands.call_approval): every kind of content block, inert;
the listing's summaries; the forms it declines. The served path is test_call.py's."""

from __future__ import annotations

import io
import json

import anyio
import mcp_types as types
import pytest
from toolc.budget import published_tokens
from toolc.commands.call_approval import TerminalApproval, confirmation_field
from toolc.commands.call_output import SUMMARY_CHARS, block_text, render_listing, render_result
from toolc.runtime.mcp_server.approval import CONFIRM_SCHEMA


@pytest.mark.parametrize(("block", "shown"), [
    ({"type": "text", "text": "a\x07\nb"}, "a\\x07\nb"),
    ({"type": "image", "mimeType": "image/png", "data": "AAAA"},
     "[image: image/png, 4 characters of base64]"),
    ({"type": "audio", "mimeType": "audio/\x1bwav", "data": ""},
     "[audio: audio/\\x1bwav, 0 characters of base64]"),
    ({"type": "resource_link", "uri": "file:///x", "name": "x\u202e"},
     "[resource link: x\\u202e <file:///x>]"),
    ({"type": "resource", "resource": {"uri": "mem://n", "text": "one\ntwo\x1b"}},
     "[resource <mem://n>]\none\ntwo\\x1b"),
    ({"type": "resource", "resource": {"uri": "mem://b", "blob": "AAAABBBB"}},
     "[resource <mem://b>: 8 characters of base64]"),
    ({"type": "hologram"}, "[hologram content]"),
])
def test_every_block_is_readable_and_inert(block: dict[str, object], shown: str) -> None:
    assert block_text(block) == shown


def test_a_result_in_text_and_json() -> None:
    wire = {"content": [{"type": "text", "text": "hi"}], "structuredContent": {"k": "\u2028"},
            "isError": True}
    assert render_result(wire, "text") == 'hi\nstructured content:\n{\n  "k": "\\u2028"\n}'
    assert json.loads(render_result(wire, "json")) == {
        "content": [{"type": "text", "text": "hi"}], "structuredContent": {"k": "\u2028"},
        "isError": True}
    assert render_result({"content": []}, "text") == "(no content)"


def test_the_listing_summarises_each_description_inertly() -> None:
    long = "x" * (SUMMARY_CHARS + 20)
    tools = [{"name": "a", "description": "First line.\nSecond line.",
              "inputSchema": {"type": "object"}},
             {"name": "b\x1b", "description": long, "inputSchema": {"type": "object"}},
             {"name": "c", "inputSchema": {"type": "object"}}]
    lines = render_listing("srv\x07", tools, "text").splitlines()
    total = sum(published_tokens(t) for t in tools)
    assert lines[0] == f"srv\\x07: 3 tool(s), ~{total} tokens"
    assert lines[1].endswith("First line. \u2026") and "Second" not in lines[1]
    assert "b\\x1b" in lines[2] and lines[2].endswith("x" * (SUMMARY_CHARS - 1) + "\u2026")
    assert lines[3].endswith("(no description)")


def ask(params: types.ElicitRequestParams, *, yes: bool = False) -> tuple[types.ElicitResult, str]:
    err = io.StringIO()
    approval = TerminalApproval(yes=yes, stdin=io.StringIO("y\n"), err=err)

    async def answer() -> types.ElicitResult:
        return await approval(None, params)
    return anyio.run(answer), err.getvalue()


def test_only_a_yes_or_no_question_is_answered() -> None:
    approve = types.ElicitRequestFormParams(message="Run it?", requested_schema=CONFIRM_SCHEMA)
    assert confirmation_field(approve) == "confirm"
    form = types.ElicitRequestFormParams(message="Your name?", requested_schema={
        "type": "object", "properties": {"name": {"type": "string"}}})
    link = types.ElicitRequestURLParams(message="Log in", url="https://example.invalid/")
    for params in (form, link):
        answer, err = ask(params, yes=True)
        assert answer.action == "decline" and "answers approval questions (yes or no) only" in err
    answer, err = ask(approve, yes=True)
    assert (answer.action, answer.content) == ("accept", {"confirm": True})
    answer, err = ask(approve)  # a StringIO is no terminal: its "y" is nobody's answer
    assert answer.action == "decline" and "stdin is not a terminal" in err


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("typed", "approved", "asked"), [
    ("maybe\nYES\n", True, 2), ("\n", False, 1), ("", False, 1), ("a\nb\nc\ny\n", False, 3)])
def test_unclear_answers_are_asked_again_a_few_times(typed: str, approved: bool,
                                                     asked: int) -> None:
    err = io.StringIO()
    assert TerminalApproval(yes=False, stdin=Terminal(typed), err=err).ask() is approved
    assert err.getvalue().count("Approve? [y/N] ") == asked
