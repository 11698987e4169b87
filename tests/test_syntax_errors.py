"""YAML syntax errors said as the mistake behind them, at the line to fix.

The spec-sized cases are fixtures (``tests/fixtures/invalid/TC003-*``); these are the
smaller shapes, each as libyaml reports it and as toolc says it.
"""

from __future__ import annotations

import pytest
from toolc.diagnostics import SpecError
from toolc.loader import load_text


def said(text: str) -> tuple[int, int, str, tuple[str, ...]]:
    with pytest.raises(SpecError) as exc:
        load_text(text, "s.toolc.yaml")
    [d] = exc.value.diagnostics
    assert d.code == "TC003" and d.span is not None
    return d.span.line, d.span.col, d.message.removeprefix("YAML syntax error: "), d.notes


@pytest.mark.parametrize(("text", "line", "col", "message"), [
    # libyaml: found character that cannot start any token
    ("toolc: 1\ntools:\n  read:\n\tdescription: Read.\n", 4, 1,
     "a tab indents this line; YAML indents with spaces only"),
    # libyaml: found a tab character that violates indentation (at 5:3)
    ("tools:\n  read:\n    description: Read.\n  \t  handler: x\n", 4, 3,
     "a tab indents this line; YAML indents with spaces only"),
    ("a:\n  -\tx\n", 2, 4, "a tab where YAML allows only spaces"),
])
def test_a_tab_is_named(text: str, line: int, col: int, message: str) -> None:
    got = said(text)
    assert got[:3] == (line, col, message)
    assert got[3][0].startswith("replace the tab with")


def test_the_tab_note_says_how_the_file_indents() -> None:
    assert said("a:\n  b:\n\tc: 1\n")[3] == ("replace the tab with spaces (this file indents by 2)",)


def test_a_key_between_two_levels_is_named_with_both() -> None:
    # libyaml: did not find expected key, at 4:4
    line, col, message, notes = said("tools:\n  read:\n    description: Read.\n"
                                     "   handler: x\n")
    assert (line, col) == (4, 4)
    assert message == ("bad indentation: `handler` is indented 3 spaces, `description` above "
                       "it (line 3) 4")
    assert notes == (("the keys of one mapping line up in one column: indent `handler` by 4 "
                     "spaces to set it beside `description`, or by 2 beside `read`"),)


def test_a_first_key_indented_off_the_step_is_the_line_to_fix() -> None:
    # libyaml notices it at the next key (4:5, did not find expected key)
    line, col, message, notes = said("tools:\n  read:\n     description: Read.\n"
                                     "    handler: x\n")
    assert (line, col) == (3, 6)
    assert message == ("bad indentation: `description` is indented 5 spaces, `handler` below "
                       "it (line 4) 4")
    assert notes[-1] == "YAML noticed it at line 4: did not find expected key"


def test_a_key_under_a_value_and_the_line_that_may_be_wrong_above_it() -> None:
    # libyaml: mapping values are not allowed in this context, at 5:11
    line, col, message, notes = said("tools:\n  read:\n    description: Read.\n"
                                     "  handler: x\n    params: {}\n")
    assert (line, col) == (5, 5)
    assert message == ("bad indentation: `params` is indented under `handler` (line 4), "
                       "whose value is on its line")
    assert notes == (
        ("YAML reads it as more of the value of `handler`; to make it a key beside `handler`, "
        "indent it by 2 spaces"),
        "or, if `handler` belongs beside `description` (line 3), indent `handler` by 4 spaces")


def test_list_items_out_of_line() -> None:
    line, col, message, notes = said("toolsets:\n  all:\n    kind: function\n    tools:\n"
                                     "      - read\n     - write\n")
    assert (line, col, message) == (6, 6, ("bad indentation: `- write` is indented 5 spaces, "
                                          "`- read` above it (line 5) 6"))
    assert notes == (("the items of one list line up in one column: indent `- write` by 6 "
                     "spaces to set it beside `- read`"),)


def test_a_key_of_a_list_item_under_its_sibling() -> None:
    line, _, message, _ = said("certify:\n  contexts:\n    - name: a\n       deps: b\n")
    assert (line, message) == (4, ("bad indentation: `deps` is indented under `name` (line 3), "
                                  "whose value is on its line"))


@pytest.mark.parametrize(("text", "mark"), [
    ("a:\n  read: {description: Read., handler: app:read\nb: 1\n", "{"),
    ("a: [1, 2\nb: 3\n", "["),
    ('a: "abc\nb: 1\n', '"'),
])
def test_a_bracket_or_quote_left_open_is_said_where_it_opens(text: str, mark: str) -> None:
    line, col, message, _ = said(text)
    assert text.splitlines()[line - 1][col - 1] == mark
    assert message.startswith(f"this `{mark}` is not closed")


def test_a_colon_in_a_value_keeps_its_own_hint() -> None:
    line, col, message, notes = said("tools:\n  read:\n    description: Add a comment: public.\n")
    assert (line, col, message) == (3, 31, "mapping values are not allowed in this context")
    assert notes[-1] == 'as in: description: "Add a comment: public."'


def test_what_no_hint_fits_keeps_libyamls_words() -> None:
    assert said("a: {x: 1 y: 2}\n")[2] == "did not find expected ',' or '}'"
