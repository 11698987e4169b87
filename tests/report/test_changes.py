"""Each rendering of classified schema changes, checked in full against expected files."""

from __future__ import annotations

import io
import json
import os
import re
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from report_support import (
    hostile_changes,
    hostile_text,
    in_a_log,
    raw_controls,
    workflow_commands,
)
from toolc.diagnostics import Severity
from toolc.diff import Change, Policy, SpecPlace, ToolSet, diff_tools, golden_text, load_folder
from toolc.diff.gate import PYPROJECT
from toolc.diff.result import SchemaDiff
from toolc.diff.rules import POLICY_RULES
from toolc.report.change_parts import WHOLE_TOOL
from toolc.report.escaping import escape_controls
from toolc.report.render import CHANGE_FORMATS, render_changes, render_diff
from toolc.report.text import want_color

MULTI = Path(__file__).resolve().parent.parent / "fixtures" / "diff" / "_multi"
EXPECTED = {"text": "report.txt", "markdown": "report.md", "json": "report.json",
            "github": "report.github"}
POLICY = Policy.from_config({
    "accept": [{"tool": "oldTool", "rule": "TOOL_REMOVED",
                "reason": "retired: use `newTool` | see #12"}],
    "severity": {"DEFAULT_CHANGED": "info"},
})


def sets() -> tuple[ToolSet, ToolSet]:
    return load_folder(MULTI / "old"), load_folder(MULTI / "new")


def rendered(fmt: str, *, color: bool = False) -> str:
    old, new = sets()
    return render_changes(diff_tools(old, new, POLICY), fmt, color=color,
                          golden_root="generated/schemas", paths={**old.paths, **new.paths},
                          new_texts=new.texts, old_texts=old.texts)


def check_expected(path: Path, actual: str) -> None:
    # TOOLC_UPDATE_EXPECTED=1 rewrites the file; review its diff before committing.
    if os.environ.get("TOOLC_UPDATE_EXPECTED"):
        path.write_text(actual, encoding="utf-8")
    assert actual == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("fmt", CHANGE_FORMATS)
def test_multi_change_fixture_in_every_format(fmt: str) -> None:
    check_expected(MULTI / EXPECTED[fmt], rendered(fmt) + "\n")


def test_colour_only_adds_escapes() -> None:
    coloured = rendered("text", color=True)
    assert "\x1b[2merror[TOOL_REMOVED]\x1b[0m" in coloured  # accepted: dimmed
    assert "\x1b[1;31merror[CONSTRAINT_TIGHTENED]\x1b[0m" in coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == rendered("text")


def test_github_annotations_sit_on_the_lines_that_changed() -> None:
    old, new = sets()
    changes = diff_tools(old, new, POLICY)
    lines = rendered("github").splitlines()
    assert len(lines) == len(changes)
    for change, annotation in zip(changes, lines, strict=True):
        file = re.search(r"file=generated/schemas/([^,]+),line=(\d+)", annotation)
        assert file, annotation
        text = (new.texts if change.tool in new else old.texts)[change.tool]
        line = text.splitlines()[int(file.group(2)) - 1].strip()
        last = change.pointer.rsplit("/", 1)[-1]
        if change.rule == "TOOL_REMOVED":
            assert file.group(1) == "workbench/oldTool.json" and line == "{"
        elif change.new is None:  # a removal: the line of what held it
            holder = change.pointer.rsplit("/", 2)[-2]
            assert line.startswith(f'"{holder}"'), (annotation, line)
        elif last and not last.isdigit():
            assert line.startswith(f'"{last}"'), (annotation, line)
    assert lines[0].startswith("::notice ") and "TOOL_ADDED" in lines[0]


def test_github_without_files_and_lines_still_reports() -> None:
    change = Change("t", "/inputSchema/x", "TYPE_NARROWED", Severity.ERROR, "a, b: 100%\nnext")
    out = render_changes([change], "github")
    assert out == ("::error title=TYPE_NARROWED in t (error)::a, b: 100%25%0Anext"
                   "%0Apointer: /inputSchema/x")
    text = golden_text({"name": "t", "inputSchema": {"x": 1}})
    out = render_changes([change], "github", golden_root="", paths={"t": "t.json"},
                         new_texts={"t": text})
    assert out.startswith("::error file=t.json,line=3,title=")


