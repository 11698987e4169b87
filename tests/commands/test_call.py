"""`toolc call` through the real served path: the bundled workbench spec (handlers in
examples/workbench_app) and a probe project, opened as `toolc serve` opens them, served
by `to_mcp_server` and called by the real `mcp.Client` in process; the approval prompt
answered through a real pseudo-terminal by a `toolc call` subprocess."""

from __future__ import annotations

import io
import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from forkserver_support import ctrl_c_by_default
from project_support import make_project
from toolc.budget import definition_tokens, export_budget
from toolc.cli import main
from toolc.commands.call import run_call
from toolc.config import load_config
from toolc.frontend import compile_specs

ROOT = Path(__file__).resolve().parents[2]
WORKBENCH = str(ROOT / "specs" / "workbench.toolc.yaml")
# Waits are bounded only so that a bug fails instead of hanging.
PATIENCE_S = 300

PROBE_SPEC = """\
toolc: 1
module: probe
description: Tools that say what they were given.
tools:
  show:
    description: Say back the arguments as the handler received them.
    handler: probe_app:show
    params:
      count: {type: integer, description: A count., required: false}
      ratio: {type: number, description: A ratio., required: false}
      flag: {type: boolean, description: A flag., required: false}
      name: {type: string, description: A name., required: false}
      tags: {type: array, items: {type: string}, description: Labels., required: false}
      note: {type: string, nullable: true, description: A note or nothing., required: false}
  shout:
    description: Return text that tries to steer the terminal.
    handler: probe_app:shout
  whoami:
    description: Say whose deps the call got.
    handler: probe_app:whoami
  nap:
    description: Sleep until interrupted.
    handler: probe_app:nap
  mail:
    description: Take an address, its format asserted by the server.
    handler: probe_app:show
    format: assert
    params:
      name: {type: string, format: email, description: An address.}
"""

PROBE_HANDLERS = """\
import json

def show(ctx, count=None, ratio=None, flag=None, name=None, tags=None, note="(absent)"):
    given = {"count": count, "ratio": ratio, "flag": flag, "name": name, "tags": tags,
             "note": note}
    return json.dumps({k: [type(v).__name__, v] for k, v in given.items()})

def shout(ctx):
    return "\\x1b]0;pwned\\x07first line\\nsecond \\x1b[2Jline"

def whoami(ctx):
    return str(ctx.deps)

def make_deps():
    return "the probe's deps"

async def nap(ctx):
    import sys, anyio
    print("napping", file=sys.stderr, flush=True)
    await anyio.sleep(600)
"""


def call(*args: str, **options: object) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_call(*args, out=out, err=err, stdin=io.StringIO(), **options)  # type: ignore[arg-type]
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(autouse=True)
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The workbench's notes go to tmp_path, never into the repository."""
    monkeypatch.setenv("WORKBENCH_WORKSPACE", str(tmp_path / "workspace"))
    monkeypatch.delenv("WORKBENCH_LOG", raising=False)
    return tmp_path / "workspace"


def probe_project(root: Path, spec: str = PROBE_SPEC) -> Path:
    """The probe spec in ``root``, its handler module beside it: its path."""
    make_project(root, {"probe": spec}, output="generated", python_path=["."],
                 files={"probe_app.py": textwrap.dedent(PROBE_HANDLERS)})
    return root / "specs" / "probe.toolc.yaml"


@pytest.fixture
def probe(tmp_path: Path) -> Path:
    return probe_project(tmp_path / "probe")


# -- calls ---------------------------------------------------------------------------------

def test_a_call_with_arguments_prints_the_result() -> None:
    code, out, err = call(WORKBENCH, "wb_readLog", args_json='{"lines": 3, "level": "warning"}')
    assert code == 0, err
    assert out.splitlines() == [
        "2026-11-29 08:03:40 WARNING slow query: SELECT * FROM notes (812ms)",
        "2026-11-29 08:07:55 ERROR upstream timeout after 30s: GET /weather",
        "2026-11-29 08:12:44 WARNING disk usage at 81%",
    ]


