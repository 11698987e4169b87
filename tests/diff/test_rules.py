"""The rule catalogue is exactly issue 5's table, and each rule says what it is for."""

from __future__ import annotations

from toolc.diagnostics import Severity
from toolc.diff import RULES

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO

# (input, output) as issue 5 states them; PROPERTY_REMOVED's input is error when the
# object admits no other properties, else warning.
ISSUE_TABLE = {
    "TOOL_REMOVED": (E, E), "TOOL_ADDED": (I, I), "PROPERTY_REMOVED": (E, E),
    "PROPERTY_ADDED_REQUIRED": (E, I), "PROPERTY_ADDED_OPTIONAL": (I, I),
    "REQUIRED_ADDED": (E, I), "REQUIRED_REMOVED": (I, E), "TYPE_NARROWED": (E, I),
    "TYPE_WIDENED": (I, E), "ENUM_VALUE_REMOVED": (E, I), "ENUM_VALUE_ADDED": (I, E),
    "CONSTRAINT_TIGHTENED": (E, I), "CONSTRAINT_LOOSENED": (I, E), "FORMAT_ADDED": (W, W),
    "DEFAULT_CHANGED": (W, W), "DESCRIPTION_REMOVED": (E, E), "DESCRIPTION_CHANGED": (I, I),
    "DESCRIPTION_ADDED": (I, I), "ANNOTATION_CHANGED": (W, W), "TITLE_CHANGED": (I, I),
}
# Rules beyond the issue's table, with the severities docs/diff.md documents.
EXTRA = {"OUTPUT_SCHEMA_ADDED": (I, I), "OUTPUT_SCHEMA_REMOVED": (E, E),
         "META_CHANGED": (I, I), "OTHER_CHANGED": (W, W),
         "APPROVAL_REMOVED": (E, E), "APPROVAL_ADDED": (W, W),
         "TOOL_RENAMED": (E, E),  # issue 22: breaking by default
         "PINNED_DESCRIPTION_CHANGED": (W, W),  # issue 26: a rug pull stands out
         # the gate's own (toolc.diff.gate): a pull request's changes to its rules
         "POLICY_WEAKENED": (E, E), "POLICY_TIGHTENED": (I, I), "ACCEPTANCE_ADDED": (I, I)}


def test_catalogue_is_the_issue_table_plus_documented_extras() -> None:
    assert {r: (RULES[r].input, RULES[r].output) for r in RULES} == ISSUE_TABLE | EXTRA


def test_property_removed_from_an_open_object_is_a_warning_on_input_only() -> None:
    rule = RULES["PROPERTY_REMOVED"]
    assert rule.severity("input", open_object=True) is W
    assert rule.severity("input", open_object=False) is E
    assert rule.severity("output", open_object=True) is E
    assert all(r.input_open is None for r in RULES.values() if r.id != "PROPERTY_REMOVED")


def test_tool_level_changes_use_the_input_column() -> None:
    assert RULES["TYPE_NARROWED"].severity("tool") is E


def test_every_rule_has_a_one_line_purpose_and_a_stable_id() -> None:
    for rule_id, rule in RULES.items():
        assert rule.id == rule_id and rule_id.isupper()
        assert rule.purpose.endswith(".") and "\n" not in rule.purpose


def test_docs_list_every_rule_with_its_severities() -> None:
    from pathlib import Path

    docs = (Path(__file__).resolve().parents[2] / "docs" / "diff.md").read_text("utf-8")
    for rule_id, rule in RULES.items():
        row = next(line for line in docs.splitlines() if line.startswith(f"| `{rule_id}` |"))
        assert f"| {rule.input} |" in row or f"| {rule.input} (" in row, row
        assert row.rstrip().endswith(f"| {rule.output} |"), row
