"""Diagnostic formatters: text with source and caret, json, github commands."""

from __future__ import annotations

import json
import re
import subprocess
import sys

from hypothesis import given
from hypothesis import strategies as st
from report_support import hostile_text, in_a_log, raw_controls, workflow_commands
from toolc.diagnostics import Diagnostic, Severity, Span
from toolc.report.escaping import escape_controls
from toolc.report.github import github_command
from toolc.report.render import render_diagnostics

SOURCE = {"specs/a.toolc.yaml": "tools:\n  readLog:\n    descripton: Read.\n"}
DIAG = Diagnostic("TC101", Severity.ERROR,
                  "unknown key 'descripton' (did you mean 'description'?)",
                  Span("specs/a.toolc.yaml", 3, 5, 10), ("known keys: description, title",))


def test_text_shows_location_source_line_and_caret() -> None:
    assert render_diagnostics([DIAG], "text", SOURCE) == (
        "specs/a.toolc.yaml:3:5: error[TC101]: unknown key 'descripton' "
        "(did you mean 'description'?)\n"
        "3 |     descripton: Read.\n"
        "  |     ^^^^^^^^^^\n"
        "  = note: known keys: description, title"
    )


def test_text_without_source_or_span() -> None:
    d = Diagnostic("TC901", Severity.WARNING, "odd", None)
    assert render_diagnostics([d], "text", {}) == "warning[TC901]: odd"


def test_text_colour_only_when_asked() -> None:
    assert "\x1b[" not in render_diagnostics([DIAG], "text", SOURCE)
    assert "\x1b[1;31merror[TC101]" in render_diagnostics([DIAG], "text", SOURCE, color=True)


def test_json_has_every_field() -> None:
    [row] = json.loads(render_diagnostics([DIAG], "json", SOURCE))["diagnostics"]
    assert row == {
        "code": "TC101", "name": "unknown-key", "severity": "error",
        "message": "unknown key 'descripton' (did you mean 'description'?)",
        "path": "specs/a.toolc.yaml", "line": 3, "col": 5,
        "notes": ["known keys: description, title"],
    }


def test_github_workflow_command_escapes_data_and_properties() -> None:
    d = Diagnostic("TC204", Severity.WARNING, "50% off,\nreally", Span("a,b:c.yaml", 2, 7))
    assert render_diagnostics([d], "github", {}) == (
        "::warning file=a%2Cb%3Ac.yaml,line=2,col=7,title=TC204 bad-default::50%25 off,%0Areally"
    )


def test_a_long_line_is_shown_as_a_bounded_excerpt_around_the_column() -> None:
    line = "x" * 5_000_000 + "BAD" + "y" * 4_000_000
    d = Diagnostic("TC101", Severity.ERROR, "bad", Span("a.yaml", 1, 5_000_001, 3))
    text = render_diagnostics([d], "text", {"a.yaml": line})
    quoted, caret = text.splitlines()[1:3]
    assert len(quoted) < 300 and "BAD" in quoted
    assert quoted.startswith("1 | \u2026") and quoted.endswith("\u2026")
    assert caret.index("^^^") == quoted.index("BAD") and caret.count("^") == 3


def test_control_characters_are_escaped_in_messages_notes_and_source_lines() -> None:
    source = {"a.yaml": 'tools:\n  "t\x1b[31m\x07": {}\n'}
    d = Diagnostic("TC301", Severity.ERROR, "tool name 't\x1b[31m\x07' is bad",
                   Span("a.yaml", 2, 3, 9), ("see \x9b2J here",))
    for fmt in ("text", "github"):
        out = render_diagnostics([d], fmt, source)
        assert "\x1b" not in out and "\x07" not in out and "\x9b" not in out
        assert "\\x1b[31m\\x07" in out
    text = render_diagnostics([d], "text", source)
    quoted, caret = text.splitlines()[1:3]
    assert quoted == '2 |   "t\\x1b[31m\\x07": {}'
    assert caret == "  |   " + "^" * len('"t\\x1b[31m\\x07"')


def test_a_huge_name_in_a_message_is_cut() -> None:
    d = Diagnostic("TC101", Severity.ERROR, "unknown key '" + "k" * 1_000_000 + "'", None)
    for fmt in ("text", "json", "github"):
        assert len(render_diagnostics([d], fmt, {})) < 2_000


class _CountingSources(dict[str, str]):
    def __init__(self, *args: object) -> None:
        super().__init__(*args)
        self.asked = 0

    def get(self, key: str, default: object = None) -> object:  # type: ignore[override]
        self.asked += 1
        return super().get(key, default)


def test_each_source_is_split_into_lines_once_however_many_diagnostics() -> None:
    text = "a: 1\n" * 20_000
    sources = _CountingSources({"a.yaml": text})
    many = [Diagnostic("TC006", Severity.ERROR, "duplicate key 'a'", Span("a.yaml", i, 1))
            for i in range(1, 20_001)]
    out = render_diagnostics(many, "text", sources)
    assert out.count("duplicate key") == 20_000
    assert sources.asked == 1  # was once per diagnostic: a split of the whole file each time


