"""Saved listings and live servers that cannot be listed: exact JSON, clear errors."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import anyio
import pytest
from net_support import refusing_port
from toolc.importer.listing import ImportFailure, Server, list_live, read_saved

TOOL = {"name": "t", "inputSchema": {"type": "object", "maximum": 2**64, "x": 1.0}}


@pytest.mark.parametrize("shape", [
    {"tools": [TOOL]},
    {"jsonrpc": "2.0", "id": 3, "result": {"tools": [TOOL]}},
    [TOOL],
])
def test_every_saved_shape_gives_the_tools_exactly(tmp_path: Path, shape: object) -> None:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(shape))
    [tool] = read_saved(path).tools
    assert tool == TOOL and isinstance(tool["inputSchema"]["x"], float)
    assert tool["inputSchema"]["maximum"] == 18446744073709551616


@pytest.mark.parametrize(("text", "message"), [
    ('{"tools": [', r"tools.json:1:12: the saved tools/list result is not valid JSON"),
    ('{"tools": [{"name": "t", "inputSchema": {"maximum": NaN}}]}', "NaN is not a JSON value"),
    ('{"tools": [{"name": "t", "inputSchema": {"maximum": 1e400}}]}', "too large for a double"),
    ('{"tools": {}}', '"tools" is not a list'),
    ('{"tools": [3]}', "tool 1 is a number, not an object"),
    ('{"tools": [{"inputSchema": {}}]}', 'tool 1 has no "name"'),
    ('{"tools": [], "nextCursor": "2"}', "only one page"),
    ('"tools"', "expected a tools/list result"),
])
def test_bad_saved_listings_say_what_and_where(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "tools.json"
    path.write_text(text)
    with pytest.raises(ImportFailure, match=message):
        read_saved(path)


def test_an_unreachable_http_server_is_a_clear_failure() -> None:
    with refusing_port() as port:
        server = Server("remote", http={"url": f"http://127.0.0.1:{port}/mcp"})
        with pytest.raises(ImportFailure, match=r"cannot list the tools of MCP server remote "
                           r"\(http://127\.0\.0\.1:\d+/mcp\): .*(onnect|refused)"):
            anyio.run(list_live, server, 120.0)


def test_a_missing_command_is_named() -> None:
    server = Server("local", stdio={"command": "/nonexistent/mcp-server"})
    with pytest.raises(ImportFailure, match=r"no such command|No such file"):
        anyio.run(list_live, server, 120.0)


def test_a_server_that_never_answers_times_out() -> None:
    # Reads everything and answers nothing: only the timeout can end the wait; it ends
    # when its stdin is closed, so the client need not wait for it to exit.
    server = Server("mute", stdio={"command": sys.executable,
                                   "args": ["-c", "import sys; sys.stdin.read()"]})
    with pytest.raises(ImportFailure, match=r"MCP server mute .* did not answer within 0.5 s"):
        anyio.run(list_live, server, 0.5)
