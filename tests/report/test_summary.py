"""The one summary `toolc build` and `toolc diff` end with (toolc.report.summary)."""

from __future__ import annotations

from toolc.diagnostics import Severity
from toolc.diff.result import Change
from toolc.report.summary import summary


def change(rule: str, severity: Severity, accepted: bool = False, tool: str = "m/t",
           also: tuple[str, ...] = ()) -> Change:
    return Change(tool=tool, pointer=f"/{rule}", rule=rule, severity=severity, message="m",
                  accepted=accepted, reason="ok" if accepted else None, also=also)


BREAKING = [change("TOOL_REMOVED", Severity.ERROR), change("REQUIRED_ADDED", Severity.ERROR),
            change("DESCRIPTION_REMOVED", Severity.ERROR), change("DEFAULT_CHANGED", Severity.WARNING),
            change("TOOL_ADDED", Severity.INFO),
            change("TOOL_REMOVED", Severity.ERROR, accepted=True)]


def test_it_speaks_of_changes_not_errors_and_says_what_ci_refuses() -> None:
    assert summary(BREAKING) == (
        "6 changes in 1 tool: 2 breaking, 1 description lost, 1 risky, 1 compatible, "
        "1 accepted; CI fails on 3 of them unless accepted in [tool.toolc.diff]")
    assert summary(BREAKING, "warning").endswith("CI fails on 4 of them unless accepted in "
                                                 "[tool.toolc.diff]")
    assert summary(BREAKING, "never").endswith("; none fails CI")
    assert summary(BREAKING[4:]) == "2 changes in 1 tool: 1 compatible, 1 accepted; none fails CI"
    assert summary(BREAKING[4:], "info").endswith("CI fails on 1 of them unless accepted in "
                                                  "[tool.toolc.diff]")
    assert summary(BREAKING[:2]).endswith("; CI fails on them unless accepted in "
                                          "[tool.toolc.diff]")
    assert summary(BREAKING[2:3]) == ("1 change in 1 tool: 1 description lost; CI fails on it "
                                      "unless accepted in [tool.toolc.diff]")
    assert summary(BREAKING[2:3] * 2).startswith("2 changes in 1 tool: 2 descriptions lost;")


def test_a_row_in_five_modules_is_one_change_in_one_tool() -> None:
    keys = tuple(f"{m}/addNote" for m in ("alpha", "beta", "core"))
    rows = [change("DESCRIPTION_CHANGED", Severity.INFO, tool=keys[0], also=keys[1:]),
            change("REQUIRED_ADDED", Severity.ERROR, tool=keys[0], also=keys[1:])]
    assert summary(rows) == ("2 changes in 1 tool: 1 breaking, 1 compatible; CI fails on 1 "
                             "of them unless accepted in [tool.toolc.diff]")
    assert summary([*rows, change("TOOL_ADDED", Severity.INFO, tool="alpha/ping")]).startswith(
        "3 changes in 2 tools:")


def test_no_changes() -> None:
    assert summary([]) == summary([], "info") == "No changes in the published tools."


def test_a_weakening_of_the_gates_rules_is_counted_first_and_judged() -> None:
    weakened = change("POLICY_WEAKENED", Severity.ERROR, tool="pyproject.toml")
    added = change("ACCEPTANCE_ADDED", Severity.INFO, tool="pyproject.toml")
    assert summary([], policy=[weakened]) == (
        "No change to the published tools: 1 weakening of the gate's rules; CI fails on it "
        "unless accepted in [tool.toolc.diff]")
    assert summary(BREAKING[:1], policy=[weakened]) == (
        "1 change in 1 tool: 1 weakening of the gate's rules, 1 breaking; CI fails on them "
        "unless accepted in [tool.toolc.diff]")
    assert summary([], policy=[added]) == "No change to the published tools; none fails CI"
