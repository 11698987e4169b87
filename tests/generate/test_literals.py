"""Spec text as Python literals: whatever goes in comes back exactly."""

from __future__ import annotations

import ast
import json
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from toolc.generate.literals import (
    WIDTH,
    code_str,
    comment_text,
    docstring,
    json_text,
    py_literal,
    py_str,
    py_str_block,
    py_str_lines,
)

NASTY = [
    "", '"""', "'''", '"', "'", "\\", "ends with a backslash \\", 'ends with a quote "',
    "{{ x }} {% if y %}{% endif %} {# z #}", "tab\there", "line\nbreak", "cr\rhere",
    "\x00\x01\x1b\x7f", "🎉🧪", "שלום عربي", "over\u202eride", "nb\u00a0sp", "ls\u2028ps",
    "zero\u200bwidth", "bom\ufeff", "lone \ud800 surrogate", "mixed 'single' and \"double\"",
]
texts = st.text(alphabet=st.characters(), max_size=300)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12)


@pytest.mark.parametrize("text", NASTY)
def test_nasty_text_round_trips(text: str) -> None:
    literal = py_str(text)
    assert "\n" not in literal and "\r" not in literal
    assert ast.literal_eval(literal) == text


@given(texts)
def test_any_text_round_trips_as_one_literal(text: str) -> None:
    assert ast.literal_eval(py_str(text)) == text


@given(texts, st.integers(min_value=12, max_value=120))
def test_wrapped_text_round_trips_and_fits(text: str, width: int) -> None:
    lines = py_str_lines(text, width)
    assert all(len(line) <= width for line in lines)
    assert "".join(ast.literal_eval(line) for line in lines) == text


@given(texts)
def test_a_block_is_one_expression(text: str) -> None:
    block = py_str_block(text, 8, 40)
    assert ast.literal_eval(block) == text
    assert all(len(line) <= WIDTH for line in block.splitlines()[1:-1])


def test_readable_text_stays_readable() -> None:
    assert py_str("plain text") == '"plain text"'
    assert py_str('say "hi"') == "'say \"hi\"'"
    assert py_str("émoji 🎉 and שלום") == '"émoji 🎉 and שלום"'
    assert py_str("a\u202eb") == '"a\\u202eb"'  # invisible characters are escaped
    assert py_str_lines("one two three four", 12) == ['"one two "', '"three four"']


@pytest.mark.parametrize("text", [*NASTY[1:], "First line.\nSecond line.", "One line."])
@pytest.mark.parametrize("indent", [0, 4])
def test_docstrings_read_back_exactly(text: str, indent: int) -> None:
    literal = docstring(text, indent)
    body = f"class C:\n    {literal}\n" if indent else f"{literal}\n"
    namespace: dict[str, Any] = {}
    exec(compile(body, "<doc>", "exec"), namespace)  # noqa: S102
    found = namespace["C"].__doc__ if indent else namespace.get("__doc__")
    if not indent:
        found = ast.get_docstring(ast.parse(body), clean=False)
    if "\ud800" in text and indent:  # a class docstring cannot hold a lone surrogate
        assert found == text.replace("\ud800", "\\ud800")
    else:
        assert found == text


def test_plain_docstrings_are_triple_quoted() -> None:
    assert docstring("First line.\nSecond line.", 0) == '"""First line.\nSecond line."""'
    assert docstring("First line.\nSecond line.", 4) == '"First line.\\nSecond line."'
    assert docstring("  indented", 0) == '"  indented"'  # 3.13 would strip it


def _alias_code(text: str) -> str:
    """A type alias's code as layout writes it, ``text`` quoted inside."""
    return f"Annotated[\n    Literal[{py_str(text)}],\n    Field(description={py_str(text)}),\n]"


@pytest.mark.parametrize("text", NASTY)
def test_code_reads_back_exactly_as_a_string(text: str) -> None:
    code = _alias_code(text)
    assert ast.literal_eval(code_str(code)) == code


@given(texts)
def test_any_code_reads_back_exactly_as_a_string(text: str) -> None:
    code = _alias_code(text)
    assert ast.literal_eval(code_str(code)) == code


def test_code_as_a_string_reads_as_the_code() -> None:
    assert code_str('Literal["a", "b"]') == '"""Literal["a", "b"]"""'
    assert code_str('Literal["a\\nb"]') == 'r"""Literal["a\\nb"]"""'  # escapes kept
    assert code_str("Literal['\"\"\"']") == py_str("Literal['\"\"\"']")


@given(texts)
def test_comments_stay_on_one_line(text: str) -> None:
    line = comment_text(text)
    assert line.isprintable() or line == ""
    assert "\n" not in line


@given(json_values)
def test_json_values_round_trip(value: Any) -> None:
    assert ast.literal_eval(py_literal(value)) == value
    exploded = py_literal(value, 4, 0)
    assert ast.literal_eval(exploded) == value


def test_non_finite_floats_are_written_as_calls() -> None:
    assert eval(py_literal(math.inf)) == math.inf
    assert math.isnan(eval(py_literal(math.nan)))


def test_json_text_keeps_the_order_written_and_the_characters() -> None:
    text = json_text({"b": 1, "a": ["é", 1.5]})
    assert text == '{"b":1,"a":["é",1.5]}'
    assert json.loads(text) == {"b": 1, "a": ["é", 1.5]}


def test_a_description_of_megabytes_is_cut_into_lines_in_linear_time() -> None:
    # Each line used to be sliced off a copy of the rest: quadratic, 30 s for 8 MB.
    text = ("word, " * 700_000)[:4_000_000] + "\x01\u00e9\U0001f389"
    lines = py_str_lines(text, 80)
    assert all(len(line) <= 80 for line in lines)
    assert ast.literal_eval("(" + "\n".join(lines) + ")") == text