def test_tools_of_one_name_in_two_modules_are_reported_apart() -> None:
    def published(description: str) -> dict[str, object]:
        return {"name": "wb_readLog", "description": description}

    old = ToolSet.from_texts({f"{m}/wb_readLog.json": golden_text(published("Read."))
                              for m in ("showcase", "workbench")})
    new = ToolSet.from_texts({"showcase/wb_readLog.json": golden_text(published("Reads.")),
                              "workbench/wb_readLog.json": golden_text(published("Read!"))})
    changes = diff_tools(old, new)
    text = render_changes(changes, "text", paths=new.paths)
    assert [line for line in text.splitlines() if line.startswith("tool ")] == [
        "tool showcase/wb_readLog (generated/schemas/showcase/wb_readLog.json)",
        "tool workbench/wb_readLog (generated/schemas/workbench/wb_readLog.json)"]
    assert "tool 'showcase/wb_readLog': description changed" in text
    assert text.endswith("2 changes in 2 tools: 2 compatible; none fails CI")
    markdown = render_changes(changes, "markdown")
    assert markdown.count("#### `showcase/wb_readLog`") == 1
    assert markdown.count("#### `workbench/wb_readLog`") == 1
    github = render_changes(changes, "github", paths=new.paths, new_texts=new.texts,
                            old_texts=old.texts).splitlines()
    assert [line.split(",title=")[1].split("::")[0] for line in github] == [
        "DESCRIPTION_CHANGED in showcase/wb_readLog (info)",
        "DESCRIPTION_CHANGED in workbench/wb_readLog (info)"]
    assert github[0].startswith("::notice file=generated/schemas/showcase/wb_readLog.json,line=")
    assert [row["tool"] for row in json.loads(render_changes(changes, "json"))["changes"]] == [
        "showcase/wb_readLog", "workbench/wb_readLog"]


def test_no_changes() -> None:
    assert render_changes([], "text") == "No changes in the published tools."
    assert render_changes([], "json") == '{\n  "changes": [],\n  "warnings": []\n}'
    assert render_changes([], "github") == ""
    assert render_changes([], "markdown").endswith(
        "### Schema changes\n\nNo changes in the published tools.")


def test_unknown_format() -> None:
    with pytest.raises(ValueError, match="unknown format 'yaml'"):
        render_changes([], "yaml")


def test_want_color_needs_a_terminal_and_no_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    main, other = os.openpty()
    with os.fdopen(other, "w") as terminal:
        monkeypatch.delenv("NO_COLOR", raising=False)
        assert want_color(terminal) is True
        assert want_color(io.StringIO()) is False
        monkeypatch.setenv("NO_COLOR", "1")
        assert want_color(terminal) is False
        monkeypatch.setenv("NO_COLOR", "")  # empty means unset, per no-color.org
        assert want_color(terminal) is True
    os.close(main)


def test_control_characters_from_golden_files_never_reach_the_terminal() -> None:
    hostile = "\x1b]0;pwned\x07\x1b[2J\x9b"
    change = Change(tool=f"m/t{hostile}", pointer=f"/inputSchema/properties/p{hostile}",
                    rule="PROPERTY_REMOVED", severity=Severity.ERROR,
                    message=f"property 'p{hostile}' was removed", old={"d": hostile},
                    accepted=True, reason=f"because{hostile}")
    for fmt in ("text", "markdown", "github"):
        out = render_changes([change], fmt, color=False)
        assert not any(ch in out for ch in "\x1b\x07\x9b"), fmt
        assert "\\x1b]0;pwned\\x07" in out, fmt


def _placed(spec: object, pointer: str = "/inputSchema/properties/level") -> Change:

    assert spec is None or isinstance(spec, SpecPlace)
    return Change(tool="desk/note", pointer=pointer, rule="REQUIRED_ADDED",
                  severity=Severity.ERROR, message="input property 'level' is now required",
                  old=False, new=True, spec=spec)


def test_each_format_shows_the_spec_place_beside_the_pointer() -> None:

    change = _placed(SpecPlace("specs/desk.toolc.yaml", 14, 7))
    text = render_changes([change], "text")
    assert "  error[REQUIRED_ADDED] /inputSchema/properties/level  specs/desk.toolc.yaml:14:7\n" \
        in text
    github = render_changes([change], "github", paths={"desk/note": "desk/note.json"})
    assert github.startswith("::error file=generated/schemas/desk/note.json,")
    assert "%0Apointer: /inputSchema/properties/level%0Aspec: specs/desk.toolc.yaml:14:7%0A" \
        in github
    (row,) = json.loads(render_changes([change], "json"))["changes"]
    assert row["spec"] == {"path": "specs/desk.toolc.yaml", "line": 14, "col": 7, "note": None}
    removed = _placed(SpecPlace("specs/desk.toolc.yaml", 1, 1, "removed"), "")
    shown = render_changes([removed], "text")
    assert "(whole tool)  specs/desk.toolc.yaml:1:1 (removed)\n" in shown


