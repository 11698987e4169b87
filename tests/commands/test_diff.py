"""`toolc diff` end to end: folders, a real git history, the current build, and fail-on."""

from __future__ import annotations

import http.server
import io
import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import ClassVar

import pytest
from commands_support import (
    EXPORTERS,
    SPEC,
    build,
    cli,
    commit,
    diff,
    edit,
    git,
    reexports_repo,
    relax_missing_descriptions,
)
from forkserver_support import python_cmd
from project_support import enter, make_project
from toolc.commands.build import run_build
from toolc.commands.diff import run_diff

COMPARED_HEAD = ("toolc: compared the committed golden files (HEAD:generated/schemas) "
                 "with a fresh build of the specs\n")


def test_nothing_changed(repo: Path) -> None:
    assert diff() == (0, "No changes in the published tools.\n", COMPARED_HEAD)
    assert diff(against="HEAD") == (0, "No changes in the published tools.\n", "")


def test_after_a_writing_build_diff_still_shows_the_change_against_the_commit(
        repo: Path) -> None:
    """The issue's loop: a breaking edit, `toolc build` overwrites the golden files, and
    the reviewer's `toolc diff` must still see the change (HEAD, not the disk)."""
    edit(repo, "required: false", "required: true")
    assert build() == 0
    code, out, err = diff(fmt="markdown")
    assert code == 1 and "REQUIRED_ADDED" in out and err == COMPARED_HEAD
    assert ("Compared the committed golden files (HEAD:generated/schemas) with a fresh "
            "build of the specs.") in out  # the pull request's reader sees it too
    # The files on disk are still reachable by name: they match the build.
    assert diff("generated/schemas")[0] == 0


