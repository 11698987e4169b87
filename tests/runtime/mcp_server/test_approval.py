"""Approval-required calls served through a real mcp Client, in both protocol eras: the
user asked by elicitation (a request mid-call before 2026-07-28, an answer the client
retries with from 2026-07-28)."""

from __future__ import annotations

import base64
import json
from typing import Any

import mcp_types as types
import pytest
import toolc.runtime as rt
from mcp import Client
from runtime_support import make_tool
from toolc.runtime.mcp_server.approval import APPROVAL_KEY

pytestmark = pytest.mark.anyio
ERAS = pytest.mark.parametrize("mode", ["auto", "legacy"])


def answering(action: str, content: dict[str, Any] | None, asked: list[Any]) -> Any:
    async def callback(context: Any, params: types.ElicitRequestFormParams) -> types.ElicitResult:
        asked.append(params)
        return types.ElicitResult(action=action, content=content)  # type: ignore[arg-type]

    return callback


def dropping(ran: list[str]) -> rt.FunctionToolset:
    """`dropAll`, which needs approval, recording each run in `ran`."""
    async def drop(ctx: rt.RunContext[Any], text: str, times: int) -> str:
        ran.append(text)
        return f"dropped {text}"

    return rt.FunctionToolset([make_tool("dropAll", drop, requires_approval=True)])


@ERAS
async def test_approval_asks_the_user_by_elicitation(mode: str) -> None:
    ran: list[str] = []
    asked: list[Any] = []
    yes = answering("accept", {"confirm": True}, asked)
    async with Client(rt.to_mcp_server(dropping(ran)), mode=mode,
                      elicitation_callback=yes) as client:
        result = await client.call_tool("dropAll", {"text": "users"})
    assert (result.is_error, result.content[0].text, ran) == (False, "dropped users", ["users"])
    (question,) = asked
    assert "'dropAll'" in question.message and '"text": "users"' in question.message
    assert question.requested_schema["properties"]["confirm"]["type"] == "boolean"
    assert question.requested_schema["required"] == ["confirm"]


NOT_CONFIRMED = "The user did not confirm the call to 'dropAll'; it was not run."
REFUSALS = [
    ("decline", None, "The user declined the call to 'dropAll'; it was not run."),
    ("cancel", None, "The user cancelled the call to 'dropAll'; it was not run."),
    # accepted, but the form's box left unticked, or not sent: not a decline, not a yes
    ("accept", {"confirm": False}, NOT_CONFIRMED),
    ("accept", {}, NOT_CONFIRMED),
    ("accept", None, NOT_CONFIRMED),
]


@ERAS
@pytest.mark.parametrize(("action", "content", "said"), REFUSALS)
async def test_an_answer_without_confirm_true_runs_nothing_and_says_which_it_was(
    mode: str, action: str, content: dict[str, Any] | None, said: str
) -> None:
    ran: list[str] = []
    no = answering(action, content, [])
    async with Client(rt.to_mcp_server(dropping(ran)), mode=mode,
                      elicitation_callback=no) as client:
        result = await client.call_tool("dropAll", {"text": "orders"})
    assert (result.is_error, result.content[0].text, ran) == (True, said, [])


@ERAS
async def test_a_client_without_elicitation_hears_that_approval_is_needed(mode: str) -> None:
    ts = rt.FunctionToolset([make_tool("dropAll", requires_approval=True)])
    async with Client(rt.to_mcp_server(ts), mode=mode) as client:
        result = await client.call_tool("dropAll", {"text": "x"})
    assert result.is_error
    assert result.content[0].text == (
        "dropAll needs the user's approval, and this client cannot ask for it "
        "(no elicitation support); the call was not run."
    )


async def test_a_client_whose_elicitation_fails_hears_that_asking_failed() -> None:
    async def broken(context: Any, params: Any) -> types.ErrorData:
        return types.ErrorData(code=types.INTERNAL_ERROR, message="no UI available")

    ts = rt.FunctionToolset([make_tool("dropAll", requires_approval=True)])
    server = rt.to_mcp_server(ts)
    async with Client(server, mode="legacy", elicitation_callback=broken) as client:
        result = await client.call_tool("dropAll", {"text": "x"})
        assert result.is_error
        assert result.content[0].text == (
            "dropAll needs the user's approval, and asking for it failed "
            "(MCPError: no UI available); the call was not run."
        )


# -- one answer, one call (2026-07-28) ----------------------------------------------------

YES = {APPROVAL_KEY: types.ElicitResult(action="accept", content={"confirm": True})}
ARGS = {"text": "users"}


def asking(server: Any) -> Client:
    """A client that can be asked (it declares elicitation); these tests answer by hand."""
    return Client(server, elicitation_callback=answering("accept", {"confirm": True}, []))


async def question(client: Client, args: dict[str, Any] = ARGS) -> str:
    """The state of the question the server asks about this call (the first round)."""
    asked = await client.session.call_tool("dropAll", args, allow_input_required=True)
    assert isinstance(asked, types.InputRequiredResult) and asked.request_state
    return asked.request_state


