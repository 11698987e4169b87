"""`toolc serve --transport http` for more than one machine: --stateless and its shared
state key, /healthz, and bearer tokens through the SDK's auth support (a real subprocess,
real clients, raw HTTP where a client would never send what is tested; a start that is
refused, in this process)."""

from __future__ import annotations

import contextlib
import http.client
import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from project_support import desk_project
from serve_support import INITIALIZE, Answer, Served, http_server, post, refused_start

KEY = "ab" * 32
VERIFIER = """\
from mcp.server.auth.provider import AccessToken

RESOURCE = "http://tools.test/mcp"
USERS = {"alice-token": "alice", "bob-token": "bob"}


class Tokens:
    async def verify_token(self, token):
        if token == "boom":
            raise RuntimeError("the token service is down")
        if token == "elsewhere":
            return AccessToken(token=token, client_id="app", scopes=["tools"],
                               resource="http://elsewhere.test/mcp")
        if token == "no-scope":
            return AccessToken(token=token, client_id="app", scopes=[], resource=RESOURCE)
        if token in USERS:
            return AccessToken(token=token, client_id="app", scopes=["tools"],
                               resource=RESOURCE, subject=USERS[token])
        return None


def make():
    return Tokens()


def not_a_verifier():
    return object()
"""


def serve_exit(project: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    """`toolc serve` expected to exit at start: its code and stderr (no shared key in the
    environment but what ``env`` gives)."""
    return refused_start(project, "specs/desk.toolc.yaml", *args,
                         env={"TOOLC_STATE_KEY": None, **(env or {})})


def get(port: int, path: str, *, host: str | None = None) -> Answer:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers={"Host": host or f"127.0.0.1:{port}"})
        response = conn.getresponse()
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()},
                      response.read().decode())
    finally:
        conn.close()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = desk_project(tmp_path)
    (root / "desk_auth.py").write_text(VERIFIER)
    return root