def test_outside_git_diff_says_it_compared_the_files_on_disk(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    enter(make_project(tmp_path, {"notes": SPEC}), monkeypatch)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    assert build() == 0
    code, out, err = diff()
    assert code == 0 and "No changes" in out
    assert "not in a git repository" in err and "on disk (generated/schemas/)" in err
    edit(tmp_path, "Add a note.", "Add a note to the notebook.")
    assert diff(fail_on="info")[0] == 1


def test_fail_on_defaults_to_the_projects_threshold(repo: Path) -> None:
    (repo / "pyproject.toml").write_text('[tool.toolc]\nspecs = "specs"\n'
                                         '[tool.toolc.diff]\nfail_on = "info"\n')
    commit(repo, "the team's threshold")  # the base's: the one that judges
    edit(repo, "Add a note.", "Add a note to the notebook.")
    assert diff()[0] == 1
    assert diff(fail_on="error")[0] == 0


def test_a_dropped_description_fails_against_the_committed_golden_files(repo: Path) -> None:
    relax_missing_descriptions(repo)
    commit(repo, "TC201 a warning")
    edit(repo, "        description: Labels for the note.\n", "")
    code, out, _ = diff(fmt="json")
    assert code == 1
    [change] = json.loads(out)["changes"]
    assert (change["tool"], change["rule"], change["severity"]) == (
        "notes/addNote", "DESCRIPTION_REMOVED", "error")
    assert change["pointer"] == "/inputSchema/properties/tags/description"


def test_against_a_git_ref_after_the_author_rebuilt(repo: Path) -> None:
    edit(repo, "required: false", "required: true")
    assert build() == 0
    assert diff("generated/schemas")[0] == 0  # the working tree's files match the build
    code, out, _ = diff(against="HEAD")
    assert code == 1 and "REQUIRED_ADDED" in out
    assert diff(against="HEAD", fail_on="never")[0] == 0


def test_two_folders_and_markdown(repo: Path, tmp_path: Path) -> None:
    old = repo / "generated" / "schemas"
    new = tmp_path / "new"
    (new / "notes").mkdir(parents=True)
    tool = json.loads((old / "notes" / "addNote.json").read_text())
    tool["inputSchema"]["properties"]["text"]["maxLength"] = 100
    (new / "notes" / "addNote.json").write_text(json.dumps(tool))
    code, out, _ = diff(str(old), str(new), fmt="markdown")
    assert code == 1 and "CONSTRAINT_TIGHTENED" in out and "### Schema changes" in out
    code, out, _ = diff(str(old), str(new), fmt="github", fail_on="never")
    assert code == 0 and out.startswith("::error file=")


def test_info_changes_pass_by_default_and_fail_on_info(repo: Path) -> None:
    edit(repo, "Add a note.", "Add a note to the notebook.")
    assert diff()[0] == 0
    assert diff(fail_on="info")[0] == 1


def test_accepted_change_does_not_fail(repo: Path) -> None:
    relax_missing_descriptions(repo)
    commit(repo, "TC201 a warning")
    edit(repo, "        description: Labels for the note.\n", "")
    # The acceptance is the pull request's own to write, and listed as its own.
    relax_missing_descriptions(repo, '[[tool.toolc.diff.accept]]\ntool = "addNote"\n'
                               'rule = "DESCRIPTION_REMOVED"\nreason = "tags explain themselves"\n')
    code, out, _ = diff()
    assert code == 0 and "DESCRIPTION_REMOVED" in out and "tags explain themselves" in out
    assert ("info[ACCEPTANCE_ADDED] /tool/toolc/diff/accept/0  pyproject.toml:5:1\n"
            "    accepted in this pull request: DESCRIPTION_REMOVED in addNote (1 change): "
            "tags explain themselves") in out


def test_bad_inputs_are_clear_errors_that_are_not_findings(repo: Path) -> None:
    """Exit 2, not 1: a CI gate must tell "breaking change" from "could not compare"."""
    code, _, err = diff(against="no-such-ref")
    assert code == 2 and "unknown git ref 'no-such-ref'" in err
    (repo / "bad").mkdir()
    (repo / "bad" / "x.json").write_text("{not json")
    code, _, err = diff("bad", "generated/schemas")
    assert code == 2 and "not valid JSON" in err
    # A spec with errors is a finding of the pull request: 1, with the diagnostic.
    edit(repo, "toolc: 1", "toolc: 3")
    code, _, err = diff()
    assert code == 1 and "TC104" in err


HIDDEN = """\
  .hidden:
    description: A tool whose golden file's name starts with a dot.
    handler: notes_app:hidden
    params:
      secret: {type: string, description: What the tool needs.}
      other: {type: string, description: Something else., required: false}
"""


def test_a_tool_published_with_a_leading_dot_is_compared_like_any_other(repo: Path) -> None:
    (repo / "specs" / "notes.toolc.yaml").write_text(SPEC + HIDDEN)
    assert build() == 0 and (repo / "generated" / "schemas" / "notes" / ".hidden.json").exists()
    git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "add", ".")
    git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "hidden")
    edit(repo, "      secret: {type: string, description: What the tool needs.}\n", "")
    for against in (None, "HEAD"):
        code, out, err = diff(against=against)
        assert code == 1 and "PROPERTY_REMOVED" in out and "notes/.hidden" in out, err
    out = io.StringIO()
    code = run_build(check=True, write=False, certify=False, fmt="text", strict=False,
                     out=out, err=io.StringIO())
    assert code == 1 and "PROPERTY_REMOVED" in out.getvalue()

# -- nothing runs or connects unless asked ---------------------------------------------

SERVED_SPEC = """\
toolc: 1
module: served
tools:
  ping:
    description: Ping.
    handler: served_app:ping
toolsets:
  local: {{kind: function, tools: [ping]}}
  server:
    kind: mcp
    {transport}
  both: {{kind: combined, toolsets: [local, server]}}
export: both
"""


def _served_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, transport: str) -> Path:
    return enter(make_project(tmp_path, {"served": SERVED_SPEC.format(transport=transport)}),
                 monkeypatch)