def test_markdown_links_spec_lines_from_the_repository_root() -> None:

    change = _placed(SpecPlace("specs/desk.toolc.yaml", 14, 7))
    gone = _placed(None, "/inputSchema/properties/old")
    out = render_changes([change, gone], "markdown")
    assert "| severity | rule | spec | pointer | change | old | new |" in out
    assert ("| **error** | `REQUIRED_ADDED` | [`specs/desk.toolc.yaml:14`]"
            "(specs/desk.toolc.yaml#L14) | `/inputSchema/properties/level` |") in out
    assert "| **error** | `REQUIRED_ADDED` | (removed) | `/inputSchema/properties/old` |" in out
    # A project below the repository root; a base URL for a pull-request comment.
    linked = render_changes([change], "markdown", spec_prefix="app/",
                            link_base="https://github.com/o/r/blob/abc123")
    assert ("[`app/specs/desk.toolc.yaml:14`]"
            "(https://github.com/o/r/blob/abc123/app/specs/desk.toolc.yaml#L14)") in linked
    # Folders compared: no spec column at all.
    assert "| spec |" not in render_changes([_placed(None)], "markdown")


def test_markdown_spec_links_cannot_be_broken_by_file_names() -> None:

    hostile = _placed(SpecPlace("specs/a) [x](evil|b.toolc.yaml", 3, 1, "removed"))
    out = render_changes([hostile], "markdown")
    assert ("[`specs/a) [x](evil\\|b.toolc.yaml:3`]"
            "(specs/a%29%20%5Bx%5D%28evil%7Cb.toolc.yaml#L3) (removed)") in out
    outside = render_changes([_placed(SpecPlace("/elsewhere/x.toolc.yaml", 3, 1))], "markdown")
    assert "| `/elsewhere/x.toolc.yaml:3` |" in outside  # no link out of the repository


def test_a_schema_diff_renders_its_changes_with_both_sides_files() -> None:
    old = ToolSet.from_texts({"m/t.json": '{"name": "t", "inputSchema": {"type": "object"}}\n'})
    new = ToolSet.from_texts({"m/t.json": '{"name": "t", "description": "d", '
                                          '"inputSchema": {"type": "object"}}\n'})
    diff = SchemaDiff(diff_tools(old, new), old, new)
    assert [c.rule for c in diff.changes] == ["DESCRIPTION_ADDED"]
    rendered = json.loads(render_diff(diff, "json", golden_root="generated/schemas"))
    assert [c["rule"] for c in rendered["changes"]] == ["DESCRIPTION_ADDED"]


rules_changes = st.builds(
    lambda items, rules: [replace(c, tool=PYPROJECT, rule=r)
                          for c, r in zip(items, rules, strict=False)],
    hostile_changes(), st.lists(st.sampled_from(sorted(POLICY_RULES)), min_size=4, max_size=4))
"""Changes to the gate's rules, as toolc.diff.gate makes them (of pyproject.toml), of
hostile text."""


@given(hostile_changes(), st.dictionaries(hostile_text, hostile_text, max_size=3),
       st.none() | rules_changes)
def test_no_text_of_a_change_starts_a_workflow_command_or_forges_a_property(
        items: list[Change], files: dict[str, str], policy: list[Change] | None) -> None:
    """Each change is one command, as the Actions runner reads it, with the report's own
    properties only; its text arrives with its line breaks, controls shown. The changes
    to the gate's rules come first, on pyproject.toml's line when they have one."""
    paths = {c.tool: files.get(c.tool, "m/t.json") for c in items}
    out = render_changes(items, "github", paths=paths, golden_root="generated/schemas",
                         policy=policy)
    assert raw_controls(out) == [] and out.encode("utf-8")
    commands = workflow_commands(out)
    every = [*(policy or ()), *items]
    assert len(commands) == len(every)
    for change, command in zip(every, commands, strict=True):
        assert command is not None
        assert command.name == ("notice" if change.accepted or change.severity is Severity.INFO
                                else str(change.severity))
        title = {"title": in_a_log(f"{change.rule} in {change.tool} ({change.severity})")}
        if change.rule in POLICY_RULES:
            assert command.properties == (title if change.spec is None else {
                "file": in_a_log(change.spec.path), "line": str(change.spec.line), **title})
        else:
            assert command.properties == {
                "file": in_a_log(f"generated/schemas/{paths[change.tool]}"), **title}
        assert in_a_log(change.message) in command.data
        assert f"\npointer: {in_a_log(change.pointer or WHOLE_TOOL)}" in command.data