def test_stateless_with_approval_tools_and_no_shared_key_refuses_to_start(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TOOLC_STATE_KEY", raising=False)
    code, err = serve_exit(project, "--transport", "http", "--stateless", "--port", "1")
    assert code == 2
    assert err.splitlines()[-1] == (
        "error: --stateless: shred needs the user's approval, whose answer comes in a second "
        "request that another replica may get; give every replica the same key to sign the "
        "question with: --state-key-file FILE or $TOOLC_STATE_KEY (make one with: python3 -c "
        "'import secrets; print(secrets.token_hex(32))')")


@pytest.mark.parametrize(("args", "env", "message"), [
    (["--state-key-file", "missing.key"], {},
     "--state-key-file missing.key: cannot read it (no such file)"),
    (["--state-key-file", "short.key"], {},
     "--state-key-file short.key: key 2 of 2 is 5 bytes; a state key is at least 32"),
    (["--state-key-file", "empty.key"], {}, "--state-key-file empty.key holds no key"),
    ([], {"TOOLC_STATE_KEY": "tooshort"}, "$TOOLC_STATE_KEY: key 1 of 1 is 8 bytes"),
])
def test_bad_state_keys_are_clear_errors(project: Path, args: list[str], env: dict[str, str],
                                         message: str) -> None:
    (project / "short.key").write_text(f"# the ring\n{KEY}\nshort\n")
    (project / "empty.key").write_text("# nothing yet\n\n")
    code, err = serve_exit(project, "--transport", "http", "--stateless", "--port", "1", *args,
                           env=env)
    assert code == 2 and f"error: {message}" in err, err


@pytest.mark.parametrize("flag", [["--stateless"], ["--auth", "desk_auth:make"],
                                  ["--public-url", "http://x/mcp"]])
def test_http_only_flags_over_stdio_are_usage_errors(project: Path, flag: list[str]) -> None:
    code, err = serve_exit(project, *flag)
    assert (code, err.strip()) == (2, f"error: {flag[0]} needs --transport http")


@pytest.mark.parametrize(("args", "message"), [
    (["--auth", "desk_auth:make"], "error: --auth needs --auth-issuer URL"),
    (["--auth", "desk_auth:missing", "--auth-issuer", "https://a.test"], "error: --auth: "),
    (["--auth", "desk_auth:not_a_verifier", "--auth-issuer", "https://a.test"],
     ("error: --auth: desk_auth:not_a_verifier() returned object, which has no "
      "'async def verify_token(self, token)'")),
    (["--auth", "desk_auth:make", "--auth-issuer", "auth.test"],
     "error: --auth-issuer 'auth.test': write an absolute URL"),
    (["--public-url", "tools.test/mcp"], "error: --public-url 'tools.test/mcp': write "),
])
def test_bad_auth_settings_are_clear_errors(project: Path, args: list[str], message: str) -> None:
    code, err = serve_exit(project, "--transport", "http", "--port", "1", *args)
    assert code == 2 and message in err, err


def test_stateless_serves_each_request_on_its_own_with_json(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLC_STATE_KEY", KEY)
    with http_server(project, "--stateless") as served:
        legacy = post(served.port, INITIALIZE)
        assert legacy.status == 200 and "mcp-session-id" not in legacy.headers
        assert legacy.headers["content-type"] == "application/json"
        assert get(served.port, "/healthz", host="10.1.2.3:8000").body == (
            '{"status": "ok", "server": "desk"}')
        texts = anyio.run(_echo_and_shred, served.url)
    assert texts == ["hi", "shredded memo (1 so far)", (
        "shred needs the user's approval, and this server answers each request on its own "
        "(stateless HTTP), so it cannot ask in the middle of a call: a client of the "
        "2026-07-28 protocol can be asked; the call was not run.")]


async def _echo_and_shred(url: str) -> list[str]:
    texts = []
    async with Client(url, elicitation_callback=_yes) as client:  # 2026-07-28
        texts.append((await client.call_tool("echo", {"text": "hi"})).content[0].text)
        texts.append((await client.call_tool("shred", {"doc": "memo"})).content[0].text)
    async with Client(url, mode="legacy", elicitation_callback=_yes) as legacy:
        texts.append((await legacy.call_tool("shred", {"doc": "memo"})).content[0].text)
    return [str(t) for t in texts]


async def _yes(context: Any, params: Any) -> types.ElicitResult:
    return types.ElicitResult(action="accept", content={"confirm": True})


CHAT_SPEC = """\
toolc: 1
module: chat
tools:
  greet:
    description: Greet the user by the name they give.
    handler: chat_app:greet
"""
CHAT = """\
async def greet(ctx):
    await ctx.report_progress(1, 2, "asking")  # (no stream to carry it: not delivered)
    await ctx.log("warning", "about to ask")
    answer = await ctx.elicit("Your name?", {"type": "object", "properties": {
        "name": {"type": "string"}}, "required": ["name"]})
    return f"hello {answer.content['name']}"
"""


def test_a_handlers_question_asked_by_one_replica_is_answered_on_another(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (project / "specs" / "chat.toolc.yaml").write_text(CHAT_SPEC)
    (project / "chat_app.py").write_text(CHAT)
    monkeypatch.setenv("TOOLC_STATE_KEY", KEY)
    with (http_server(project, "--stateless", spec="specs/chat.toolc.yaml") as one,
          http_server(project, "--stateless", spec="specs/chat.toolc.yaml") as two):
        texts = anyio.run(_greet_across, one.url, two.url)
    assert texts == ["hello Ada", (
        "ctx.elicit is not available to this MCP client: this server answers each request "
        "on its own (stateless HTTP), so it cannot ask in the middle of a call; a client of "
        "the 2026-07-28 protocol can be asked")]


async def _greet_across(one: str, two: str) -> list[str]:
    async with (Client(one, elicitation_callback=_yes) as first,
                Client(two, elicitation_callback=_yes) as second):
        asked = await first.session.call_tool("greet", {}, allow_input_required=True)
        assert isinstance(asked, types.InputRequiredResult)
        [key] = asked.input_requests or {}
        answer = {key: types.ElicitResult(action="accept", content={"name": "Ada"})}
        greeted = await second.call_tool("greet", {}, input_responses=answer,
                                         request_state=asked.request_state)
    async with Client(one, mode="legacy", elicitation_callback=_yes) as legacy:
        told = await legacy.call_tool("greet", {})
    assert told.is_error
    return [str(r.content[0].text) for r in (greeted, told)]


# -- bearer tokens ------------------------------------------------------------------------

METADATA = "/.well-known/oauth-protected-resource/mcp"


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    root = desk_project(tmp_path_factory.mktemp("desk"))
    (root / "desk_auth.py").write_text(VERIFIER)
    with http_server(root, "--auth", "desk_auth:make", "--auth-issuer", "https://auth.test",
                     "--auth-scope", "tools", "--public-url", "http://tools.test/mcp") as served:
        yield served


@pytest.mark.parametrize("token", [None, "nonsense", "elsewhere", "boom"])
def test_a_missing_or_refused_token_is_401_with_the_metadata_url(guarded: Served,
                                                                 token: str | None) -> None:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = post(guarded.port, INITIALIZE, headers=headers)
    assert answer.status == 401
    assert answer.headers["www-authenticate"] == (
        'Bearer error="invalid_token", error_description="Authentication required", '
        'resource_metadata="http://tools.test/.well-known/oauth-protected-resource/mcp"')


def test_a_token_without_the_scope_is_403(guarded: Served) -> None:
    answer = post(guarded.port, INITIALIZE, headers={"Authorization": "Bearer no-scope"})
    assert answer.status == 403 and 'error="insufficient_scope"' in answer.headers[
        "www-authenticate"]


def test_the_metadata_and_health_need_no_token(guarded: Served) -> None:
    metadata = get(guarded.port, METADATA, host="tools.test")
    assert metadata.status == 200
    assert json.loads(metadata.body) | {"bearer_methods_supported": None} == {
        "resource": "http://tools.test/mcp", "authorization_servers": ["https://auth.test"],
        "scopes_supported": ["tools"], "resource_name": "desk",
        "bearer_methods_supported": None}
    assert get(guarded.port, "/healthz").status == 200


def test_a_good_token_calls_and_its_approval_is_the_users_own(guarded: Served) -> None:
    texts = anyio.run(_approve_as_another, guarded.url)
    assert texts == ["hi", (
        "The approval sent with this call to 'shred' was given for another call (another "
        "tool, other arguments or another user); the call was not run. Call the tool again "
        "to be asked anew."), "shredded memo (1 so far)"]


async def _approve_as_another(url: str) -> list[str]:
    answer = {"toolc/approval": types.ElicitResult(action="accept", content={"confirm": True})}
    async with as_user(url, "alice-token") as alice, as_user(url, "bob-token") as bob:
        echoed = await alice.call_tool("echo", {"text": "hi"})
        asked = await alice.session.call_tool("shred", {"doc": "memo"},
                                              allow_input_required=True)
        assert isinstance(asked, types.InputRequiredResult)
        stolen = await bob.call_tool("shred", {"doc": "memo"}, input_responses=answer,
                                     request_state=asked.request_state)
        own = await alice.call_tool("shred", {"doc": "memo"}, input_responses=answer,
                                    request_state=asked.request_state)
    return [str(r.content[0].text) for r in (echoed, stolen, own)]


@contextlib.asynccontextmanager
async def as_user(url: str, token: str) -> AsyncIterator[Client]:
    """A real client whose every HTTP request carries the user's bearer token."""
    async with (httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}) as http,
                Client(streamable_http_client(url, http_client=http),
                       elicitation_callback=_yes) as client):
        yield client