def _marking_command(tmp_path: Path, marker: Path) -> str:
    """An ``stdio`` entry whose command would create ``marker`` if it were started."""
    script = tmp_path / "make_marker.py"
    script.write_text(f"open({str(marker)!r}, 'w').close()\n")
    return f"stdio: {{command: {json.dumps(sys.executable)}, args: [{json.dumps(str(script))}]}}"


def _every_offline_command(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """validate, build (writing, certified), build --check under CI, diff: exit codes."""
    from toolc.commands.validate import validate

    out, err = io.StringIO(), io.StringIO()
    codes = [validate([], out=out, err=err)]
    codes.append(run_build(check=False, write=True, certify=True, fmt="text", strict=False,
                           out=out, err=err))
    monkeypatch.setenv("CI", "1")
    codes.append(run_build(check=True, write=False, certify=True, fmt="text", strict=False,
                           out=out, err=err))
    codes.append(run_build(check=False, write=False, certify=True, fmt="json", strict=False,
                           out=out, err=err))
    monkeypatch.delenv("CI")
    codes.append(run_diff(None, None, against=None, fmt="text", fail_on="error", out=out,
                          err=err))
    return codes


def test_an_unpinned_stdio_server_is_never_started(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    marker = tmp_path / "MARKER"
    project = _served_project(tmp_path, monkeypatch, _marking_command(tmp_path, marker))
    assert _every_offline_command(monkeypatch) == [0, 0, 0, 0, 0]
    assert not marker.exists()
    tool = json.loads((project / "generated" / "schemas" / "served" / "ping.json").read_text())
    assert tool["name"] == "ping"  # certified from what the spec says: the local tool


class _Recording(http.server.BaseHTTPRequestHandler):
    requests: ClassVar[list[str]] = []

    def do_POST(self) -> None:
        self.requests.append(self.path)
        self.send_response(500)
        self.end_headers()

    do_GET = do_DELETE = do_POST

    def log_message(self, *args: object) -> None:
        pass


def test_an_unpinned_http_server_is_never_contacted(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    _Recording.requests = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recording)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/mcp"
        _served_project(tmp_path, monkeypatch, f"http: {{url: {url!r}}}")
        assert _every_offline_command(monkeypatch) == [0, 0, 0, 0, 0]
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
    assert _Recording.requests == []


def test_live_still_contacts_the_servers_it_is_asked_to(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    marker = tmp_path / "MARKER"
    spec = (f"toolc: 1\nmodule: pinned\ntoolsets:\n  server:\n    kind: mcp\n"
            f"    {_marking_command(tmp_path, marker)}\n"
            f"    tools:\n      ping: {{description: Ping., input_schema: {{type: object}}}}\n"
            f"export: server\n")
    (tmp_path / "pyproject.toml").write_text('[tool.toolc]\nspecs = "specs"\n')
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "pinned.toolc.yaml").write_text(spec)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CI", raising=False)
    assert _every_offline_command(monkeypatch) == [0, 0, 0, 0, 0]
    assert not marker.exists()
    out, err = io.StringIO(), io.StringIO()
    run_diff(None, None, against=None, fmt="text", fail_on="error", out=out, err=err,
             live=True)
    assert marker.exists()  # the server was started, as asked (it is no MCP server)


USER_CODE_SPEC = """\
toolc: 1
module: guarded
tools:
  ping:
    description: Ping.
    handler: guarded_handlers:ping
toolsets:
  local: {kind: function, tools: [ping]}
  shown: {kind: filtered, inner: local, predicate: guarded_policy:allow}
  main: {kind: wrapper, inner: shown, wrapper: guarded_wrap:Pass}
export: main
"""


def test_user_code_is_imported_only_by_a_certifying_build(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolc]\nspecs = "specs"\npython-path = ["code"]\n')
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "guarded.toolc.yaml").write_text(USER_CODE_SPEC)
    code = tmp_path / "code"
    code.mkdir()
    mark = "import pathlib\npathlib.Path({!r}).touch()\n"
    (code / "guarded_handlers.py").write_text(
        mark.format(str(tmp_path / "HANDLERS")) + "def ping(ctx):\n    return 'pong'\n")
    (code / "guarded_policy.py").write_text(
        mark.format(str(tmp_path / "POLICY")) + "def allow(ctx):\n    return True\n")
    (code / "guarded_wrap.py").write_text(
        mark.format(str(tmp_path / "WRAP")) + "from toolc import runtime as rt\n\n\n"
        "class Pass(rt.WrapperToolset):\n    pass\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CI", raising=False)
    from toolc.commands.validate import validate

    out, err = io.StringIO(), io.StringIO()
    assert validate([], out=out, err=err) == 0
    for check in (False, True):  # writing, then checking: --no-certify imports nothing
        assert run_build(check=check, write=not check, certify=False, fmt="text",
                         strict=False, out=out, err=err) == 0, out.getvalue()
    assert run_diff(None, None, against=None, fmt="text", fail_on="error", out=out,
                    err=err) == 0
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.isupper()) == []
    assert run_build(check=False, write=True, certify=True, fmt="text", strict=False,
                     out=out, err=err) == 0, out.getvalue()
    # Serving the export to list it builds what it is made of; handlers run only when
    # a tool is called, and certification calls none.
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.isupper()) == ["POLICY", "WRAP"]