def test_json_escapes_what_a_terminal_would_obey_and_reads_back_the_same() -> None:
    message = "name 'x\x1b[2J\x9b\u202e\x7f\u00e9'"
    d = Diagnostic("TC301", Severity.ERROR, message, Span("a.yaml", 1, 1))
    text = render_diagnostics([d], "json", {})
    assert not any(ch in text for ch in "\x1b\x9b\u202e\x7f") and "\u00e9" in text
    assert json.loads(text)["diagnostics"][0]["message"] == message


def test_lines_are_numbered_as_yaml_numbers_them() -> None:
    # A form feed is no line break for YAML (str.splitlines breaks there).
    source = {"a.yaml": "a: 1\n# x\x0cy\nbad: 2\n"}
    d = Diagnostic("TC101", Severity.ERROR, "unknown key 'bad'", Span("a.yaml", 3, 1, 3))
    assert render_diagnostics([d], "text", source).splitlines()[1] == "3 | bad: 2"


diagnostics = st.builds(
    Diagnostic, st.sampled_from(["TC101", "TC301"]),
    st.sampled_from([Severity.ERROR, Severity.WARNING, Severity.INFO]), hostile_text,
    st.none() | st.builds(Span, hostile_text.filter(bool), st.integers(1, 3), st.integers(1, 40),
                          st.integers(1, 5)),
    st.lists(hostile_text, max_size=2).map(tuple))


@given(st.lists(diagnostics, min_size=1, max_size=3), hostile_text)
def test_no_text_of_a_diagnostic_reaches_a_terminal_or_log_raw(
        items: list[Diagnostic], line: str) -> None:
    """Messages, notes, paths and the quoted spec line: shown, never obeyed, in every
    format; one workflow command per diagnostic with the report's own properties."""
    sources = {d.span.path: f"tools:\n{line}\n{line}" for d in items if d.span}
    for fmt in ("text", "json", "github"):
        out = render_diagnostics(items, fmt, sources)
        assert raw_controls(out) == [] and out.encode("utf-8"), fmt
    rows = json.loads(render_diagnostics(items, "json", sources))["diagnostics"]
    assert [r["message"] for r in rows] == [d.message for d in items]
    commands = workflow_commands(render_diagnostics(items, "github", sources))
    assert len(commands) == len(items)
    for d, command in zip(items, commands, strict=True):
        assert command is not None and command.name == github_command(d.severity)
        expected = {"title": f"{d.code} {d.rule.name}"}
        if d.span:
            expected |= {"file": in_a_log(d.span.path), "line": str(d.span.line),
                         "col": str(d.span.col)}
        assert command.properties == expected
        assert command.data == in_a_log("\n".join((d.message, *d.notes)))


@given(hostile_text, st.integers(1, 40))
def test_the_caret_stays_under_the_column_of_a_line_holding_escapes(line: str, col: int) -> None:
    """A spec line holding ANSI escapes and other controls is quoted with them shown,
    and the caret counts the characters shown."""
    line = re.sub("[\r\n\x85\u2028\u2029]", "", line)  # one line, as YAML breaks them
    d = Diagnostic("TC101", Severity.ERROR, "bad", Span("a.yaml", 1, col, 1))
    quoted, caret = render_diagnostics([d], "text", {"a.yaml": line + "\n"}).splitlines()[1:3]
    shown = escape_controls(line.replace("\t", " "))
    assert quoted == f"1 | {shown}"
    before = escape_controls(line[:col - 1].replace("\t", " "))
    assert caret.rstrip("^") == "  | " + " " * len(before)  # under what the column shows


LOADED = """
import sys
from toolc.diagnostics import Diagnostic, Severity, Span
from toolc.report.render import render_changes, render_diagnostics
d = Diagnostic("TC901", Severity.WARNING, "odd", Span("a.yaml", 1, 1, 1))
for fmt in ("text", "json", "github"):
    render_diagnostics([d], fmt, {"a.yaml": "x: 1\\n"})
print(sorted({m.split(".")[1] for m in sys.modules if m.startswith("toolc.")}))
if sys.argv[1:] == ["changes"]:  # a stand-in for diff.Change, which would import toolc.diff
    class Added:
        tool, also, tools, pointer, rule = "t", (), ("t",), "", "TOOL_ADDED"
        severity, message, old, new, accepted, reason, spec = (
            Severity.INFO, "added", None, None, False, None, None)

        def sort_key(self):
            return ("t", (), "TOOL_ADDED")

    print(render_changes([Added()], "text").splitlines()[-1])
    print("toolc.diff" in sys.modules)
"""


def _loaded(*args: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", LOADED, *args], capture_output=True,
                          text=True, check=True)
    return done.stdout.splitlines()


def test_rendering_diagnostics_in_every_format_imports_no_diff() -> None:
    """Every command renders diagnostics and few render changes: the formats import the
    change report's toolc.diff (and the runtime under it) only once a change is shown."""
    (packages,) = _loaded()
    assert "diff" not in packages and "runtime" not in packages, packages
    # Rendering a change does (its summary judges by toolc.diff's policy): the check sees it.
    assert _loaded("changes")[1:] == ["1 change in 1 tool: 1 compatible; none fails CI", "True"]
