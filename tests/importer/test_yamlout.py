"""The spec writer: YAML that reads back, through toolc's loader, as the very same JSON."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from toolc.formatting.order import reordered
from toolc.importer.yamlout import YamlWriteError, dump, first_difference, float_text, scalar
from toolc.loader import load_text

FIXTURES = Path(__file__).parent.parent / "fixtures" / "import"


def read_back(text: str) -> Any:
    loaded = load_text(text, "spec.toolc.yaml")
    assert not loaded.diagnostics
    return loaded.data


def test_every_construct_of_the_fixture_reads_back_exactly() -> None:
    tools = json.loads((FIXTURES / "tools.json").read_text())
    data = {"toolc": 1, "tools": tools}
    assert first_difference(data, read_back(dump(data))) is None


TRICKY = ["yes", "no", "on", "off", "y", "N", "true", "False", "null", "~", "", " ", " x",
          "x ", "1", "-1", "+1", "1.0", "1e5", ".5", "0o17", "0x1F", "0b101", "1_000", "12:30",
          ".inf", "-.Inf", ".nan", "<<", "=", "2001-12-14", "- item", "? q", ": c", "a: b",
          "a #b", "#c", "&a", "*a", "!tag", "|", ">", "'s'", '"d"', "%x", "@x", "`x`",
          "[a]", "{a}", "a,b", "...", "---", "tab\there", "nul\0", "q?", "a?b", "bell\a", "del\x7f",
          "nbsp\xa0", "ls\u2028", "bom\ufeff", "nonchar\uffff", "é😀", "back\\slash", "end:",
          "line\nbreak", "two\n\nlines\n\n\n", "  indented\nblock\n", "trailing \nspace\n"]


@pytest.mark.parametrize("text", TRICKY)
def test_tricky_strings_stay_strings_as_values_keys_and_list_items(text: str) -> None:
    data = {"value": text, "list": [text, text], "map": {text: text}, "flow": {"k": text}}
    written = dump(data)
    # Written in toolc fmt's layout: a spec's known keys in their canonical order (a
    # top-level "certify" before any key a spec does not know), each value as given.
    assert first_difference(reordered(data), read_back(written)) is None
    assert yaml.safe_load(written) == data  # a YAML 1.1 reader agrees


def test_numbers_keep_their_type_size_and_sign() -> None:
    data = {"int": 1, "float": 1.0, "negzero": -0.0, "zero": 0, "big": 2**53 - 1,
            "bigger": 2**53 + 1, "huge": 10**40, "neg": -(2**70), "tiny": 5e-324,
            "large": 1.7976931348623157e308, "exp": 1e20, "frac": 0.1}
    back = read_back(dump(data))
    assert first_difference(data, back) is None
    assert isinstance(back["float"], float) and isinstance(back["int"], int)
    assert math.copysign(1, back["negzero"]) == -1
    assert yaml.safe_load(dump(data)) == data


def test_floats_have_a_dot_for_yaml_1_1_readers() -> None:
    assert float_text(1e20) == "1.0e+20" and float_text(5e-324) == "5.0e-324"
    assert float_text(2.5) == "2.5" and scalar(-0.0) == "-0.0"


@pytest.mark.parametrize("bad", [math.inf, -math.inf, math.nan, "lone \ud800 surrogate"])
def test_what_json_cannot_hold_is_refused_with_its_pointer(bad: Any) -> None:
    with pytest.raises(YamlWriteError, match="/a/b/0"):
        dump({"a": {"b": [bad]}})


def test_multi_line_text_is_a_literal_block_and_short_collections_are_flow() -> None:
    data = {"description": "First line.\n\nSecond line.\n", "schema": {"type": "string"},
            "enum": ["a", "b"], "deep": {"x": {"v": [{"z": 1, "w": [1, 2]}]}}}
    text = dump(data)
    assert "description: |\n  First line.\n\n  Second line.\n" in text
    assert "schema: {type: string}" in text and "enum: [a, b]" in text
    assert "    v:\n      - {z: 1, w: [1, 2]}\n" in text


def test_output_is_deterministic_and_keeps_key_order() -> None:
    data = {"z": 1, "a": {"m": [3, 2, 1], "b": None}}
    assert dump(data) == dump(json.loads(json.dumps(data)))
    assert list(read_back(dump(data))) == ["z", "a"]


def test_a_header_becomes_comments() -> None:
    text = dump({"a": 1}, header="first\nsecond")
    assert text.startswith("# first\n# second\na: 1\n")


def test_a_key_longer_than_yaml_simple_keys_uses_an_explicit_key() -> None:
    data = {"k" * 2000: {"v": 1}}
    assert first_difference(data, read_back(dump(data))) is None


def test_first_difference_is_strict_about_types_order_and_zero_sign() -> None:
    assert first_difference({"a": 1}, {"a": 1.0}) == "/a"
    assert first_difference({"a": 0.0}, {"a": -0.0}) == "/a"
    assert first_difference({"a": 1, "b": 2}, {"b": 2, "a": 1}) == ""
    assert first_difference([True], [1]) == "/0"
    assert first_difference({"a": [1, {"b": "x"}]}, {"a": [1, {"b": "x"}]}) is None


# Any JSON a server could send: full Unicode text (no lone surrogates), integers of any
# size, finite floats, nested to a depth specs allow.
_TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=12)
_SCALARS = (st.none() | st.booleans() | st.integers() | _TEXT
            | st.floats(allow_nan=False, allow_infinity=False))
_JSON = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(_TEXT, inner, max_size=4), max_leaves=20)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(_TEXT, _JSON, max_size=5))
@example({"": None, "certify": None})  # a spec's key after one it does not know
def test_any_json_reads_back_exactly(data: dict[str, Any]) -> None:
    written = dump(data)
    # Written in toolc fmt's layout: a spec's known keys in their canonical order (a
    # top-level "certify" before any key a spec does not know), each value as given.
    assert first_difference(reordered(data), read_back(written)) is None
    assert written == dump(data)
    assert yaml.safe_load(written) == data  # a YAML 1.1 reader agrees


def test_a_string_of_digits_too_long_to_be_a_number_is_written_as_a_string() -> None:
    # A server may describe anything with a string of digits: it used to end in a
    # ValueError (Python's int/str limit) while deciding whether it needs quotes.
    data = {"a": "9" * 5000, "b": "1e400", "c": "0x" + "f" * 700}
    text = dump(data)
    assert yaml.safe_load(text) == data