def test_key_value_words_are_typed_by_the_published_schema(probe: Path) -> None:
    code, out, err = call(str(probe), "show", ("count=3", "ratio=2.5", "flag=true",
                                                "name=007", "tags:=[\"a\", \"b\"]", "note:=null"))
    assert code == 0, err
    assert json.loads(out) == {"count": ["int", 3], "ratio": ["float", 2.5],
                               "flag": ["bool", True], "name": ["str", "007"],
                               "tags": ["list", ["a", "b"]], "note": ["NoneType", None]}


def test_words_go_over_args_and_a_nullable_string_takes_a_word_as_text(probe: Path) -> None:
    code, out, err = call(str(probe), "show", ("count=4", "note=null"),
                          args_json='{"count": 1, "name": "kept"}')
    assert code == 0, err
    shown = json.loads(out)
    assert (shown["count"], shown["name"], shown["note"]) == (["int", 4], ["str", "kept"],
                                                              ["str", "null"])


def test_words_on_the_bundled_spec_reach_the_handler_typed(workspace: Path) -> None:
    code, out, err = call(WORKBENCH, "wb_readLog", ("lines=1", "level=error"))
    assert (code, out) == (0, "2026-11-29 08:07:55 ERROR upstream timeout after 30s: GET /weather\n"), err
    code, out, err = call(WORKBENCH, "wb_saveNote", ("text=42",), yes=True)
    assert code == 0, err
    assert json.loads((workspace / "notes.jsonl").read_text()) == {"text": "42"}  # a string


def test_structured_content_in_text_and_json(workspace: Path) -> None:
    assert call(WORKBENCH, "wb_saveNote", ("text=first",), yes=True)[0] == 0
    code, out, _ = call(WORKBENCH, "wb_listNotes", ("limit=5",))
    assert code == 0
    assert out == ('{"notes": [{"line": 1, "text": "first"}]}\nstructured content:\n'
                   + json.dumps({"notes": [{"line": 1, "text": "first"}]}, indent=2) + "\n")
    code, out, _ = call(WORKBENCH, "wb_listNotes", fmt="json")
    assert code == 0
    assert json.loads(out) == {
        "content": [{"type": "text", "text": '{"notes": [{"line": 1, "text": "first"}]}'}],
        "structuredContent": {"notes": [{"line": 1, "text": "first"}]}, "isError": False}


def test_invalid_arguments_are_said_at_their_json_pointer_and_not_sent(
        probe: Path, workspace: Path) -> None:
    code, out, err = call(WORKBENCH, "wb_readLog", ("lines=0",))
    assert (code, out) == (2, ""), err
    assert err == ("error: the arguments do not match wb_readLog's published input schema, "
                   "so it was not called:\n  /lines: 0 is less than the minimum of 1\n")
    code, _, err = call(str(probe), "show", ("tags:=[\"a\", 3, {}]",))
    assert code == 2 and err.splitlines()[1:] == ['  /tags/1: 3 is not of type "string"',
                                                  '  /tags/2: {} is not of type "string"']
    code, _, err = call(WORKBENCH, "wb_saveNote", yes=True)  # nothing asked, nothing run
    assert code == 2 and err.splitlines()[1:] == [
        '  (arguments): "text" is a required property']
    assert not (workspace / "notes.jsonl").exists()


def test_the_server_checks_again_and_its_word_is_the_last(probe: Path) -> None:
    """format: assert is the served tool's, not its listed schema's: the client's check
    lets the address through, the server refuses it, as it would any client's."""
    code, out, err = call(str(probe), "mail", ("name=nobody",))
    assert (code, out) == (1, 'Invalid arguments:\n- name: "nobody" is not a "email"\n'), err
    assert "mail returned an error result (isError)" in err
    code, out, _ = call(str(probe), "mail", ("name=nobody",), fmt="json")
    assert code == 1 and json.loads(out)["isError"] is True
    assert json.loads(out)["structuredContent"] is None