DESK = """\
toolc: 1
module: desk
tools:
  note:
    description: Add a note.
    handler: notes_app:add
    params:
      text: {type: string, description: The note., maxLength: 100}
  assign:
    description: Assign a ticket.
    handler: notes_app:add
    params:
      who: {type: string, description: The agent.}
  close:
    description: Close a ticket.
    handler: notes_app:add
    params:
      id: {type: integer, description: The ticket.}
toolsets:
  app: {kind: function, tools: [note, assign, close]}
  public:
    kind: renamed
    inner: app
    names: {assign: assign_ticket}
export: public
"""
DESK_EDITS = [("maxLength: 100", "maxLength: 50"), ("assign: assign_ticket", "assign: assign_to"),
              ("tools: [note, assign, close]", "tools: [note, assign]")]


def desk_repo(repo: Path) -> Path:
    """The repository with the desk spec committed, then edited: a changed property, a
    renamed tool, and a tool no longer exported."""
    (repo / "specs" / "notes.toolc.yaml").unlink()
    spec = repo / "specs" / "desk.toolc.yaml"
    spec.write_text(DESK)
    assert build() == 0
    git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "add", "-A")
    git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "desk")
    text = DESK
    for old, new in DESK_EDITS:
        text = text.replace(old, new)
    spec.write_text(text)
    return spec


def test_desk_lines() -> None:  # the lines the tests below name
    lines = DESK.splitlines()
    assert lines[7].startswith("      text:") and lines[13] == "  close:"
    assert lines[23].startswith("    names: {assign:")


def test_diff_markdown_links_each_change_to_its_spec_line(repo: Path) -> None:
    desk_repo(repo)
    code, out, _ = cli("diff", "--format", "markdown")
    assert code == 1
    rows = {line.split(" | ")[1]: line for line in out.splitlines()
            if line.startswith("| ") and "`" in line.split(" | ")[1]}
    link = "[`specs/desk.toolc.yaml:{0}`](specs/desk.toolc.yaml#L{0})"
    assert f"| {link.format(8)} | `/inputSchema/properties/text/maxLength` |" in \
        rows["`CONSTRAINT_TIGHTENED`"]
    (renamed,) = [line for line in out.splitlines() if "/desk.toolc.yaml#L24)" in line]
    # One rename, at the `names` entry that makes the new name.
    assert "(renaming 'assign' in toolset 'public')" in renamed and "`TOOL_RENAMED`" in renamed
    assert "`/name` | tool 'desk/assign\\_to' was renamed from 'assign\\_ticket'" in renamed
    (closed,) = [line for line in out.splitlines() if "(removed: no longer exported)" in line]
    assert f"| {link.format(14)} (removed: no longer exported) | (whole tool) |" in closed
    assert "`TOOL_REMOVED`" in closed
    code, out, _ = cli("diff", "--format", "json")
    spec = {(c["tool"], c["rule"]): c["spec"] for c in json.loads(out)["changes"]}
    assert spec[("desk/note", "CONSTRAINT_TIGHTENED")] == {
        "path": "specs/desk.toolc.yaml", "line": 8, "col": DESK.splitlines()[7].index("maxLength") + 1,
        "note": None}
    assert spec[("desk/close", "TOOL_REMOVED")]["line"] == 14


