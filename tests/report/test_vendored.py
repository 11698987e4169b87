"""Findings about an imported server are the server's: said once by `toolc import`, one
line per server after that, in full on `--vendor`; the user's own still in full.

The server is the real `@modelcontextprotocol/server-filesystem` 2026.8.31, its
`tools/list` recorded once (tests/fixtures/import/server-filesystem.json, from
`npx -y @modelcontextprotocol/server-filesystem /tmp/x`): 14 tools whose schemas name
draft-07 (TC221, 28 of them) and leave 40 things undescribed (TC201).
"""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from forkserver_support import python_args
from project_support import NOTES_SPEC, enter, make_project
from toolc.cli import main
from toolc.commands.build import run_build
from toolc.commands.import_specs import run_import
from toolc.commands.validate import validate
from toolc.diagnostics import Diagnostic, Severity, Span
from toolc.report.vendored import fold, pinned_servers

FIXTURES = Path(__file__).parents[1] / "fixtures" / "import"
LISTING = FIXTURES / "server-filesystem.json"
SERVER = "npx -y @modelcontextprotocol/server-filesystem /tmp/x"
SPEC = "specs/server_filesystem.toolc.yaml"
# The user's own spec, in the same project: an undescribed property, a warning here.
OWN = NOTES_SPEC.replace("{type: string, description: The note.}", "{type: string}")
OWN_FINDING = "specs/notes.toolc.yaml:8:7: warning[TC201]: parameter 'text' of tool 'addNote'"
SERVER_LINE = (f"{SPEC}:8:3: toolset 'server': 14 pinned tool(s), 68 finding(s) about the "
               "server (TC201 x40, TC221 x28): see `toolc validate --vendor`")
SILENCE = (f'"{SPEC}" = {{ missing-description = "off", foreign-metaschema = "off" }}')


def call(action: Callable[..., int], **options: Any) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = action(out=out, err=err, **options)
    return code, out.getvalue(), err.getvalue()


def do_import() -> tuple[int, str, str]:
    return call(run_import, stdio=SERVER, http=None, saved=str(LISTING), config_file=None,
                module=None, out_path=None)


def build(**options: Any) -> tuple[int, str, str]:
    return call(run_build, **{"check": False, "write": True, "certify": False, "fmt": "text",
                              "strict": False, **options})


def check(*paths: str, **options: Any) -> tuple[int, str, str]:
    return call(validate, paths=paths, **options)


def located(out: str, kind: str = "warning") -> list[str]:
    """The located findings printed in full, as ``path:line:col: kind[CODE]``."""
    return re.findall(rf"^(\S+:\d+:\d+): {kind}\[(TC\d+)\]", out, re.MULTILINE)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    make_project(tmp_path, {"notes": OWN}, extra=(
        '\n[tool.toolc.severity]\nmissing-description = "warning"\n'
        'invisible-character = "off"\n'))  # the test server's NUL and BOM (TC702)
    return enter(tmp_path, monkeypatch)


@pytest.fixture
def imported(project: Path) -> Path:
    code, out, err = do_import()
    assert code == 0, out + err
    return project


def test_import_says_the_servers_findings_once_grouped_by_rule(project: Path) -> None:
    code, out, err = do_import()
    assert code == 0 and err == ""
    assert out.splitlines() == [
        f"wrote {SPEC} (354 lines, module server_filesystem)",
        (f"{SPEC}:8:3: toolset 'server' pins 14 tool(s); 68 finding(s) about the server's "
         "schemas, published as it gives them:"),
        ("    40 x TC201 missing-description: A tool or property has no description the "
         "model could read."),
        ("    28 x TC221 foreign-metaschema: A `$schema` other than 2020-12's: the "
         "validator cannot honour another metaschema."),
        ("  They are the server's to fix, not yours: later builds say them in one line per "
         "server, and `toolc validate --vendor` lists them with their places. To silence "
         "them, in pyproject.toml:"),
        "    [tool.toolc.per-file-severity]",
        f"    {SILENCE}",
        f"{SPEC}: ok, 68 warning(s) about the server; `toolc build` writes its golden files",
    ]


def test_the_line_import_gives_silences_them(imported: Path) -> None:
    pyproject = imported / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + f"\n[tool.toolc.per-file-severity]\n{SILENCE}\n")
    code, out, _ = check(vendor=True)
    assert code == 0
    assert [where for where, _ in located(out)] == ["specs/notes.toolc.yaml:8:7"]
    assert "pinned tool" not in out