def test_a_failing_handler_is_masked_as_for_a_client_and_logged_on_stderr(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WORKBENCH_LOG", str(tmp_path / "no-such.log"))
    code, out, err = call(WORKBENCH, "wb_readLog")
    masked = out.removesuffix("\n")
    assert code == 1 and re.fullmatch(r"internal error in tool \w+ \(ref 1\)", masked), out
    assert f"toolc call: server ERROR {masked}\nTraceback" in err  # matched by its ref
    assert "FileNotFoundError" in err and "no-such.log" in err


def test_untrusted_result_text_is_inert_and_keeps_its_lines(probe: Path) -> None:
    code, out, _ = call(str(probe), "shout")
    assert code == 0
    assert out == "\\x1b]0;pwned\\x07first line\nsecond \\x1b[2Jline\n"
    code, out, _ = call(str(probe), "shout", fmt="json")
    assert "\x1b" not in out and json.loads(out)["content"][0]["text"].startswith("\x1b]0;")


def test_deps_are_made_as_toolc_serve_makes_them(probe: Path) -> None:
    assert call(str(probe), "whoami", deps="probe_app:make_deps")[1] == "the probe's deps\n"
    pyproject = probe.parents[1] / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + 'serve-deps = "probe_app:make_deps"\n')
    assert call(str(probe), "whoami")[1] == "the probe's deps\n"
    code, _, err = call(str(probe), "whoami", deps="probe_app:nowhere")
    assert code == 2 and "--deps" in err and "Traceback" not in err


def test_a_generated_module_and_a_declared_toolset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    code, out, err = call("workbench", "readLog", ("lines=1",), toolset_name="app")
    assert (code, out) == (0, "2026-11-29 08:15:00 INFO GET /notes 200 3ms\n"), err


# -- approval --------------------------------------------------------------------------------

def test_approval_without_a_terminal_is_refused_unless_yes(workspace: Path) -> None:
    code, out, err = call(WORKBENCH, "wb_saveNote", ("text=hi",))
    assert (code, out) == (1, "The user declined the call to 'wb_saveNote'; it was not run.\n")
    assert "Allow the tool 'wb_saveNote' to run with these arguments?" in err
    assert "not approved: stdin is not a terminal" in err and "--yes" in err
    assert not (workspace / "notes.jsonl").exists()
    code, out, err = call(WORKBENCH, "wb_saveNote", ("text=hi",), yes=True)
    assert (code, out) == (0, '{"line": 1}\nstructured content:\n{\n  "line": 1\n}\n'), err
    assert "approved by --yes" in err


def in_terminal(args: list[str], answer: bytes | None, env: dict[str, str], *,
                prompt: bytes = b"[y/N] ") -> tuple[int, str, str]:
    """`toolc call ARGS` with stdin and stderr on a real pseudo-terminal: once ``prompt``
    is shown there, ``answer`` typed into it (None: Ctrl-C, SIGINT); (exit, stdout,
    what the terminal showed)."""
    controller, terminal = pty.openpty()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "toolc", "call", *args], cwd=ROOT,
                                stdin=terminal, stderr=terminal, stdout=subprocess.PIPE,
                                env=env,
                                preexec_fn=ctrl_c_by_default)  # noqa: PLW1509  # one signal reset
        os.close(terminal)
        shown = _read_until(controller, prompt)
        if answer is None:
            proc.send_signal(signal.SIGINT)
        else:
            os.write(controller, answer)
        out = proc.communicate(timeout=PATIENCE_S)[0]
        shown += _read_until(controller, None)
    finally:
        os.close(controller)
    return proc.returncode, out.decode(), shown.decode(errors="replace")


def _read_until(fd: int, marker: bytes | None) -> bytes:
    """What the terminal shows, up to ``marker`` (None: until the child closed it)."""
    seen, deadline = b"", time.monotonic() + PATIENCE_S
    while marker is None or marker not in seen:
        assert time.monotonic() < deadline, f"no {marker!r} on the terminal: {seen!r}"
        ready, _, _ = select.select([fd], [], [], 1.0)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # the child closed the terminal
            chunk = b""
        if not chunk:
            assert marker is None, f"the terminal closed before {marker!r}: {seen!r}"
            break
        seen += chunk
    return seen