async def answered(client: Client, state: str, args: dict[str, Any] = ARGS) -> Any:
    """The second round: the user's yes with the state, as the client's driver sends it."""
    return await client.call_tool("dropAll", args, input_responses=YES, request_state=state)


def extended(state: str) -> str:
    """The state with a later expiry written into its claims (the signature kept)."""
    body, _, mac = state.rpartition(".")
    claims = json.loads(base64.urlsafe_b64decode(body[3:] + "=" * (-len(body[3:]) % 4)))
    claims["exp"] += 3600
    text = base64.urlsafe_b64encode(json.dumps(claims).encode()).decode().rstrip("=")
    return f"v1.{text}.{mac}"


def refusal(why: str) -> str:
    return (f"The approval sent with this call to 'dropAll' {why}; the call was not run. "
            f"Call the tool again to be asked anew.")


async def test_an_approved_call_sent_again_is_refused_and_runs_once() -> None:
    ran: list[str] = []
    async with asking(rt.to_mcp_server(dropping(ran))) as client:
        state = await question(client)
        first = await answered(client, state)
        again = await answered(client, state)  # the same request, a new JSON-RPC id
        declined_then_yes = await question(client)
        no = types.ElicitResult(action="decline")
        await client.call_tool("dropAll", ARGS, input_responses={APPROVAL_KEY: no},
                               request_state=declined_then_yes)
        turned = await answered(client, declined_then_yes)
    assert (first.is_error, first.content[0].text) == (False, "dropped users")
    assert again.is_error
    assert again.content[0].text == refusal(
        "was used already: an answer approves one call, once")
    assert turned.is_error and turned.content[0].text == again.content[0].text
    assert ran == ["users"]


async def test_an_answer_counts_only_for_the_call_and_server_it_was_asked_about() -> None:
    ran: list[str] = []
    async with asking(rt.to_mcp_server(dropping(ran))) as client:
        state = await question(client)
        other_args = await answered(client, state, {"text": "orders"})
        forged = await answered(client, extended(state))
        garbage = await answered(client, "v1.x")
    async with asking(rt.to_mcp_server(dropping(ran))) as elsewhere:
        other_server = await answered(elsewhere, state)
    assert other_args.content[0].text == refusal(
        "was given for another call (another tool, other arguments or another user)")
    assert forged.content[0].text == refusal(
        "was signed with another key (replicas behind a balancer need the same state key: "
        "--state-key-file or TOOLC_STATE_KEY)")
    assert other_server.content[0].text == forged.content[0].text
    assert garbage.content[0].text == refusal("is not one this server gave")
    assert ran == []


async def test_replicas_sharing_a_key_answer_each_others_questions_once() -> None:
    ran: list[str] = []
    key = b"k" * 32
    one, two = (rt.to_mcp_server(dropping(ran), approval_states=rt.ApprovalStates(keys=[key]))
                for _ in range(2))
    async with asking(one) as first, asking(two) as second:
        state = await question(first)
        done = await answered(second, state)
        again = await answered(second, state)
    assert (done.is_error, ran) == (False, ["users"])
    assert again.content[0].text == refusal(
        "was used already: an answer approves one call, once")


async def test_an_answer_after_the_expiry_is_refused() -> None:
    now = [1000.0]
    states = rt.ApprovalStates(ttl=60, clock=lambda: now[0])
    ran: list[str] = []
    async with asking(rt.to_mcp_server(dropping(ran), approval_states=states)) as client:
        state = await question(client)
        now[0] += 61
        late = await answered(client, state)
    assert late.content[0].text == refusal(
        "has expired (an answer holds for 60 s after the question)")
    assert ran == []


async def test_the_client_driver_still_approves_each_call_of_its_own() -> None:
    ran: list[str] = []
    asked: list[Any] = []
    yes = answering("accept", {"confirm": True}, asked)
    async with Client(rt.to_mcp_server(dropping(ran)), elicitation_callback=yes) as client:
        for text in ("a", "a", "b"):
            result = await client.call_tool("dropAll", {"text": text})
            assert not result.is_error
    assert (ran, len(asked)) == (["a", "a", "b"], 3)


async def test_before_2026_each_call_is_asked_about_on_its_own() -> None:
    # Mid-call elicitation: the answer is the reply to that one request; the same
    # tools/call sent again is asked about again, and a no then runs nothing.
    ran: list[str] = []
    answers = iter([("accept", {"confirm": True}), ("decline", None)])

    async def once_yes(context: Any, params: Any) -> types.ElicitResult:
        action, content = next(answers)
        return types.ElicitResult(action=action, content=content)  # type: ignore[arg-type]

    server = rt.to_mcp_server(dropping(ran))
    async with Client(server, mode="legacy", elicitation_callback=once_yes) as client:
        first = await client.session.call_tool("dropAll", ARGS)
        again = await client.session.call_tool("dropAll", ARGS)
    assert (first.is_error, again.is_error, ran) == (False, True, ["users"])
