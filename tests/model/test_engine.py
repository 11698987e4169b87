"""jsonschema-rs as the build uses it: ECMA-262 patterns, compiling, never retrieving."""

from __future__ import annotations

import pytest
from toolc.model import engine


@pytest.mark.parametrize("pattern", [r"^\p{Letter}+$", r"(?<name>x)", r"\d+", "",
                                     r"(?P<n>x)"])
def test_ecma_262_patterns_are_accepted(pattern: str) -> None:
    assert engine.regex_problem(pattern) is None


def test_a_pattern_out_of_the_dialect_says_so() -> None:
    problem = engine.regex_problem(r"a\Z")  # Python's end of string; not ECMA-262
    assert problem is not None and "ECMA-262" in problem


def test_a_broken_pattern_says_where_when_python_knows() -> None:
    assert engine.regex_problem("[a-") == "unterminated character set at position 0"


def test_a_reference_outside_the_document_is_never_retrieved() -> None:
    problem = engine.compile_problem({"$ref": "http://127.0.0.1:9/x.json"})
    assert problem is not None and "toolc never retrieves schemas" in problem
    with pytest.raises(engine.RetrievalRefused):
        engine.refuse_retrieval("http://127.0.0.1:9/x.json")


def test_compile_problem_of_good_and_bad_schemas() -> None:
    assert engine.compile_problem({"type": "object", "properties": {"a": {"$ref": "#"}}}) is None
    assert engine.compile_problem({"$ref": "#/$defs/none"}) == \
        "Pointer '/$defs/none' does not exist"
    assert engine.compile_problem({"minimum": "x"}) is not None


def test_an_interrupt_is_never_swallowed() -> None:
    with pytest.raises(KeyboardInterrupt):
        engine.reraise_interrupt(KeyboardInterrupt())
    assert engine.failure_text(ValueError("bad\nmore")) == "bad"