def test_diff_link_base_and_build_show_spec_lines_from_a_subprocess(repo: Path) -> None:
    import os

    desk_repo(repo)
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    base = "https://github.com/org/repo/blob/0123abc/"
    diff = subprocess.run(python_cmd("-m", "toolc", "diff", "--format", "markdown",
                                      "--link-base", base), cwd=repo, env=env, capture_output=True,
                          text=True, timeout=120, check=False)
    assert diff.returncode == 1, diff.stderr
    assert f"[`specs/desk.toolc.yaml:8`]({base}specs/desk.toolc.yaml#L8)" in diff.stdout
    built = subprocess.run(python_cmd("-m", "toolc", "build", "--no-certify"), cwd=repo,
                           env=env, capture_output=True, text=True, timeout=120, check=False)
    assert built.returncode == 0, built.stderr
    assert ("  error[TOOL_RENAMED] /name  specs/desk.toolc.yaml:24:21 "
            "(renaming 'assign' in toolset 'public')\n") in built.stdout


def test_spec_links_of_a_project_below_the_repository_root(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / "services" / "notes"
    (project / "specs").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[tool.toolc]\nspecs = "specs"\n')
    spec = project / "specs" / "notes.toolc.yaml"
    spec.write_text(SPEC)
    monkeypatch.chdir(project)
    monkeypatch.delenv("CI", raising=False)
    assert build() == 0
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "-c", "user.email=t@t", "-c", "user.name=t", "add", ".")
    git(tmp_path, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "base")
    spec.write_text(SPEC.replace("required: false", "required: true"))
    code, out, _ = diff(fmt="markdown")
    assert code == 1
    # Relative to the repository root, where GitHub resolves them: the project's folder first.
    assert ("[`services/notes/specs/notes.toolc.yaml:13`]"
            "(services/notes/specs/notes.toolc.yaml#L13)") in out


def test_a_link_base_that_is_not_an_http_url_is_a_usage_error(repo: Path) -> None:
    edit(repo, "required: false", "required: true")  # a change, so that links are made
    for bad in ("javascript:alert(1)//", "data:text/html,<b>x</b>", "/blob/abc/",
                "https://github.com/o/r/blob/abc/\n[x](https://e.io)"):
        code, out, err = cli("diff", "--format", "markdown", "--link-base", bad)
        assert (code, out) == (2, ""), (bad, out)
        assert "error: --link-base: not an http(s) URL" in err
        assert "\n" not in err.rstrip("\n")  # the option's own line break shown, not obeyed


HOSTILE_SPEC = SPEC.replace(
    "    description: Add a note.\n",
    "    description: 'Add a note. `` closes it [a link](https://e.io) "
    "<img src=https://t.io/p.png> **No changes in the published tools.**'\n").replace(
    "      text: {type: string, description: The note.}\n",
    "      text: {type: string, description: The note.}\n"
    "      level:\n        type: string\n        description: How urgent.\n"
    "        enum: ['![p](https://t.io/p.png) [x] *y* <b>', '| a@b.io |', low]\n")