@given(hostile_changes(several=True), st.none() | rules_changes,
       st.lists(hostile_text, max_size=2), st.dictionaries(hostile_text, hostile_text))
def test_json_is_one_document_that_reads_back_whatever_the_data(
        items: list[Change], policy: list[Change] | None, warnings: list[str],
        files: dict[str, str]) -> None:
    out = render_changes(items, "json", policy=policy, warnings=warnings, paths=files,
                         golden_root="")
    assert raw_controls(out) == [] and out.encode("utf-8")

    def rows(changes: list[Change]) -> list[dict[str, object]]:
        return [{**c.to_json(), "files": [files[t] for t in c.tools if t in files]}
                for c in changes]

    found = {"changes": rows(items), "warnings": warnings}
    assert json.loads(out) == (found if policy is None else  # one document
                               {"policy": rows(policy), **found})


@given(hostile_changes())
def test_text_shows_control_characters_and_never_sends_them(items: list[Change]) -> None:
    out = render_changes(items, "text", paths={c.tool: "m/t.json" for c in items})
    assert raw_controls(out) == [] and out.encode("utf-8")
    for change in items:
        assert f"tool {escape_controls(change.tool)} (generated/schemas/m/t.json)" in out
        assert f"    {escape_controls(change.message)}\n" in out + "\n"


def test_a_row_in_three_modules_names_every_key_and_golden_file_in_every_format() -> None:
    from toolc.diff.rows import rows

    def published(module: str, description: str) -> tuple[str, str]:
        return f"{module}/addNote.json", golden_text({"name": "addNote",
                                                      "description": description})

    modules = ("core", "alpha", "beta")
    old = ToolSet.from_texts(dict(published(m, "Add.") for m in modules))
    new = ToolSet.from_texts(dict(published(m, "Add one.") for m in modules))
    (row,) = rows(diff_tools(old, new), texts=(old.texts, new.texts))
    files = [f"generated/schemas/{m}/addNote.json" for m in ("alpha", "beta", "core")]
    shown = {fmt: render_diff(SchemaDiff([row], old, new), fmt, golden_root="generated/schemas")
             for fmt in CHANGE_FORMATS}
    assert shown["text"].startswith("tool addNote in alpha, beta, core\n"
                                    + "".join(f"  {f}\n" for f in files)
                                    + "  info[DESCRIPTION_CHANGED] /description\n"
                                    "    tool 'addNote': description changed\n")
    assert shown["text"].endswith("1 change in 1 tool: 1 compatible; none fails CI")
    assert "#### `addNote` in `alpha`, `beta`, `core`\n\nIn " + ", ".join(
        f"`{f}`" for f in files) + ".\n" in shown["markdown"]
    (document,) = json.loads(shown["json"])["changes"]
    assert document["tools"] == ["alpha/addNote", "beta/addNote", "core/addNote"]
    assert document["files"] == files and document["tool"] == "alpha/addNote"
    (annotation,) = shown["github"].splitlines()
    assert annotation.startswith(f"::notice file={files[0]},line=2,")
    assert f"%0Aalso in: {files[1]}, {files[2]}%0A" in annotation


def test_warnings_are_said_in_every_format() -> None:
    old, new = sets()
    warned = "[tool.toolc.diff].accept[0] (tool = \"x\") matches no change between a and b"
    diff = SchemaDiff([], old, new, warnings=[warned])
    assert render_diff(diff, "text", golden_root="g") == (
        f"warning: {warned}\n\nNo changes in the published tools.")
    assert json.loads(render_diff(diff, "json", golden_root="g"))["warnings"] == [warned]
    assert render_diff(diff, "github", golden_root="g").startswith("::warning title=")
    assert "**warning:** " in render_diff(diff, "markdown", golden_root="g")
