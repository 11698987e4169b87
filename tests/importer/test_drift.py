"""Live drift: the test server changes between two listings, and the change is reported
with the project's own diff rules, under the tool's published name."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from forkserver_support import python_args
from import_support import import_project, run, stdio_command
from project_support import enter
from toolc.commands.build import run_build
from toolc.commands.diff import run_diff
from toolc.commands.import_specs import run_import

IMPORT = {"stdio": None, "http": None, "saved": None, "config_file": None, "out_path": None}


def do_import(**options: Any) -> int:
    code, out, err = run(run_import, **{**IMPORT, **options})
    assert code == 0, out + err
    return code


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return enter(import_project(tmp_path), monkeypatch)


def live_diff(fmt: str = "text", fail_on: str = "error") -> tuple[int, str, str]:
    return run(run_diff, old=None, new=None, against=None, fmt=fmt, fail_on=fail_on, live=True)


def change_tools(path: Path, change: Any) -> None:
    data = json.loads(path.read_text())
    change(data["tools"])
    path.write_text(json.dumps(data))


def drift(tools: list[dict[str, Any]]) -> None:
    search = tools[0]["inputSchema"]
    search["required"].append("limit")
    del search["properties"]["query"]["description"]
    tools[0]["annotations"]["readOnlyHint"] = False
    del tools[1]  # ping


def test_a_changed_server_is_reported_as_classified_changes(project: Path) -> None:
    do_import(stdio=stdio_command(project), module="third")
    spec = project / "specs" / "third.toolc.yaml"  # published under a prefix
    spec.write_text(spec.read_text().replace(
        "export: server\n", "  pre: {kind: prefixed, inner: server, prefix: tp_}\nexport: pre\n"))
    assert run(run_build, check=False, write=True, certify=True, fmt="text", strict=False)[0] == 0

    code, out, _ = live_diff()
    assert (code, out) == (0, "live: 1 pinned MCP server(s) publish what the specs pin\n")

    change_tools(project / "tools.json", drift)
    code, out, _ = live_diff()
    assert code == 1
    assert "tool third/tp_ping (generated/schemas/third/tp_ping.json)" in out
    assert "error[TOOL_REMOVED]" in out and "error[REQUIRED_ADDED] /inputSchema/properties/limit" \
        in out and "DESCRIPTION_REMOVED] /inputSchema/properties/query/description" in out
    code, out, _ = live_diff(fmt="json")
    found = {(c["tool"], c["rule"]) for c in json.loads(out)["changes"]}
    assert found == {("third/tp_ping", "TOOL_REMOVED"),
                     ("third/tp_search_issues", "REQUIRED_ADDED"),
                     ("third/tp_search_issues", "DESCRIPTION_REMOVED"),
                     ("third/tp_search_issues", "ANNOTATION_CHANGED")}
    assert live_diff(fail_on="never")[0] == 0

    code, out, _ = run(run_build, check=True, write=False, certify=True, fmt="text",
                       strict=False, live=True)
    assert code == 1 and "generated/ is up to date" in out and "TOOL_REMOVED" in out


def test_a_server_that_cannot_be_listed_fails_the_check_clearly(project: Path) -> None:
    do_import(stdio=stdio_command(project), module="third")
    (project / "server.py").unlink()
    code, out, err = live_diff()
    assert code == 1 and out == "live: 0 of 1 pinned MCP server(s) listed; those publish what " \
        "the specs pin\n"
    assert err.startswith("error: cannot list the tools of MCP server third.server (")
    assert "Traceback" not in err


def test_live_tools_that_no_longer_compose_are_reported(project: Path) -> None:
    (project / "other.json").write_text(json.dumps({"tools": [
        {"name": "other", "description": "Another tool.", "inputSchema": {"type": "object"}}]}))
    config = {"mcpServers": {
        name: {"command": sys.executable, "args": python_args(str(project / "server.py"),
                                                              str(project / tools), "stdio")}
        for name, tools in (("a", "tools.json"), ("b", "other.json"))}}
    (project / "mcp.json").write_text(json.dumps(config))
    do_import(config_file="mcp.json", module="both")
    change_tools(project / "other.json", lambda tools: tools.append(
        {"name": "ping", "inputSchema": {"type": "object"}}))
    code, _, err = live_diff()
    assert code == 1
    assert "with the live tools pinned, the specs do not compile" in err
    assert "error[TC402]: server 'b' of toolset 'servers' publishes 'ping', already " \
        "published by server 'a'" in err


def test_without_pinned_servers_there_is_nothing_to_list(project: Path) -> None:
    code, out, _ = live_diff()
    assert (code, out) == (0, "live: no spec pins an MCP server's tools; nothing to list\n")
    code, _, err = run(run_diff, old="specs", new=None, against=None, fmt="text",
                       fail_on="error", live=True)
    assert code == 2 and "--live compares the specs with the live servers" in err


def test_a_build_answered_by_the_cache_still_lists_the_live_servers(project: Path) -> None:
    (project / "clean.json").write_text(json.dumps({"tools": [
        {"name": "only", "description": "The only tool.", "inputSchema": {"type": "object"}}]}))
    do_import(stdio=stdio_command(project, "clean.json"), module="clean")
    build = {"check": False, "write": True, "certify": True, "fmt": "text", "strict": False}
    code, out, _ = run(run_build, **build)
    assert code == 0 and "warning[" not in out  # a clean build: the cache records it
    assert run(run_build, **{**build, "check": True, "write": False})[1] == (
        "budget: clean.server: 1 tool(s), ~20 tokens; upfront 1 tool(s), ~20 tokens\n"
        "generated/ is up to date (3 file(s))\n")
    change_tools(project / "clean.json", lambda tools: tools[0].pop("description"))
    code, out, _ = run(run_build, **{**build, "check": True, "write": False}, live=True)
    assert code == 1 and "up to date" in out and "DESCRIPTION_REMOVED] /description" in out