@pytest.mark.parametrize(("answer", "approved"), [(b"maybe\ny\n", True), (b"no\n", False)])
def test_approval_is_asked_on_the_terminal(workspace: Path, answer: bytes,
                                           approved: bool) -> None:
    env = {**os.environ, "WORKBENCH_WORKSPACE": str(workspace)}
    code, out, shown = in_terminal([WORKBENCH, "wb_saveNote", "text=from the terminal"],
                                   answer, env)
    assert "Allow the tool 'wb_saveNote' to run with these arguments?" in shown
    assert '"text": "from the terminal"' in shown
    if approved:  # after an unclear answer, asked again
        assert "please answer y or n\r\nApprove? [y/N] " in shown
        assert (code, out.splitlines()[0]) == (0, '{"line": 1}'), shown
        assert json.loads((workspace / "notes.jsonl").read_text()) == {
            "text": "from the terminal"}
    else:
        assert (code, out) == (1, ("The user declined the call to 'wb_saveNote'; it was not "
                                  "run.\n")), shown
        assert not (workspace / "notes.jsonl").exists()


def test_ctrl_c_at_the_prompt_declines_and_while_running_ends_the_call(
        workspace: Path, probe: Path) -> None:
    env = {**os.environ, "WORKBENCH_WORKSPACE": str(workspace)}
    code, out, shown = in_terminal([WORKBENCH, "wb_saveNote", "text=x"], None, env)
    assert (code, out) == (1, ("The user declined the call to 'wb_saveNote'; it was not "
                               "run.\n")), shown
    assert not (workspace / "notes.jsonl").exists() and "Traceback" not in shown
    code, out, shown = in_terminal([str(probe), "nap"], None, env, prompt=b"napping")
    assert (code, out) == (1, ""), shown
    assert "toolc call: interrupted; the tool may have run in part" in shown
    assert "Traceback" not in shown


# -- --list ----------------------------------------------------------------------------------

def test_list_gives_each_tool_its_budget_cost() -> None:
    config = load_config(ROOT)
    compiled = compile_specs(config)
    assert compiled.project is not None
    module = compiled.project.modules["workbench"]
    costs = {t.name: definition_tokens(t) for t in module.exported_tools}
    total = export_budget(module, tool_search=config.searches()).tokens
    code, out, err = call(WORKBENCH, list_tools=True)
    assert code == 0, err
    assert out.splitlines() == [
        f"workbench: 3 tool(s), ~{total} tokens",
        (f"  wb_readLog    ~{costs['wb_readLog']} tokens  Return the newest lines of the "
        "server log."),
        (f"  wb_saveNote   ~{costs['wb_saveNote']} tokens  Append a note to "
        "workspace/notes.jsonl. (asks for approval)"),
        (f"  wb_listNotes  ~{costs['wb_listNotes']} tokens  Return the most recent notes from "
        "workspace/notes.jsonl, newest last."),
    ]
    code, out, _ = call(WORKBENCH, list_tools=True, fmt="json")
    listed = json.loads(out)
    assert (listed["server"], listed["tokens"]) == ("workbench", total)
    assert {t["name"]: t["tokens"] for t in listed["tools"]} == costs
    assert [t["requiresApproval"] for t in listed["tools"]] == [False, True, False]


# -- bad inputs ------------------------------------------------------------------------------

