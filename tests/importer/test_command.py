"""`toolc import` end to end: real servers over stdio and streamable HTTP, then build,
then `toolc serve --pinned` and tools/list through a real client: the server's own JSON."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from click.testing import CliRunner
from forkserver_support import python_args, python_cmd
from import_support import (
    canonical,
    golden_tools,
    http_server,
    import_project,
    list_http,
    list_stdio,
    original_tools,
    run,
    running,
    stdio_command,
)
from net_support import refusing_port
from project_support import enter
from toolc.cli import main
from toolc.commands.build import run_build
from toolc.commands.import_specs import run_import
from toolc.commands.validate import validate
from toolc.formatting import format_text
from toolc.importer.yamlout import first_difference

IMPORT = {"stdio": None, "http": None, "saved": None, "config_file": None, "module": None,
          "out_path": None}


def do_import(**options: Any) -> tuple[int, str, str]:
    return run(run_import, **{**IMPORT, **options})


def build() -> tuple[int, str, str]:
    return run(run_build, check=False, write=True, certify=True, fmt="text", strict=False)


def assert_same_tools(got: list[dict[str, Any]] | dict[str, dict[str, Any]],
                      want: dict[str, dict[str, Any]]) -> None:
    """Equal JSON, key order aside: types, big integers and the sign of zero included."""
    by_name = got if isinstance(got, dict) else {t["name"]: t for t in got}
    assert sorted(by_name) == sorted(want)
    for name, tool in want.items():
        assert first_difference(canonical(tool), canonical(by_name[name])) is None, name


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return enter(import_project(tmp_path), monkeypatch)


def test_stdio_import_builds_offline_and_serves_back_the_servers_json(project: Path) -> None:
    code, out, err = do_import(stdio=stdio_command(project), module="thirdparty")
    assert code == 0, err
    spec = project / "specs" / "thirdparty.toolc.yaml"
    assert out.startswith("wrote specs/thirdparty.toolc.yaml")
    # Pinned tools are someone else's: undescribed properties are warnings about the
    # server, said once by rule (tests/report/test_vendored.py), located on --vendor.
    assert "specs/thirdparty.toolc.yaml:8:3: toolset 'server' pins 4 tool(s);" in out
    assert "x TC201 missing-description" in out and "warning[" not in out
    assert "specs/thirdparty.toolc.yaml: ok," in out and "error" not in out
    code, listed, _ = run(validate, paths=(), vendor=True)
    assert code == 0 and ("specs/thirdparty.toolc.yaml:" in listed and "warning[TC201]: "
                          "property 'limit' of pinned tool 'search_issues' of toolset "
                          "'server' has no description" in listed)
    assert "kind: mcp" in spec.read_text()

    (project / "server.py").unlink()  # the server is gone: the build must not need it
    code, out, err = build()
    assert code == 0, out + err
    assert_same_tools(golden_tools(project, "thirdparty"), original_tools())

    listed = anyio.run(list_stdio, sys.executable,
                       python_args("-m", "toolc", "serve", "--pinned", str(spec)), project)
    assert_same_tools(listed, original_tools())


def test_http_import_and_round_trip_over_http(project: Path) -> None:
    with http_server(project / "tools.json") as url:
        code, out, err = do_import(http=url, headers=("X-Team=tools",))
        assert code == 0, err
    assert "warning: the spec holds the HTTP headers of MCP server server (X-Team)" in err
    spec = project / "specs" / "import_test_server.toolc.yaml"  # named after serverInfo
    text = spec.read_text()
    assert f"url: {url}" in text and "X-Team: tools" in text
    code, out, err = build()
    assert code == 0, out + err
    with running(lambda port: python_cmd("-m", "toolc", "serve", "--pinned", str(spec),
                                         "--transport", "http", "--port", str(port)),
                 cwd=project) as served:
        listed = anyio.run(list_http, served)
    assert_same_tools(listed, original_tools())


def test_from_a_saved_listing_through_the_command_line(project: Path) -> None:
    saved = project / "saved.json"
    saved.write_text(json.dumps({"jsonrpc": "2.0", "id": 1,
                                 "result": json.loads((project / "tools.json").read_text())}))
    done = CliRunner().invoke(main, ["import", "--from", str(saved), "--stdio",
                                     "some-server --flag", "--out", "-"],
                              catch_exceptions=False)
    assert done.exit_code == 0, done.stderr
    assert "    stdio: {command: some-server, args: [--flag]}\n" in done.stdout
    assert format_text(done.stdout) == done.stdout  # an imported spec is formatted
    code, _, err = do_import(saved=str(saved), stdio="some-server --flag")
    assert code == 0, err
    assert (project / "specs" / "saved.toolc.yaml").is_file()
    code, out, err = build()
    assert code == 0, out + err
    assert_same_tools(golden_tools(project, "saved"), original_tools())


def test_config_imports_every_server_under_one_manager(project: Path) -> None:
    other = {"tools": [{"name": "remote_only", "description": "Only on the HTTP server.",
                        "inputSchema": {"type": "object", "properties": {
                            "n": {"type": "integer", "description": "A number."}}}}]}
    (project / "other.json").write_text(json.dumps(other))
    with http_server(project / "other.json") as url:
        config = {"mcpServers": {
            "local": {"command": sys.executable, "args": python_args(
                str(project / "server.py"), str(project / "tools.json"), "stdio")},
            "remote": {"type": "http", "url": url, "disabled": False, "alwaysLoad": True}}}
        (project / "desktop.json").write_text(json.dumps(config))
        code, out, err = do_import(config_file="desktop.json")
    assert code == 0, out + err
    assert "ignored 'disabled'" in err and "alwaysLoad" not in err
    text = (project / "specs" / "desktop.toolc.yaml").read_text()
    # The server-level alwaysLoad is kept, on that server only.
    assert text.count("always_load: true") == 1
    remote = text[text.index("  remote:\n"):]
    assert remote.index("always_load: true") < remote.index("tools:")
    assert "  servers: {kind: mcp_manager, servers: {local: local, remote: remote}}\n" \
        in text and "export: servers" in text
    code, out, err = build()
    assert code == 0, out + err
    always = {**other["tools"][0], "_meta": {"anthropic/alwaysLoad": True}}
    assert_same_tools(golden_tools(project, "desktop"),
                      {**original_tools(), "remote_only": always})


def test_config_whose_servers_share_a_tool_name_cannot_be_one_manager(project: Path) -> None:
    server = {"command": sys.executable, "args": python_args(
        str(project / "server.py"), str(project / "tools.json"), "stdio")}
    (project / "twice.json").write_text(json.dumps({"mcpServers": {"a": server, "b": server}}))
    code, out, _ = do_import(config_file="twice.json")
    assert code == 1
    assert ("error[TC402]: server 'b' of toolset 'servers' publishes 'search_issues', 'ping', "
            "'dialect.draft7', 'nullable-fields', already published by server 'a'" in out)
    assert "fix the errors above before building" in out


@pytest.mark.parametrize(("options", "code", "message"), [
    ({}, 2, "give --stdio COMMAND, --http URL, --from FILE or --config FILE"),
    ({"saved": "tools.json"}, 2, "--from needs --stdio or --http too"),
    ({"stdio": "a", "http": "http://h"}, 2, "give one of --stdio and --http"),
    ({"config_file": "c.json", "stdio": "a"}, 2, "give it alone"),
    ({"http": "http://h", "env": ("A=1",)}, 2, "--env and --cwd go with --stdio"),
    ({"stdio": "a", "module": "Bad-Name"}, 2, "not a lower-case Python identifier"),
    ({"stdio": "'unclosed"}, 1, "No closing quotation"),
    ({"http": "localhost:1/mcp"}, 1, "is not an http:// or https:// URL"),
    ({"saved": "nope.json", "stdio": "a"}, 1, "nope.json: no such file"),
    ({"saved": "bad.json", "stdio": "a"}, 1,
     "bad.json:1:12: the saved tools/list result is not valid JSON"),
    ({"config_file": "bad.json"}, 1, "the client configuration is not valid JSON"),
    ({"stdio": "/nonexistent/server"}, 1,
     "cannot list the tools of MCP server server (/nonexistent/server)"),
    ({"stdio": "x", "saved": "tools.json", "env": ("NOEQUALS",)}, 1, "expected NAME=VALUE"),
])
def test_bad_inputs_are_clear_errors_without_tracebacks(project: Path, options: dict[str, Any],
                                                        code: int, message: str) -> None:
    (project / "bad.json").write_text('{"tools": [')
    got, out, err = do_import(**options)
    assert got == code and message in err, err
    assert "Traceback" not in out + err and not any((project / "specs").iterdir())


def test_an_unreachable_http_server_is_named(project: Path) -> None:
    with refusing_port() as port:
        url = f"http://127.0.0.1:{port}/mcp"
        code, _, err = do_import(http=url, timeout_s=60.0)
    assert code == 1 and err.startswith(f"error: cannot list the tools of MCP server server "
                                        f"({url}): ")
    assert "Traceback" not in err


def test_an_existing_spec_is_replaced_only_with_force(project: Path) -> None:
    saved = {"saved": "tools.json", "stdio": "srv", "module": "mod"}
    assert do_import(**saved)[0] == 0
    code, _, err = do_import(**saved)
    assert code == 1 and "specs/mod.toolc.yaml exists; give --force" in err
    assert do_import(**saved, force=True)[0] == 0
