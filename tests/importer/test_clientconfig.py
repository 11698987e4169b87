"""Client configurations: every server read, every mistake named."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from toolc.importer.clientconfig import read_config
from toolc.importer.listing import ImportFailure


def write(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return path


def test_stdio_and_http_servers_in_order_with_their_settings(tmp_path: Path) -> None:
    path = write(tmp_path, {"mcpServers": {
        "files": {"command": "npx", "args": ["-y", "fs"], "env": {"K": "v"}, "cwd": "/w"},
        "remote": {"type": "http", "url": "https://h/mcp", "headers": {"A": "b"}},
        "bare": {"command": "srv", "args": [], "env": {}}}})
    servers, warnings = read_config(path)
    assert [s.name for s in servers] == ["files", "remote", "bare"]
    assert servers[0].stdio == {"command": "npx", "args": ["-y", "fs"], "env": {"K": "v"},
                                "cwd": "/w"}
    assert servers[1].http == {"url": "https://h/mcp", "headers": {"A": "b"}}
    assert servers[2].stdio == {"command": "srv"} and warnings == []


def test_keys_other_clients_add_are_ignored_with_a_warning(tmp_path: Path) -> None:
    path = write(tmp_path, {"mcpServers": {"a": {"command": "x", "disabled": False,
                                                 "autoApprove": []}}})
    _, warnings = read_config(path)
    assert warnings == [f"{path}: server 'a': ignored 'disabled', 'autoApprove'"]


def test_a_server_level_always_load_is_kept(tmp_path: Path) -> None:
    path = write(tmp_path, {"mcpServers": {"a": {"command": "x", "alwaysLoad": True},
                                           "b": {"url": "https://h/mcp", "alwaysLoad": False},
                                           "c": {"command": "y"}}})
    servers, warnings = read_config(path)
    assert [s.always_load for s in servers] == [True, False, False] and warnings == []
    assert servers[0].connection() == {"stdio": {"command": "x"}, "always_load": True}
    assert servers[1].connection() == {"http": {"url": "https://h/mcp"}}


@pytest.mark.parametrize(("data", "message"), [
    ({"mcpServers": {"a": {"command": "x", "alwaysLoad": "yes"}}},
     '"alwaysLoad" must be true or false'),
    ("{not json", r"mcp.json:1:2: the client configuration is not valid JSON"),
    ([], r'expected \{"mcpServers"'),
    ({"servers": {}}, r'expected \{"mcpServers"'),
    ({"mcpServers": {}}, "is empty; there is nothing to import"),
    ({"mcpServers": {"a": "npx"}}, "server 'a' must be an object"),
    ({"mcpServers": {"a": {}}}, "server 'a' has neither \"command\" nor \"url\""),
    ({"mcpServers": {"a": {"command": "x", "url": "http://h"}}}, "has both"),
    ({"mcpServers": {"a": {"url": "http://h", "type": "sse"}}}, "SSE transport"),
    ({"mcpServers": {"a": {"command": "x", "type": "http"}}}, "describes a stdio server"),
    ({"mcpServers": {"a": {"command": "x", "args": "-y"}}}, '"args" must be a list'),
    ({"mcpServers": {"a": {"command": "x", "env": {"K": 1}}}}, '"env" must be an object'),
    ({"mcpServers": {"a": {"command": ""}}}, '"command" must be a non-empty string'),
    ({"mcpServers": {"a": {"url": "ftp://h"}}}, "http:// or https://"),
])
def test_bad_configurations_say_what_is_wrong(tmp_path: Path, data: Any, message: str) -> None:
    with pytest.raises(ImportFailure, match=message):
        read_config(write(tmp_path, data))


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ImportFailure, match=r"nope.json: no such file"):
        read_config(tmp_path / "nope.json")