@pytest.mark.parametrize(("words", "options", "message"), [
    (("readLog",), {}, ("workbench has no tool 'readLog' (did you mean 'wb_readLog'?); its "
                       "tools: wb_listNotes, wb_readLog, wb_saveNote")),
    ((), {}, "name the tool to call (--list shows each with its description): wb_listNotes"),
    (("wb_readLog",), {"args_json": "{lines: 3}"}, ("--args is not JSON: Expecting property "
                                                   "name enclosed in double quotes (line 1, "
                                                   "column 2)")),
    (("wb_readLog",), {"args_json": "[3]"}, ("--args must be a JSON object of arguments, "
                                            "not an array")),
    (("wb_readLog", "lines=many"), {}, ("lines='many': 'lines' is an integer, and 'many' is "
                                       "not one")),
    (("wb_readLog", "lins=3"), {}, ("wb_readLog has no argument 'lins' (did you mean "
                                   "'lines'?); its arguments: level, lines")),
    (("wb_readLog", "lines"), {}, "'lines' is not key=value (or key:=JSON"),
    (("wb_readLog", "lines:=[3"), {}, "lines:= takes JSON, and '[3' is not"),
    (("wb_readLog",), {"list_tools": True}, ("--list lists what the target exports; it takes "
                                            "no TOOL")),
    (("wb_readLog",), {"toolset_name": "nope"}, ("module workbench has no toolset 'nope' "
                                                "(toolsets: app, main)")),
])
def test_bad_inputs_are_usage_errors(words: tuple[str, ...], options: dict[str, object],
                                     message: str) -> None:
    tool, rest = (words[0], words[1:]) if words else (None, ())
    code, out, err = call(WORKBENCH, tool, rest, **options)
    assert (code, out) == (2, ""), err
    assert err.startswith("error: ") and message in err, err
    assert "Traceback" not in err


def test_a_word_that_needs_json_says_so(probe: Path) -> None:
    code, _, err = call(str(probe), "show", ("tags=a,b",))
    assert code == 2
    assert "tags='a,b': 'tags' is an array, and 'a,b' is not one; write it as JSON: " \
           "tags:=JSON" in err


def test_a_target_that_is_not_there(tmp_path: Path) -> None:
    code, _, err = call(str(tmp_path / "nowhere.toolc.yaml"), "x")
    assert code == 2 and "no such spec" in err


def test_a_spec_with_errors_is_reported_at_its_lines_and_nothing_runs(
        tmp_path: Path) -> None:
    broken = PROBE_SPEC.replace("{type: integer, description: A count.", "{type: intger, "
                                "description: A count.")
    spec = probe_project(tmp_path / "bad", broken)
    code, out, err = call(str(spec), "show", ("count=1",))
    assert (code, out) == (1, ""), err
    assert "probe.toolc.yaml:9:21: error[TC305]: " in err and "unknown type 'intger'; did you mean " \
        "'integer'?" in err
    assert err.endswith("error: the specs have errors; the tool was not called\n")


def test_a_toolset_that_cannot_be_entered_is_said_not_raised(tmp_path: Path) -> None:
    make_project(tmp_path, {"far": "toolc: 1\nmodule: far\ntoolsets:\n  away:\n    kind: mcp\n"
                            f"    stdio: {{command: {tmp_path / 'no-such-server'}}}\n"
                            "export: away\n"})
    spec = tmp_path / "specs" / "far.toolc.yaml"
    code, out, err = call(str(spec), list_tools=True)
    assert (code, out) == (1, ""), err
    assert err.startswith("error: the toolset could not be served: MCP server stdio: ")
    assert "cannot connect" in err and "Traceback" not in err


def test_the_command_line(workspace: Path) -> None:
    """cli.py passes its options on; click's own usage errors exit 2 as well."""
    result = CliRunner().invoke(main, ["call", WORKBENCH, "wb_readLog", "lines=1",
                                       "--args", '{"level": "warning"}'])
    assert (result.exit_code, result.stdout) == (
        0, "2026-11-29 08:12:44 WARNING disk usage at 81%\n"), result.stderr
    result = CliRunner().invoke(main, ["call", WORKBENCH, "--list", "--format", "json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["server"] == "workbench"
    result = CliRunner().invoke(main, ["call", WORKBENCH, "wb_saveNote", "text=x", "-y"])
    assert result.exit_code == 0 and (workspace / "notes.jsonl").exists()
    result = CliRunner().invoke(main, ["call", WORKBENCH, "--format", "yaml"])
    assert result.exit_code == 2
