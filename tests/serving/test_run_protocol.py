"""`toolc serve` at the protocol's edges, as a real subprocess driven by the mcp SDK's
client over stdio and streamable HTTP on 127.0.0.1, in both protocol eras: an unknown
tool is a JSON-RPC error (-32602), a second initialize is refused, 1,000 tools come in
pages whose cursors a client follows (an invalid one refused), and serverInfo.version
is the spec's, else the project's, else toolc's."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from forkserver_support import python_args
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError
from toolc import __version__ as TOOLC_VERSION

sys.path.insert(0, str(Path(__file__).parents[1]))

from project_support import desk_project
from serve_support import INITIALIZE, INITIALIZED, Served, http_server, post

PATIENCE_S = 120.0  # a bound on waiting, never a verdict on speed
TRANSPORTS = pytest.mark.parametrize("transport", ["stdio", "http"])
ERAS = pytest.mark.parametrize("mode", ["auto", "legacy"])


def many_tools(root: Path, count: int = 1000) -> Path:
    """A project whose spec has ``count`` tools, t0000, t0001, ... in that order."""
    desk_project(root)
    lines = ["toolc: 1", "module: many", "description: Many tools.", "tools:"]
    for i in range(count):
        lines += [f"  t{i:04d}:", f"    description: Tool number {i}.",
                  "    handler: desk_app:echo", "    params:",
                  "      text: {type: string, description: Said back.}"]
    (root / "specs" / "many.toolc.yaml").write_text("\n".join(lines) + "\n")
    return root


@pytest.fixture(scope="module")
def desk_over_http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """`toolc serve` of the desk as it is, over HTTP, for the tests that only ask it
    things, each in a session of its own (asked for only by the HTTP cases)."""
    with http_server(desk_project(tmp_path_factory.mktemp("desk"))) as served:
        yield served


@asynccontextmanager
async def connected(project: Path | Served, transport: str, mode: str, *args: str,
                    spec: str = "specs/desk.toolc.yaml") -> AsyncIterator[Client]:
    """A real client of `toolc serve DESK_SPEC ARGS` over ``transport`` (of the server
    ``project`` is, if it is one running)."""
    if isinstance(project, Served):
        async with Client(project.url, mode=mode) as client:
            yield client
        return
    if transport == "stdio":
        target: Any = StdioServerParameters(
            command=sys.executable, args=python_args("-m", "toolc", "serve", spec, *args),
            cwd=str(project), env=dict(os.environ))
        async with Client(target, mode=mode) as client:
            yield client
        return
    with http_server(project, *args, spec=spec) as served:
        async with Client(served.url, mode=mode) as client:
            yield client


async def all_pages(client: Client) -> list[list[str]]:
    pages: list[list[str]] = []
    cursor = None
    while True:
        listed = await client.list_tools(cursor=cursor)
        pages.append([t.name for t in listed.tools])
        cursor = listed.next_cursor
        if cursor is None:
            return pages


def desk(request: pytest.FixtureRequest, transport: str) -> Path | Served:
    """The desk as it is: over HTTP the module's server, over stdio a project to serve."""
    if transport == "http":
        served: Served = request.getfixturevalue("desk_over_http")
        return served
    return desk_project(request.getfixturevalue("tmp_path"))


@TRANSPORTS
@ERAS
def test_an_unknown_tool_is_a_protocol_error(request: pytest.FixtureRequest, transport: str,
                                             mode: str) -> None:
    async def session() -> tuple[MCPError, str]:
        with anyio.fail_after(PATIENCE_S):
            async with connected(desk(request, transport), transport, mode) as client:
                with pytest.raises(MCPError) as unknown:
                    await client.call_tool("nope", {})
                after = await client.call_tool("echo", {"text": "served on"})
        return unknown.value, str(after.content[0].text)

    unknown, after = anyio.run(session)
    assert (unknown.error.code, unknown.error.message) == (types.INVALID_PARAMS,
                                                           "Unknown tool 'nope'.")
    assert after == "served on"


@TRANSPORTS
@ERAS
def test_a_thousand_tools_come_in_pages_that_a_client_follows(
        tmp_path: Path, transport: str, mode: str) -> None:
    async def session(*args: str) -> tuple[list[list[str]], MCPError]:
        with anyio.fail_after(PATIENCE_S):
            async with connected(many_tools(tmp_path), transport, mode, *args,
                                 spec="specs/many.toolc.yaml") as client:
                pages = await all_pages(client)
                with pytest.raises(MCPError) as refused:
                    await client.list_tools(cursor="made-up")
        return pages, refused.value

    sized = ("--page-size", "300") if mode == "legacy" else ()  # the default in the other
    pages, refused = anyio.run(session, *sized)
    assert [len(p) for p in pages] == ([300, 300, 300, 100] if sized else [100] * 10)
    assert [n for p in pages for n in p] == [f"t{i:04d}" for i in range(1000)]
    assert refused.error.code == types.INVALID_PARAMS
    assert refused.error.message.startswith("Invalid cursor 'made-up'")


def test_a_second_initialize_on_a_live_http_session_is_refused(desk_over_http: Served) -> None:
    port = desk_over_http.port
    opened = post(port, INITIALIZE)
    session = {"mcp-session-id": opened.headers["mcp-session-id"]}
    assert post(port, INITIALIZED, headers=session).status == 202
    again = post(port, {**INITIALIZE, "id": 2}, headers=session)
    listed = post(port, {"jsonrpc": "2.0", "id": 3, "method": "tools/list"}, headers=session)
    refusal = _sse_json(again.body)
    assert refusal["id"] == 2 and refusal["error"]["code"] == types.INVALID_REQUEST
    assert "initialized already" in refusal["error"]["message"]
    assert [t["name"] for t in _sse_json(listed.body)["result"]["tools"]][:1] == ["echo"]


def _sse_json(body: str) -> Any:
    data = [line[5:].strip() for line in body.splitlines() if line.startswith("data:")]
    return json.loads(next(d for d in data if d))


@pytest.mark.parametrize(("spec_version", "project_version", "served"), [
    ("3.1.4", "7.0", "3.1.4"), (None, "7.0", "7.0"), (None, None, TOOLC_VERSION)])
@TRANSPORTS
def test_server_version_comes_from_the_spec_else_the_project_else_toolc(
        request: pytest.FixtureRequest, tmp_path: Path, transport: str,
        spec_version: str | None, project_version: str | None, served: str) -> None:
    project: Path | Served
    if not (spec_version or project_version):
        project = desk(request, transport)
    else:
        project = desk_project(tmp_path)
        _set_versions(project, spec_version, project_version)

    async def session() -> Any:
        with anyio.fail_after(PATIENCE_S):
            async with connected(project, transport, "legacy") as client:
                return client.server_info

    info = anyio.run(session)
    assert (info.name, info.version) == ("desk", served)


def _set_versions(project: Path, spec_version: str | None, project_version: str | None) -> None:
    spec = project / "specs" / "desk.toolc.yaml"
    if spec_version:
        spec.write_text(spec.read_text().replace(
            "description: Tools of the test desk.\n",
            f'description: Tools of the test desk.\nversion: "{spec_version}"\n'))
    if project_version:
        pyproject = project / "pyproject.toml"
        pyproject.write_text(f'[project]\nname = "desk"\nversion = "{project_version}"\n\n'
                             + pyproject.read_text())