def test_later_builds_say_one_line_per_server_and_the_users_own_in_full(
        imported: Path) -> None:
    for _ in range(2):  # the second is answered by the no-op cache, from its record
        code, out, _ = build(certify=True)
        assert code == 0
        assert located(out) == [("specs/notes.toolc.yaml:8:7", "TC201")]
        assert OWN_FINDING in out and "8 |       text: {type: string}" in out
        assert SERVER_LINE in out.splitlines()
        assert "0 error(s), 1 warning(s)" in out
    assert "nothing changed since the last build" in out
    # An edit of the user's spec only: the server's component is taken over from the
    # record (toolc.reuse.components), its findings replayed, and folded the same.
    own = imported / "specs" / "notes.toolc.yaml"
    own.write_text(OWN.replace("Add a note.", "Add one note."))
    code, out, _ = build(certify=True)
    assert code == 0 and located(out) == [("specs/notes.toolc.yaml:8:7", "TC201")]
    assert SERVER_LINE in out.splitlines() and "wrote 2, removed 0" in out

    code, out, _ = check()
    assert code == 0 and located(out) == [("specs/notes.toolc.yaml:8:7", "TC201")]
    assert SERVER_LINE in out.splitlines()
    code, out, _ = check(SPEC)  # the imported spec alone: nothing of the user's
    assert code == 0 and located(out) == []
    assert out.splitlines() == [
        SERVER_LINE, "ok: 1 spec(s) of 2 module(s), no problems but the imported servers' above"]


def test_vendor_lists_them_in_full_with_their_places_in_every_format(imported: Path) -> None:
    code, out, _ = check(vendor=True)
    assert code == 0 and SERVER_LINE not in out
    found = located(out)
    assert len(found) == 69 and ("specs/notes.toolc.yaml:8:7", "TC201") in found
    assert sum(1 for w, c in found if w.startswith(f"{SPEC}:") and c == "TC221") == 28
    assert sum(1 for w, c in found if w.startswith(f"{SPEC}:") and c == "TC201") == 40
    assert (f"{SPEC}:20:13: warning[TC201]: property 'path' of pinned tool 'read_file' of "
            "toolset 'server' has no description") in out
    assert "0 error(s), 69 warning(s)" in out

    code, out, _ = build(vendor=True)
    assert code == 0 and len(located(out)) == 69 and SERVER_LINE not in out

    code, out, _ = check(vendor=True, fmt="json")
    doc = json.loads(out)
    assert code == 0 and len(doc["diagnostics"]) == 69 and doc["vendor"] == []
    assert {"path": SPEC, "line": 17, "col": 20, "code": "TC221"} in [
        {k: d[k] for k in ("path", "line", "col", "code")} for d in doc["diagnostics"]]

    code, out, _ = check(vendor=True, fmt="github")
    assert code == 0 and out.count(f"::warning file={SPEC},line=") == 68
    assert "::notice" not in out


def test_json_and_github_fold_them_too(imported: Path) -> None:
    code, out, _ = check(fmt="json")
    doc = json.loads(out)
    assert code == 0 and [d["path"] for d in doc["diagnostics"]] == ["specs/notes.toolc.yaml"]
    assert doc["vendor"] == [{"path": SPEC, "line": 8, "col": 3, "toolset": "server",
                              "tools": 14, "findings": 68,
                              "rules": {"TC201": 40, "TC221": 28}}]
    code, out, _ = build(fmt="json")
    doc = json.loads(out)
    assert code == 0 and len(doc["diagnostics"]) == 1 and doc["vendor"][0]["findings"] == 68

    code, out, _ = check(fmt="github")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 2
    assert lines[0].startswith("::warning file=specs/notes.toolc.yaml,line=8,col=7,")
    assert lines[1] == (f"::notice file={SPEC},line=8,col=3,title=pinned MCP server::"
                        f"{SERVER_LINE.split(': ', 1)[1]}")


def test_what_fails_the_run_is_never_folded(imported: Path) -> None:
    # --strict fails on warnings: each is shown, the server's too, and the exit is 1.
    code, out, _ = check(strict=True)
    assert code == 1 and len(located(out)) == 69 and SERVER_LINE not in out

    # A pinned tool whose name cannot be published is an error, at its line; the
    # server's warnings stay folded.
    spec = imported / SPEC
    spec.write_text(spec.read_text().replace("      read_file:\n", "      read file:\n"))
    code, out, _ = check()
    assert code == 1
    assert located(out, "error") == [(f"{SPEC}:12:7", "TC301")]
    assert located(out) == [("specs/notes.toolc.yaml:8:7", "TC201")]
    assert SERVER_LINE in out.splitlines() and "1 error(s), 1 warning(s)" in out


