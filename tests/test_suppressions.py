"""Inline suppressions found in a spec's text: only where YAML reads a comment."""

from __future__ import annotations

from toolc.loader import load_text
from toolc.suppressions import find_suppressions


def test_a_comment_after_a_value_names_its_codes() -> None:
    [found] = find_suppressions("a: b  # toolc: ignore[TC201, TC302]\n", "x.toolc.yaml")
    assert found.codes == ("TC201", "TC302")
    assert (found.span.line, found.span.col) == (1, 7)


def test_rule_names_and_spacing_are_taken_as_written() -> None:
    [found] = find_suppressions("a: b #toolc:ignore[ missing-description ]\n", "x")
    assert found.codes == ("missing-description",)


def test_a_hash_inside_a_string_is_no_comment() -> None:
    text = ('a: "x # toolc: ignore[TC201]"\n'
            "b: 'it''s # toolc: ignore[TC201]'\n"
            "c: |\n  text # toolc: ignore[TC201]\n"
            "d: x#toolc: ignore[TC201]\n")
    assert find_suppressions(text, "x") == []


def test_a_comment_after_a_quoted_string_counts() -> None:
    [found] = find_suppressions("a: 'x # y'  # toolc: ignore[TC201]\n", "x")
    assert found.span.line == 1 and found.span.col == 13


def test_the_loader_keeps_them() -> None:
    loaded = load_text("toolc: 1\nmodule: m  # toolc: ignore[TC309]\n", "m.toolc.yaml")
    assert [(s.span.line, s.codes) for s in loaded.suppressions] == [(2, ("TC309",))]
