"""The golden-file form: exactly what json.dumps(indent=2, sort_keys=True) writes."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from toolc.publish import golden_path, golden_text

scalars = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True)
           | st.text())
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30,
)


def reference(value: Any) -> str:
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


@given(st.dictionaries(st.text(), values, max_size=5))
def test_golden_text_is_jsons_indented_sorted_form(tool: dict[str, Any]) -> None:
    assert golden_text(tool) == reference(tool)


def test_the_cases_that_differ_most_between_encoders() -> None:
    tool = {"b": [], "a": {}, "ü": "é\n\"\\", "n": [1, 2.5, -0.0, float("inf"), None, True],
            "nested": {"z": [{"y": []}], "x": {"w": {}}}, "t": (1, "2")}
    assert golden_text(tool) == reference(tool)
    assert golden_text({1: "a"}) == reference({1: "a"})  # json's own rules for other keys


def test_golden_path() -> None:
    assert golden_path("workbench", "wb_readLog") == "schemas/workbench/wb_readLog.json"
