"""Client profiles through the CLI: which clients, which server name, where it is said."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from project_support import make_project, pyproject
from toolc.cli import main

SPEC = """\
toolc: 1
module: desk
tools:
  summarizeTheRepositoryHistoryIntoOneReport:
    description: Fits behind mcp__desk__, not behind a longer server name.
    handler: app:summarize
  list:
    description: List.
    handler: app:list
toolsets:
  files: {kind: function, tools: [summarizeTheRepositoryHistoryIntoOneReport, list]}
  wb: {kind: prefixed, inner: files, prefix: wb_}
export: wb
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    make_project(tmp_path, {"desk": SPEC})
    monkeypatch.chdir(tmp_path)
    return tmp_path


def validate(project: Path, config: str) -> tuple[int, list[dict[str, object]], str]:
    (project / "pyproject.toml").write_text(pyproject(extra=config))
    result = CliRunner().invoke(main, ["validate", "--format", "json"])
    found = json.loads(result.stdout)["diagnostics"] if result.stdout.strip() else []
    return result.exit_code, found, result.stderr


def test_the_default_server_name_is_the_module_and_the_name_fits(project: Path) -> None:
    # mcp__desk__wb_summarizeTheRepositoryHistoryIntoOneReport: 56 characters.
    code, found, _ = validate(project, "")
    assert code == 0 and found == []


def test_a_longer_server_name_pushes_it_over_and_the_prefix_is_blamed(project: Path) -> None:
    code, found, _ = validate(project, 'server-name = "desk-of-tools"\n')
    assert code == 0 and [d["code"] for d in found] == ["TC320"]
    [warning] = found
    assert (warning["line"], warning["col"]) == (12, 46)  # the prefix `wb_`
    assert "prefix 'wb_' of toolset 'wb' makes the published name " \
        "'wb_summarizeTheRepositoryHistoryIntoOneReport'" in str(warning["message"])
    assert "(65 characters)" in str(warning["message"])


def test_server_names_per_module(project: Path) -> None:
    _code, found, _ = validate(project, '[tool.toolc.server-name]\ndesk = "a-much-longer-desk"\n')
    assert [d["code"] for d in found] == ["TC320"]
    _, found, _ = validate(project, '[tool.toolc.server-name]\nother = "a-much-longer-desk"\n')
    assert found == []


def test_without_the_claude_profile_its_rules_are_not_checked(project: Path) -> None:
    code, found, _ = validate(project, 'clients = ["openai"]\nserver-name = "x' + "y" * 40 + '"\n')
    assert code == 0 and found == []


@pytest.mark.parametrize(("line", "says"), [
    ('clients = ["claud"]', ("unknown client 'claud' in [tool.toolc] clients (did you mean "
                            "'claude'?)")),
    ('clients = "claude"', "clients must be a list of client names"),
    ('server-name = "my desk"', "server-name must be 1-64 of A-Z a-z 0-9 _ -"),
    ('server-name = "my__desk"', ("has `__`, which makes Claude's mcp__my__desk__<tool> names "
                                 "ambiguous")),
])
def test_bad_client_settings_are_configuration_errors(project: Path, line: str,
                                                      says: str) -> None:
    code, _, err = validate(project, line + "\n")
    [problem] = json.loads(err)["diagnostics"]
    assert code == 1 and problem["code"] == "TC901" and says in problem["message"]


def test_a_server_name_that_leaves_no_room_is_said_once_at_the_module(project: Path) -> None:
    code, found, _ = validate(project, f'server-name = "{"s" * 60}"\n')
    assert code == 0 and [(d["code"], d["line"]) for d in found] == [("TC320", 2)]
    assert "leaves no room for tool names" in str(found[0]["message"])