def test_changes_to_pinned_tools_still_show_in_full(imported: Path) -> None:
    assert build()[0] == 0
    spec = imported / SPEC
    spec.write_text(spec.read_text().replace(
        "            path: {type: string}\n            tail:\n", "            tail:\n", 1))
    code, out, _ = build()
    assert code == 0 and SERVER_LINE.replace("68", "67").replace("x40", "x39") in out
    assert re.search(r"read_file.*\n.*PROPERTY_REMOVED.*/properties/path", out), out


def test_a_client_config_is_one_line_per_server_and_one_line_to_silence_them(
        project: Path) -> None:
    """Two real stdio servers of one `{"mcpServers": ...}` file, pinned in one spec."""
    serve = [str(FIXTURES / "server.py")]
    config = {"mcpServers": {
        "files": {"command": sys.executable, "args": python_args(*serve, str(LISTING), "stdio")},
        "issues": {"command": sys.executable,
                   "args": python_args(*serve, str(FIXTURES / "tools.json"), "stdio")}}}
    (project / "desktop.json").write_text(json.dumps(config))
    code, out, err = call(run_import, stdio=None, http=None, saved=None,
                          config_file="desktop.json", module=None, out_path=None)
    assert code == 0, out + err
    heads = [line for line in out.splitlines() if " pins " in line]
    assert [h.split(": ", 1)[1].split(";")[0] for h in heads] == [
        "toolset 'files' pins 14 tool(s)", "toolset 'issues' pins 4 tool(s)"]
    assert out.count("[tool.toolc.per-file-severity]") == 1 and "warning[" not in out
    code, out, _ = check()
    lines = [line for line in out.splitlines() if "pinned tool(s)" in line]
    assert code == 0 and len(lines) == 2
    assert "toolset 'files': 14 pinned tool(s), 68 finding(s) about the server" in lines[0]
    assert "toolset 'issues': 4 pinned tool(s)" in lines[1]


def test_the_command_line_takes_vendor(imported: Path) -> None:
    result = CliRunner().invoke(main, ["validate", "--vendor"], catch_exceptions=False)
    assert result.exit_code == 0 and len(located(result.stdout)) == 69
    result = CliRunner().invoke(main, ["validate"], catch_exceptions=False)
    assert result.exit_code == 0 and SERVER_LINE in result.stdout.splitlines()


def test_only_findings_inside_a_toolsets_pinned_tools_are_the_servers() -> None:
    text = ("toolc: 1\nmodule: m\ntoolsets:\n  server:\n    kind: mcp\n"
            "    stdio: {command: srv}\n    tools:\n      a:\n        input_schema:\n"
            "          type: object\n      b: {input_schema: {type: object}}\n"
            "  mine:\n    kind: prefixed\n    inner: server\n    prefix: x_\nexport: mine\n")
    [server] = pinned_servers("s.toolc.yaml", text)
    assert (server.toolset, server.tools, server.first, server.last) == ("server", 2, (7, 5),
                                                                         (11, 32))

    def at(line: int, col: int, severity: Severity = Severity.WARNING) -> Diagnostic:
        return Diagnostic("TC201", severity, "m", Span("s.toolc.yaml", line, col))

    inside, flow, stdio, mine, error = (at(8, 7), at(11, 30), at(6, 5), at(12, 3),
                                        at(9, 9, Severity.ERROR))
    shown, servers = fold([inside, flow, stdio, mine, error], {"s.toolc.yaml": text})
    assert shown == [stdio, mine, error]
    assert [s.findings for s in servers] == [[inside, flow]]
    assert fold([inside], {})[0] == [inside]  # no source to place it: shown
    assert fold([inside], {"s.toolc.yaml": text}, strict=True)[0] == [inside]
    assert fold([inside], {"s.toolc.yaml": "tools: [\n"})[0] == [inside]  # not YAML
    flow = ('toolc: 1\nmodule: m\ntoolsets: {"s": {"kind": "mcp", "stdio": {"command": "x"}, '
            '"tools": {"a": {}, "b": {}, "c": {}}}}\n')
    assert [(s.toolset, s.tools) for s in pinned_servers("f.toolc.yaml", flow)] == [("s", 3)]