def test_a_pull_requests_text_renders_inert_in_the_markdown_report(repo: Path) -> None:
    """The issue's report: what a pull request writes (descriptions, enum values quoted
    in messages, an accept reason) renders as text in the comment, through GitHub's own
    markdown parser; the only links are the report's, to spec lines."""
    from report_support import check_report
    from toolc.diagnostics import Severity
    from toolc.diff import Change, SpecPlace

    (repo / "specs" / "notes.toolc.yaml").write_text(HOSTILE_SPEC)
    assert build() == 0
    git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qam", "hostile")
    (repo / "specs" / "notes.toolc.yaml").write_text(
        HOSTILE_SPEC.replace("'| a@b.io |', ", "").replace(" **No changes", " **Done"))
    with (repo / "pyproject.toml").open("a") as pyproject:
        pyproject.write('[[tool.toolc.diff.accept]]\ntool = "addNote"\n'
                        'rule = "ENUM_VALUE_REMOVED"\n'
                        'reason = "**No changes.** ![p](https://t.io/p.png) <img src=x> `"\n')
    base = "https://github.com/o/r/blob/abc/"
    code, markdown, _ = cli("diff", "--format", "markdown", "--link-base", base,
                            "--fail-on", "info")
    assert code == 1
    code, out, _ = cli("diff", "--format", "json")
    document = json.loads(out)
    changes, policy = ([Change(c["tool"], c["pointer"], c["rule"], Severity(c["severity"]),
                               c["message"], c["old"], c["new"], accepted=c["accepted"],
                               reason=c["reason"], spec=c["spec"] and SpecPlace(**c["spec"]))
                        for c in document.get(key, [])] for key in ("changes", "policy"))
    assert {(c.rule, c.accepted) for c in changes} == {
        ("DESCRIPTION_CHANGED", False), ("ENUM_VALUE_REMOVED", True)}
    # The acceptance is the pull request's: listed, with its reason, among the rules' changes.
    assert [c.rule for c in policy] == ["ACCEPTANCE_ADDED"]
    assert "**No changes.** ![p](https://t.io/p.png)" in policy[0].message
    page = check_report(changes, markdown, base=base, policy=policy, fail_on="info",
                        compared="the committed golden files (HEAD:generated/schemas) with "
                                 "a fresh build of the specs")
    assert [a.attrs["href"] for a in page.root.all("a")] == [
        f"{base}{c.spec.path}#L{c.spec.line}" for c in [*policy, *sorted(
            changes, key=Change.sort_key)] if c.spec is not None]


def test_a_lone_surrogate_in_a_golden_file_is_shown_in_every_format(tmp_path: Path) -> None:
    """JSON may write "\\ud800", which no encoder writes as UTF-8: every format of a real
    `toolc diff` stopped with a UnicodeEncodeError traceback."""
    import os

    for side, description in (("old", "\\ud800 \\u001b[2J"), ("new", "fine")):
        (tmp_path / side / "m").mkdir(parents=True)
        (tmp_path / side / "m" / "t.json").write_text(
            f'{{"name": "t", "description": "{description}", "inputSchema": {{}}}}\n')
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    for fmt in ("text", "markdown", "json", "github"):
        run = subprocess.run(python_cmd("-m", "toolc", "diff", "old", "new", "--format",
                                        fmt, "--fail-on", "info"), cwd=tmp_path, env=env,
                             capture_output=True, timeout=120, check=False)
        assert (run.returncode, run.stderr) == (1, b""), (fmt, run.stderr)
        out = run.stdout.decode("utf-8")
        assert "\x1b" not in out and "\\ud800" in out  # an escape, in JSON too
        if fmt == "json":
            assert json.loads(out)["changes"][0]["old"] == "\ud800 \x1b[2J"


# -- one row per change (issue 22) -------------------------------------------------------

