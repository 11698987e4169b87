"""Untrusted text in the markdown report, rendered by GitHub's own parser (cmark-gfm):
nothing the data holds becomes an element, and every character shows as it is."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from report_support import (
    FRAGMENTS,
    WORD_JOINER,
    Element,
    check_report,
    hostile_changes,
    hostile_text,
    rendered,
    shown,
)
from toolc.diagnostics import Severity
from toolc.diff import Change, Policy, SpecPlace, diff_tools, load_folder
from toolc.report.escaping import escape_controls
from toolc.report.markdown import code_span, escape_text, link_base
from toolc.report.render import render_changes

BASE = "https://github.com/o/r/blob/abc123/"


def in_cell(markdown: str) -> Element:
    page = rendered(f"| h |\n| --- |\n| {markdown} |\n")
    (cell,) = page.root.all("td")
    assert not page.comments and not page.other
    return cell


# -- prose --------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "a description with two `` backticks", "see [the docs](https://evil.example/x)",
    '<img src="https://t.example/pixel.png">', "**No changes in the published tools.**",
    "[ ] ! * _ < > & | \\ ~~gone~~ $x$", "write to a@b.io or www.evil.io or https://e.io/x",
    "# heading", "> quote", "- item", "1. item", "2) item", "    indented", "= setext",
    "tail\\", "&amp; &#64;", "<https://e.io>", "</td></tr><tr><td>forged", "x\ny\r\nz"])
def test_prose_renders_as_its_characters_and_nothing_else(text: str) -> None:
    cell = in_cell(escape_text(text))
    assert {e.tag for e in cell.all()} <= {"br"}
    assert cell.text().replace(WORD_JOINER, "") == shown(text)


def test_prose_is_inert_at_the_start_of_a_list_item_or_a_paragraph() -> None:
    for text in ("# heading", "> quote", "- item", "1. item", "      code", "<div>x</div>",
                 "[x]: https://e.io", "---", "***", "```", "=", "| a | b |"):
        for markdown in (f"- {escape_text(text)}\n", f"{escape_text(text)}\n"):
            page = rendered(markdown)
            tags = [e.tag for e in page.root.all()]
            assert tags in (["ul", "li"], ["p"]), (text, tags)
            assert page.root.text().strip("\n") == text, text


@given(hostile_text)
def test_any_prose_renders_as_its_characters_and_nothing_else(text: str) -> None:
    cell = in_cell(escape_text(text))
    assert {e.tag for e in cell.all()} <= {"br"}
    assert cell.text().replace(WORD_JOINER, "") == shown(text).replace(WORD_JOINER, "")


# -- code ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "markdown"), [
    ("plain", "`plain`"), ("a `b` c", "``a `b` c``"), ("two `` close", "```two `` close```"),
    ("`edge", "`` `edge ``"), ("edge`", "`` edge` ``"), (" spaced ", "`  spaced  `"),
    ("a|b", "`a\\|b`"), ("", "` `"), ("   ", "`   `")])
def test_a_code_span_is_fenced_longer_than_any_backtick_run(text: str, markdown: str) -> None:
    assert code_span(text) == markdown


@given(hostile_text)
def test_any_text_is_one_code_span_in_a_cell_and_in_a_heading(text: str) -> None:
    expected = escape_controls(text) or " "
    cell = in_cell(code_span(text))
    assert [e.tag for e in cell.all()] == ["code"] and cell.text() == expected
    page = rendered(f"#### {code_span(text, table=False)}\n")
    (heading,) = page.root.elements()
    assert heading.tag == "h4" and [e.tag for e in heading.all()] == ["code"]
    assert heading.text() == expected


# -- link base ----------------------------------------------------------------------------


def test_a_link_base_is_an_http_url_and_cannot_end_the_link() -> None:
    assert link_base("https://github.com/o/r/blob/abc") == "https://github.com/o/r/blob/abc/"
    assert link_base("HTTP://h:8080/a)b/<x>\u00e9") == "HTTP://h:8080/a%29b/%3Cx%3E%C3%A9/"
    for bad in ("javascript:alert(1)//", "data:text/html,x", "file:///etc/passwd", "/blob/x",
                "github.com/o/r", "https://", "https://h/\nx", "https://h/\tx", "https://h/ x",
                "https://h/\x1b", "https://[::1/", "ftp://h/", " https://h/"):
        with pytest.raises(ValueError, match="not an http\\(s\\) URL"):
            link_base(bad)


def test_render_refuses_a_link_base_that_is_not_an_http_url() -> None:
    with pytest.raises(ValueError, match="not an http\\(s\\) URL"):
        render_changes([], "markdown", link_base="javascript:alert(1)")


# -- the whole report ---------------------------------------------------------------------

def hostile_change(tool: str, **fields: object) -> Change:
    values: dict[str, object] = {
        "pointer": "/inputSchema/properties/p", "rule": "DESCRIPTION_CHANGED",
        "severity": Severity.ERROR, "message": "m", **fields}
    return Change(tool, **values)  # type: ignore[arg-type]


ISSUE = "a `` closes it [a link](https://e.io) <img src=https://t.io/p.png> **No changes.**"


def test_the_issues_hostile_inputs_render_as_text() -> None:
    """The issue's report: a description with two backticks, a link, a tracking pixel, a
    bold fake verdict; `[`, `]`, `!`, `*`, `<` in a message and an accept reason; a tool
    name and a pointer with `|` and a line break."""
    changes = [
        hostile_change("m/t", old=f"Reads. {ISSUE}", new="``x``"),
        hostile_change("m/t|x\ny", pointer="/inputSchema/properties/a|b\nc",
                       message="enum value \"![p](https://t.io/p.png) [x] *y* <b>\" removed",
                       accepted=True, reason="ok ![p](https://t.io/p.png) [a](b) *c* <i>"),
        hostile_change("m/u", severity=Severity.INFO, spec=SpecPlace(
            "specs/a) [x](evil|b.toolc.yaml", 3, 1, "**No changes.** <img src=x>"))]
    for base in ("", BASE):
        out = render_changes(changes, "markdown", compared="`HEAD` with **b** <img src=x>",
                             link_base=base)
        page = check_report(changes, out, compared="`HEAD` with **b** <img src=x>", base=base)
        (link,) = page.root.all("a")
        assert link.attrs["href"] == f"{base}specs/a%29%20%5Bx%5D%28evil%7Cb.toolc.yaml#L3"


def test_a_real_diff_renders_with_the_reports_elements_only() -> None:
    # The classified changes of tests/fixtures/diff/_multi, an accepted one among them.
    folder = Path(__file__).resolve().parent.parent / "fixtures" / "diff" / "_multi"
    policy = Policy.from_config({"accept": [
        {"tool": "oldTool", "rule": "TOOL_REMOVED", "reason": f"retired: {ISSUE}"}]})
    changes = diff_tools(load_folder(folder / "old"), load_folder(folder / "new"), policy)
    assert sum(c.accepted for c in changes) == 1
    check_report(changes, render_changes(changes, "markdown"))


def test_spec_paths_that_leave_the_repository_are_not_linked() -> None:
    for path in ("/etc/x.toolc.yaml", "../x.toolc.yaml", "specs/../../x.toolc.yaml",
                 "c:/x.toolc.yaml", "javascript:alert(1)", "specs\\..\\x.toolc.yaml"):
        change = hostile_change("m/t", spec=SpecPlace(path, 3, 1))
        comment = render_changes([change], "markdown", link_base=BASE)
        page = check_report([change], comment, base=BASE)
        assert page.root.all("a") == [], path


@given(hostile_changes(several=True), st.none() | hostile_text.filter(bool),
       st.sampled_from(["", BASE]), st.none() | hostile_changes(),
       st.lists(hostile_text, max_size=2), st.sampled_from(["error", "info"]),
       st.dictionaries(hostile_text, hostile_text))
def test_no_element_of_any_report_comes_from_its_data(
        items: list[Change], compared: str | None, base: str, policy: list[Change] | None,
        warnings: list[str], fail_on: str, files: dict[str, str]) -> None:
    """Any changes, any changes to the gate's rules and any warnings (globs, acceptances
    and their reasons are the pull request's text too), golden files of any name."""
    out = render_changes(items, "markdown", compared=compared, link_base=base, policy=policy,
                         warnings=warnings, fail_on=fail_on, paths=files, golden_root="")
    check_report(items, out, compared=compared, base=base, policy=policy or (),
                 warnings=warnings, fail_on=fail_on)


def test_the_fragments_include_the_issues_inputs() -> None:
    assert {"``", "[x](https://e.io)", "<img src=https://t.io/p.png>",
            "**No changes in the published tools.**", "|", "\n"} <= set(FRAGMENTS)
