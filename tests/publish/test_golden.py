"""The golden-file form: exactly what json.dumps(indent=2, sort_keys=True) writes."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from hypothesis import given
from hypothesis import strategies as st
from toolc.publish import SCHEMAS_DIR, golden_path, golden_text

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


# -- every published schema resolves on its own (issue 11 item 2) ------------------------------

TESTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TESTS))

from agreement_support import build_in_memory, project_folders


def _refuse(uri: str) -> Any:
    raise AssertionError(f"a published schema needs {uri}: it does not resolve on its own")


def _compile_every_schema(tool: dict[str, Any], where: str) -> None:
    for key in ("inputSchema", "outputSchema"):
        if key in tool:
            try:
                jsonschema_rs.Draft202012Validator(tool[key], retriever=_refuse)
            except jsonschema_rs.ValidationError as exc:
                raise AssertionError(f"{where} {key}: {exc.message}") from None


def _committed_golden_files() -> list[Path]:
    """The golden files on disk: generated/ and every published tool among the fixtures
    (expected published JSON, the diff rules' old and new golden files, ...)."""
    found = sorted((TESTS.parent / "generated" / SCHEMAS_DIR).rglob("*.json"))
    return found + sorted((TESTS / "fixtures").rglob("*.json"))


@pytest.mark.parametrize("folder", project_folders(), ids=lambda p: p.name)
def test_every_schema_a_project_publishes_compiles_with_nothing_to_retrieve(
        folder: Path) -> None:
    files = build_in_memory(folder)
    assert files is not None, folder
    golden = {rel: text for rel, text in files.items() if rel.startswith(SCHEMAS_DIR + "/")}
    assert golden or folder.name == "no_tools"
    for rel, text in golden.items():
        _compile_every_schema(json.loads(text), f"{folder.name}/{rel}")


def test_every_committed_golden_file_compiles_with_nothing_to_retrieve() -> None:
    compiled = 0
    for path in _committed_golden_files():
        try:
            tool = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:  # a fixture that is bad JSON on purpose (a `$ref` to it)
            continue
        if isinstance(tool, dict) and "inputSchema" in tool:
            _compile_every_schema(tool, str(path.relative_to(TESTS.parent)))
            compiled += 1
    assert compiled > 100