MODULES = sorted(("core", *EXPORTERS))
FIVE_ROWS = [  # the five edits, each once, whatever number of modules export the tool
    ("addNote", "REQUIRED_ADDED", "/inputSchema/properties/tags", "error"),
    ("addNote", "DESCRIPTION_CHANGED", "/description", "info"),
    ("addNote", "DESCRIPTION_REMOVED", "/inputSchema/properties/tags/description", "error"),
    ("listNotes", "CONSTRAINT_TIGHTENED", "/inputSchema/properties/limit/maximum", "error"),
    ("searchNotes", "TOOL_RENAMED", "/name", "error"),
]
FIVE_SUMMARY = ("5 changes in 3 tools: 3 breaking, 1 description lost, 1 compatible; "
                "CI fails on 4 of them unless accepted in [tool.toolc.diff]")


def test_a_change_to_a_tool_five_modules_export_is_one_row_naming_every_file(
        repo: Path) -> None:
    """Five edits of a tool four other modules import and export made 30 rows: a row for
    each module, and a rename as a removal and an addition."""
    reexports_repo(repo)
    code, out, _ = diff(against="HEAD", fmt="json")
    assert code == 1
    rows = json.loads(out)["changes"]
    assert sorted((r["tools"][0].split("/")[1], r["rule"], r["pointer"], r["severity"])
                  for r in rows) == sorted(FIVE_ROWS)
    for row in rows:
        name = row["tools"][0].split("/")[1]
        assert row["tools"] == [f"{m}/{name}" for m in MODULES]
        assert row["tool"] == row["tools"][0]  # the first key, where it always was
        assert row["files"] == [f"generated/schemas/{m}/{name}.json" for m in MODULES]
        assert row["spec"]["path"] == "specs/core.toolc.yaml"
    (renamed,) = [r for r in rows if r["rule"] == "TOOL_RENAMED"]
    assert (renamed["old"], renamed["new"]) == ("findNote", "searchNotes")
    assert renamed["message"] == "tool 'searchNotes' was renamed from 'findNote': calls to " \
                                 "'findNote' now fail"
    # In text the same five, under three tools, each naming its golden files.
    code, out, _ = diff(against="HEAD")
    assert code == 1 and out.count("error[") + out.count("info[") == 5
    assert "tool searchNotes in alpha, beta, core, delta, gamma\n" in out
    assert "".join(f"  generated/schemas/{m}/searchNotes.json\n" for m in MODULES) in out
    assert out.rstrip("\n").splitlines()[-1] == FIVE_SUMMARY


def test_build_and_diff_summarise_the_same_change_in_the_same_words(repo: Path) -> None:
    reexports_repo(repo)
    code, built, _ = cli("build", "--no-certify")
    assert code == 0  # a writing build takes the changes
    assert FIVE_SUMMARY in built.splitlines()
    code, out, _ = diff(against="HEAD")
    assert code == 1 and out.rstrip("\n").splitlines()[-1] == FIVE_SUMMARY
    code, out, _ = diff(against="HEAD", fmt="markdown")
    assert code == 1 and f"**{FIVE_SUMMARY}**" in out.splitlines()


FIVE_ACCEPTANCES = """
[[tool.toolc.diff.accept]]
rule = "DESCRIPTION_CHANGED"
tool = "*"
reason = "reworded"

[[tool.toolc.diff.accept]]
rule = "REQUIRED_ADDED"
module = "*"
reason = "every caller tags its notes since 2.0"

[[tool.toolc.diff.accept]]
tool = "findNote"
reason = "users search; agreed in #12"

[[tool.toolc.diff.accept]]
tool = "listNotes"
rule = "CONSTRAINT_TIGHTENED"
reason = "500 notes timed out"

[[tool.toolc.diff.accept]]
rule = "DESCRIPTION_REMOVED"
pointer = "/inputSchema/properties/tags"
reason = "the name says it"

[[tool.toolc.diff.accept]]
rule = "TOOL_REMOVED"
tool = "fndNote"
reason = "a typo: it matches nothing"
"""


