"""The diagnostic bag: severities per rule and per file, and inline suppressions."""

from __future__ import annotations

import json

import pytest
from toolc.diagnostics import DiagnosticBag, Severity, Span, Suppression

VENDOR = Span("specs/vendor/desk.toolc.yaml", 3, 1)
OWN = Span("specs/own.toolc.yaml", 3, 1)


def test_per_file_severity_applies_to_matching_files_only() -> None:
    bag = DiagnosticBag(severities={"TC201": Severity.WARNING},
                        per_file=(("specs/vendor/*", {"TC201": Severity.OFF}),))
    bag.report("TC201", "vendor", VENDOR)
    bag.report("TC201", "own", OWN)
    assert [(d.message, d.severity) for d in bag] == [("own", Severity.WARNING)]


def test_the_last_matching_glob_wins_and_a_bare_name_matches_the_file_name() -> None:
    bag = DiagnosticBag(per_file=(("specs/*", {"TC302": Severity.OFF}),
                                  ("desk.toolc.yaml", {"TC302": Severity.ERROR})))
    bag.report("TC302", "vendor", VENDOR)
    bag.report("TC302", "own", OWN)
    assert [(d.message, d.severity) for d in bag] == [("vendor", Severity.ERROR)]


def test_a_suppression_silences_its_code_on_its_line_only() -> None:
    bag = DiagnosticBag()
    bag.add_suppressions(OWN.path, [Suppression(Span(OWN.path, 3, 20), ("TC201",))])
    bag.report("TC201", "silenced", OWN)
    bag.report("TC302", "other code", OWN)
    bag.report("TC201", "other line", OWN._replace(line=4))
    bag.judge_suppressions(lambda code: True)
    assert [d.message for d in bag] == ["other code", "other line"]


def test_an_unused_suppression_is_reported_once_by_the_stage_that_owns_it() -> None:
    bag = DiagnosticBag()
    comment = Span(OWN.path, 3, 20)
    bag.add_suppressions(OWN.path, [Suppression(comment, ("TC201", "TC502"))])
    bag.judge_suppressions(lambda code: code != "TC502")
    bag.judge_suppressions(lambda code: code != "TC502")
    [d] = bag
    assert (d.code, d.severity, d.span) == ("TC022", Severity.WARNING, comment)
    assert "no TC201 is reported on this line" in d.message
    bag.report("TC502", "lost", OWN)  # certification's finding, then its judgement
    bag.judge_suppressions(lambda code: code == "TC502")
    assert len(bag) == 1


def test_a_suppression_naming_no_rule_is_reported() -> None:
    bag = DiagnosticBag()
    bag.add_suppressions(OWN.path, [Suppression(Span(OWN.path, 3, 20),
                                                ("TC2O1", "missing-description"))])
    bag.report("TC201", "silenced by name", OWN)
    bag.judge_suppressions(lambda code: True)
    assert [(d.code, d.message) for d in bag] == [
        ("TC022", "`# toolc: ignore[TC2O1]` names no rule; it suppresses nothing")]


def test_a_sibling_shares_severities_and_suppressions() -> None:
    bag = DiagnosticBag(per_file=(("specs/vendor/*", {"TC502": Severity.OFF}),))
    bag.add_suppressions(OWN.path, [Suppression(Span(OWN.path, 3, 20), ("TC502",))])
    own = bag.sibling()
    own.report("TC502", "suppressed", OWN)
    own.report("TC502", "off for the file", VENDOR)
    bag.judge_suppressions(lambda code: True)
    assert list(own) == [] and list(bag) == []


def test_severities_order_from_off_to_error() -> None:
    order = [Severity.OFF, Severity.INFO, Severity.WARNING, Severity.ERROR]
    shuffled = [Severity.WARNING, Severity.ERROR, Severity.OFF, Severity.INFO]
    assert sorted(shuffled) == order
    assert max(Severity.INFO, Severity.ERROR, Severity.WARNING) is Severity.ERROR
    assert Severity.WARNING >= Severity.WARNING > Severity.INFO >= Severity.OFF
    assert Severity.INFO < Severity.ERROR and Severity.ERROR > Severity.INFO


def test_a_severity_renders_as_its_word_and_equals_no_string_or_number() -> None:
    assert [str(s) for s in Severity] == ["off", "info", "warning", "error"]
    assert f"{Severity.ERROR}[TC101]" == "error[TC101]"
    assert json.dumps({"severity": str(Severity.WARNING)}) == '{"severity": "warning"}'
    assert all(Severity.parse(str(s).upper()) is s for s in Severity)
    assert Severity.ERROR != "error" and Severity.ERROR != 3
    with pytest.raises(TypeError):
        assert Severity.ERROR > "warning"
