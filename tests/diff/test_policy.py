"""Policy: severities changed per rule, reviewed changes accepted, and when a check fails."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from toolc.diagnostics import Severity
from toolc.diff import (
    Acceptance,
    Change,
    DiffInputError,
    Policy,
    diff_tools,
    fails,
    load_folder,
    worst,
)

MULTI = Path(__file__).resolve().parent.parent / "fixtures" / "diff" / "_multi"


def multi(policy: Policy | None = None) -> list[Change]:
    return diff_tools(load_folder(MULTI / "old"), load_folder(MULTI / "new"), policy)


def change(severity: Severity, accepted: bool = False) -> Change:
    return Change("t", "/x", "R", severity, "m", accepted=accepted)


def test_config_is_read_with_severities_acceptances_and_threshold() -> None:
    policy = Policy.from_config({
        "severity": {"TOOL_ADDED": "warning", "DEFAULT_CHANGED": "off"},
        "accept": [{"tool": "oldTool", "rule": "TOOL_REMOVED", "reason": "retired in 2.0"},
                   {"tool": "readLog", "rule": "CONSTRAINT_TIGHTENED", "reason": "too slow",
                    "pointer": "/inputSchema/properties/lines"}],
        "fail_on": "warning",
    })
    assert policy.severities == {"TOOL_ADDED": Severity.WARNING, "DEFAULT_CHANGED": Severity.OFF}
    assert policy.accept[1] == Acceptance("readLog", "CONSTRAINT_TIGHTENED", "too slow",
                                          "/inputSchema/properties/lines")
    assert policy.fail_on == "warning"
    assert Policy.from_config({}) == Policy()


@pytest.mark.parametrize(("table", "message"), [
    ({"severities": {}}, r"\[tool\.toolc\.diff\]: unknown key 'severities' \(did you mean 'severity'\?\)"),
    ({"severity": {"TOOL_REMOVD": "info"}},
     r"\[tool\.toolc\.diff\]\.severity: unknown rule 'TOOL_REMOVD' \(did you mean 'TOOL_REMOVED'\?\)"),
    ({"severity": {"TOOL_ADDED": "fatal"}},
     r"\.severity\.TOOL_ADDED: unknown severity 'fatal' \(expected off, info, warning or error\)"),
    ({"severity": {"TOOL_ADDED": 3}}, r"\.severity\.TOOL_ADDED: expected a string, found an integer"),
    ({"severity": ["TOOL_ADDED"]}, r"\.severity: expected a table of RULE_ID = severity"),
    ({"accept": {"tool": "x"}}, r"\.accept: expected a list of tables, found a table"),
    ({"accept": [{"tool": "x", "rule": "TOOL_REMOVED"}]},
     r"\.accept\[0\]: missing 'reason' \(every accepted change says why\)"),
    ({"accept": [{"tool": "x", "rule": "TOOL_REMOVED", "reason": " "}]},
     r"\.accept\[0\]\.reason: must not be empty"),
    ({"accept": [{"tool": "x", "rule": "NOPE", "reason": "r"}]}, r"\.accept\[0\]\.rule: unknown rule 'NOPE'"),
    ({"accept": [{"tool": "x", "rule": "TOOL_REMOVED", "reason": "r", "pointer": "a/b"}]},
     r"\.accept\[0\]\.pointer: a JSON pointer starts with '/'"),
    ({"accept": [{"tool": "x", "rule": "TOOL_REMOVED", "reason": "r", "why": "r"}]},
     r"\.accept\[0\]: unknown key 'why'"),
    ({"accept": [{"tool": 1, "rule": "TOOL_REMOVED", "reason": "r"}]},
     r"\.accept\[0\]\.tool: expected a string, found an integer"),
    ({"accept": [{"tool": "/readLog", "rule": "TOOL_REMOVED", "reason": "r"}]},
     r"\.accept\[0\]\.tool: '/readLog' is neither a tool name \('readLog', 'read\*'\) nor a folder"),
    ({"accept": [{"reason": "r", "pointer": "/description"}]},
     r"\.accept\[0\]: names no 'rule', 'tool' or 'module' \(say which changes it accepts"),
    ({"accept": [{"module": "", "reason": "r"}]}, r"\.accept\[0\]\.module: '' is no module name"),
    ({"accept": [{"module": 3, "reason": "r"}]},
     r"\.accept\[0\]\.module: expected a string, found an integer"),
    ({"accept": [{"tool": "workbench/", "rule": "TOOL_REMOVED", "reason": "r"}]},
     r"\.accept\[0\]\.tool: 'workbench/' is neither"),
    ({"accept": [{"tool": "", "rule": "TOOL_REMOVED", "reason": "r"}]},
     r"\.accept\[0\]\.tool: '' is neither"),
    ({"fail_on": "errors"}, r"\.fail_on: 'errors' is not one of error, warning, info, never"),
])
def test_bad_config_names_the_key(table: dict[str, Any], message: str) -> None:
    with pytest.raises(DiffInputError, match=message):
        Policy.from_config(table)


def test_config_location_is_the_callers() -> None:
    with pytest.raises(DiffInputError, match=r"^pyproject\.toml \[tool\.toolc\.diff\]: expected a table"):
        Policy.from_config([], where="pyproject.toml [tool.toolc.diff]")  # type: ignore[arg-type]


def test_severity_overrides_and_off() -> None:
    base = multi()
    changed = multi(Policy.from_config({"severity": {"TOOL_ADDED": "error",
                                                     "DEFAULT_CHANGED": "off"}}))
    assert [c for c in base if c.rule == "DEFAULT_CHANGED"] and not [
        c for c in changed if c.rule == "DEFAULT_CHANGED"]
    assert {c.severity for c in changed if c.rule == "TOOL_ADDED"} == {Severity.ERROR}
    assert len(changed) == len(base) - 1


def test_accepted_changes_stay_listed_with_their_reason_and_never_fail() -> None:
    accept_all_errors = [{"tool": c.tool, "rule": c.rule, "reason": f"ok {c.rule}"}
                         for c in multi() if c.severity is Severity.ERROR]
    policy = Policy.from_config({"accept": accept_all_errors})
    changes = multi(policy)
    accepted = [c for c in changes if c.accepted]
    assert len(changes) == len(multi()) and accepted
    assert all(c.reason == f"ok {c.rule}" and c.severity is Severity.ERROR for c in accepted)
    assert fails(multi(), "error") and not fails(changes, "error")
    assert worst(changes) is Severity.WARNING and fails(changes, "warning")
    assert policy.unused(changes) == []


def test_an_acceptance_with_a_pointer_matches_there_and_below_only() -> None:
    acceptance = Acceptance("workbench/readLog", "DESCRIPTION_REMOVED", "moved on purpose",
                            "/inputSchema/properties/level")
    at = Change("workbench/readLog", "/inputSchema/properties/level/description",
                "DESCRIPTION_REMOVED", Severity.ERROR, "m")
    assert acceptance.matches(at)
    assert not acceptance.matches(Change("workbench/readLog", "/inputSchema/properties/levels",
                                         "DESCRIPTION_REMOVED", Severity.ERROR, "m"))
    assert not acceptance.matches(Change("workbench/readLog", at.pointer, "TYPE_WIDENED",
                                         Severity.ERROR, "m"))
    stale = Acceptance("workbench/readLog", "TOOL_REMOVED", "gone")
    assert Policy(accept=(acceptance, stale)).unused([at]) == [stale]


def removed(key: str) -> Change:
    return Change(key, "", "TOOL_REMOVED", Severity.ERROR, f"tool '{key}' was removed")


def test_an_acceptance_names_a_key_or_a_bare_name_in_any_folder() -> None:
    both = [removed("showcase/wb_readLog"), removed("workbench/wb_readLog"),
            removed("wb_readLog"), removed("workbench/wb_readLogs"),
            removed("workbench/x_wb_readLog")]
    by_key = Acceptance("workbench/wb_readLog", "TOOL_REMOVED", "retired here only")
    by_name = Acceptance("wb_readLog", "TOOL_REMOVED", "retired everywhere")
    assert [c.tool for c in both if by_key.matches(c)] == ["workbench/wb_readLog"]
    assert [c.tool for c in both if by_name.matches(c)] == [
        "showcase/wb_readLog", "workbench/wb_readLog", "wb_readLog"]
    # A key matches exactly: not a deeper folder that ends the same, not the bare name.
    assert not by_key.matches(removed("modules/workbench/wb_readLog"))
    assert not Acceptance("bench/wb_readLog", "TOOL_REMOVED", "r").matches(both[1])


@pytest.mark.parametrize("tool", ["workbench/oldTool", "oldTool"])
def test_either_form_accepts_a_loaded_tool(tool: str) -> None:
    policy = Policy.from_config({"accept": [{"tool": tool, "rule": "TOOL_REMOVED",
                                             "reason": "retired"}]})
    changes = multi(policy)
    assert [c.tool for c in changes if c.accepted] == ["workbench/oldTool"]
    assert policy.unused(changes) == []
    other = Policy.from_config({"accept": [{"tool": "showcase/oldTool", "rule": "TOOL_REMOVED",
                                            "reason": "retired"}]})
    assert not any(c.accepted for c in multi(other)) and len(other.unused(multi(other))) == 1


@pytest.mark.parametrize(("fail_on", "severities", "expected"), [
    ("error", [Severity.WARNING, Severity.INFO], False),
    ("error", [Severity.ERROR], True),
    ("warning", [Severity.WARNING], True),
    ("warning", [Severity.INFO], False),
    ("info", [Severity.INFO], True),
    ("info", [], False),
    ("never", [Severity.ERROR], False),
])
def test_fail_on_thresholds(fail_on: str, severities: list[Severity], expected: bool) -> None:
    assert fails([change(s) for s in severities], fail_on) is expected


def test_accepted_changes_do_not_count_and_bad_thresholds_are_refused() -> None:
    assert worst([change(Severity.ERROR, accepted=True), change(Severity.INFO)]) is Severity.INFO
    assert worst([]) is None
    assert not fails([change(Severity.ERROR, accepted=True)], "info")
    with pytest.raises(DiffInputError, match="fail_on must be one of"):
        fails([], "errors")


def test_the_documented_example_is_a_valid_policy() -> None:
    import re
    import tomllib

    docs = (Path(__file__).resolve().parents[2] / "docs" / "diff.md").read_text("utf-8")
    block = re.search(r"```toml\n(.*?)```", docs, re.DOTALL)
    assert block
    table = tomllib.loads(block.group(1))["tool"]["toolc"]["diff"]
    policy = Policy.from_config(table)
    assert policy.fail_on == "error" and policy.severities["META_CHANGED"] is Severity.OFF
    assert policy.accept[0].pointer == "/inputSchema/properties/lines"
    changes = multi(policy)
    tightened = [c for c in changes if c.rule == "CONSTRAINT_TIGHTENED"]
    assert tightened and all(c.accepted for c in tightened)


# -- matching by rule alone, by tool or module glob, or by both (issue 22) ---------------

def changed(key: str, rule: str = "DESCRIPTION_CHANGED") -> Change:
    return Change(key, "/description", rule, Severity.INFO, "m")


KEYS = ["core/addNote", "alpha/addNote", "alpha/alphaPing", "beta/listNotes", "top"]


@pytest.mark.parametrize(("entry", "accepted"), [
    ({"rule": "DESCRIPTION_CHANGED"}, KEYS),
    ({"rule": "DESCRIPTION_CHANGED", "tool": "*"}, KEYS),
    ({"tool": "addNote"}, ["core/addNote", "alpha/addNote"]),
    ({"tool": "*Note*"}, ["core/addNote", "alpha/addNote", "beta/listNotes"]),
    ({"tool": "alpha/*"}, ["alpha/addNote", "alpha/alphaPing"]),
    ({"module": "alpha"}, ["alpha/addNote", "alpha/alphaPing"]),
    ({"module": "[ab]*", "tool": "*Note*"}, ["alpha/addNote", "beta/listNotes"]),
    ({"module": "*"}, KEYS[:4]),  # a module is a folder: the top has none
    ({"rule": "TOOL_REMOVED", "tool": "*"}, []),
    ({"tool": "AddNote"}, []),  # globs are case-sensitive, as tool names are
])
def test_an_acceptance_matches_by_rule_by_tool_or_module_glob_or_both(
        entry: dict[str, str], accepted: list[str]) -> None:
    policy = Policy.from_config({"accept": [{**entry, "reason": "reviewed in #7"}]})
    changes = policy.apply(changed(key) for key in KEYS)
    assert [c.tool for c in changes if c.accepted] == accepted
    assert all(c.reason == "reviewed in #7" for c in changes if c.accepted)


def test_a_rename_is_accepted_by_its_old_name_or_its_new() -> None:
    renamed = Change("core/searchNotes", "/name", "TOOL_RENAMED", Severity.ERROR, "m",
                     old="findNote", new="searchNotes")
    for tool in ("findNote", "searchNotes", "core/findNote"):
        assert Acceptance(tool, "TOOL_RENAMED", "r").matches(renamed), tool
    assert not Acceptance("listNotes", "TOOL_RENAMED", "r").matches(renamed)


def test_an_acceptance_that_matches_nothing_is_a_warning_naming_the_entry() -> None:
    policy = Policy.from_config({"accept": [
        {"rule": "DESCRIPTION_CHANGED", "tool": "*", "reason": "reworded"},
        {"rule": "TOOL_REMOVED", "tool": "fndNote", "reason": "retired"}]})
    changes = policy.apply([changed("core/addNote")])
    compared = "origin/main:generated/schemas and a fresh build"
    (warning,) = policy.unused_warnings(changes, compared)
    assert warning == (
        '[tool.toolc.diff].accept[1] (rule = "TOOL_REMOVED", tool = "fndNote") matches no '
        f"change between {compared}: correct it, or delete it if its change is in the base "
        "already")


def test_an_acceptance_says_what_it_accepts_in_words() -> None:
    def scope(**entry: str) -> str:
        return Policy.from_config({"accept": [{**entry, "reason": "r"}]}).accept[0].scope()

    assert scope(rule="TOOL_REMOVED", tool="oldTool") == "TOOL_REMOVED in oldTool"
    assert scope(rule="DESCRIPTION_CHANGED", tool="*") == "DESCRIPTION_CHANGED in every tool"
    assert scope(rule="DESCRIPTION_CHANGED") == "DESCRIPTION_CHANGED in every tool"
    assert scope(module="legacy") == "every change in module legacy"
    assert scope(tool="read*", module="wb", pointer="/inputSchema") == (
        "every change in read* of module wb at /inputSchema")


def test_a_change_to_the_gates_rules_is_accepted_only_by_an_entry_naming_its_rule() -> None:
    weakened = Change("pyproject.toml", "/tool/toolc/diff/fail_on", "POLICY_WEAKENED",
                      Severity.ERROR, "m")
    for entry in ({"tool": "*"}, {"tool": "pyproject.toml"}):
        assert not Policy.from_config({"accept": [{**entry, "reason": "r"}]}).accept[0] \
            .matches(weakened), entry
    named = {"tool": "pyproject.toml", "rule": "POLICY_WEAKENED", "reason": "agreed in #12"}
    assert Policy.from_config({"accept": [named]}).accept[0].matches(weakened)