def test_five_edits_are_accepted_by_five_entries_and_a_stray_one_is_a_warning(
        repo: Path) -> None:
    """Accepting the five edits took 11 entries, each naming its tool; an entry that
    matched nothing said nothing."""
    reexports_repo(repo)
    relax_missing_descriptions(repo, "[tool.toolc.diff]\n" + FIVE_ACCEPTANCES)
    code, out, err = diff(against="HEAD")
    assert code == 0, out
    assert out.rstrip("\n").splitlines()[-1] == "5 changes in 3 tools: 5 accepted; none fails CI"
    stray = ('warning: [tool.toolc.diff].accept[5] (rule = "TOOL_REMOVED", tool = "fndNote") '
             "matches no change between HEAD:generated/schemas and a fresh build of the specs: "
             "correct it, or delete it if its change is in the base already")
    assert stray in out.splitlines() and "TC" not in err
    code, out, _ = diff(against="HEAD", fmt="json")
    document = json.loads(out)
    assert code == 0 and all(row["accepted"] for row in document["changes"])
    assert {row["reason"] for row in document["changes"]} == {
        "reworded", "every caller tags its notes since 2.0", "users search; agreed in #12",
        "500 notes timed out", "the name says it"}
    assert document["warnings"] == [stray.removeprefix("warning: ")]
    code, out, _ = diff(against="HEAD", fmt="markdown")
    (warned,) = [line for line in out.splitlines() if line.startswith("**warning:** ")]
    assert code == 0 and "accept" in warned and "fndNote" in warned
    # The committed golden files leave out what the branch committed: no warning there.
    assert "warning" not in diff()[1]


RENAMED_FROM = [("  findNote:", "  searchNotes:\n    renamed_from: findNote"),
                ("listNotes, findNote]", "listNotes, searchNotes]"),
                ("Find a note by its text.", "Find the notes whose text holds the query.")]


def test_renamed_from_makes_a_changed_tool_one_rename_at_its_line(repo: Path) -> None:
    spec = reexports_repo(repo, RENAMED_FROM)
    code, out, err = diff(against="HEAD", fmt="json")
    assert code == 1 and err == ""
    line = spec.read_text().splitlines().index("  searchNotes:") + 1
    found = {(r["rule"], r["pointer"]): r for r in json.loads(out)["changes"]}
    assert set(found) == {("TOOL_RENAMED", "/name"), ("DESCRIPTION_CHANGED", "/description")}
    renamed = found[("TOOL_RENAMED", "/name")]
    assert renamed["spec"] == {"path": "specs/core.toolc.yaml", "line": line, "col": 3,
                               "note": None}
    assert renamed["tools"] == [f"{m}/searchNotes" for m in MODULES]
    assert (renamed["old"], renamed["new"], renamed["severity"]) == (
        "findNote", "searchNotes", "error")


def test_renamed_from_naming_no_tool_of_the_base_is_a_located_warning(repo: Path) -> None:
    spec = reexports_repo(repo, [(old.replace("renamed_from: findNote", "renamed_from: fndNote"),
                                  new.replace("renamed_from: findNote", "renamed_from: fndNote"))
                                 for old, new in RENAMED_FROM])
    line = spec.read_text().splitlines().index("    renamed_from: fndNote") + 1
    code, out, err = diff(against="HEAD", fmt="json")
    assert code == 1
    assert err.startswith(
        f"specs/core.toolc.yaml:{line}:19: warning[TC520]: renamed_from 'fndNote': the "
        "golden files compared with have no tool 'core/fndNote' (nor in the 4 other "
        "module(s) that export it), so 'core/searchNotes' is reported as added\n")
    assert "= note: did you mean 'findNote'?" in err
    assert sorted(r["rule"] for r in json.loads(out)["changes"]) == ["TOOL_ADDED", "TOOL_REMOVED"]
    code, built, _ = cli("build", "--no-certify")  # and with the build's own diagnostics
    assert code == 0 and f"specs/core.toolc.yaml:{line}:19: warning[TC520]" in built
    assert "warning[TC520]" not in cli("build", "--no-certify")[1]  # the base has it now
