"""CHECKS as data: each check declares its rule codes, every code belongs to one check,
and the reporter a check is handed refuses a code the check did not declare."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from toolc.checks import CHECKS, Check, ProjectFacts, Reporter, run_checks
from toolc.diagnostics import RULES, DiagnosticBag, Span
from toolc.frontend import parse_files
from toolc.loader import load_text

SPEC = """\
module: shop
tools:
  look:
    description: Look.
    handler: shop.tools:look
    params:
      name: {type: string, description: The name.}
"""


def _facts(bag: DiagnosticBag, text: str = SPEC) -> ProjectFacts:
    return run_checks(parse_files([load_text(text, "shop.toolc.yaml")], bag), bag)


def test_every_code_belongs_to_exactly_one_check() -> None:
    declared = Counter(code for check in CHECKS for code in check.codes)
    twice = {code: n for code, n in declared.items() if n > 1}
    assert not twice, f"codes declared by more than one check: {twice}"
    owners = {code: check.name for check in CHECKS for code in check.codes}
    # TC201 was reported from three functions: it is one check's now.
    assert owners["TC201"] == "toolc.checks.descriptions.check_descriptions"


def test_every_declared_code_is_a_rule_and_every_check_says_what_it_is_for() -> None:
    for check in CHECKS:
        unknown = [code for code in check.codes if code not in RULES]
        assert not unknown, f"{check.name} declares codes not in RULES: {unknown}"
        assert check.codes and check.purpose.strip(), check.name


def test_a_check_reporting_a_code_it_did_not_declare_is_refused() -> None:
    bag = DiagnosticBag()
    facts = _facts(bag)

    def rogue(facts: ProjectFacts, report: Reporter) -> None:
        report("TC309", "declared, so said", Span("shop.toolc.yaml", 1, 1))
        report("TC201", "not declared", Span("shop.toolc.yaml", 1, 1))

    before = len(bag.items)
    with pytest.raises(AssertionError, match="reported TC201, which it does not declare"):
        Check(rogue, ("TC309",), "a check that strays")(facts, bag)
    assert [d.code for d in bag.items[before:]] == ["TC309"]  # the stray code never reached it


def test_a_finding_of_an_analysis_step_is_relayed_only_by_the_check_of_its_code() -> None:
    bag = DiagnosticBag()
    facts = _facts(bag, SPEC.replace("description: The name.", "descripton: The name."))
    assert {f.code for f in facts.found} >= {"TC101"}  # the walk's finding, as data
    [schemas] = [c for c in CHECKS if "TC101" in c.codes]
    elsewhere = dataclasses.replace(schemas, codes=("TC309",))
    fresh = DiagnosticBag()
    assert elsewhere(facts, fresh) == 0 and not fresh.items
    assert schemas(facts, fresh) == sum(f.code in schemas.codes for f in facts.found)
    assert [d.code for d in fresh.items] == ["TC101"]


def test_the_facts_are_read_only() -> None:
    facts = _facts(DiagnosticBag())
    with pytest.raises(dataclasses.FrozenInstanceError):
        facts.roots = ()  # type: ignore[misc]
    with pytest.raises(TypeError):
        facts.compositions[(0, "x")] = None  # type: ignore[index]


def test_a_finding_no_check_reports_is_a_bug_not_silence(monkeypatch: pytest.MonkeyPatch) -> None:
    import toolc.checks

    without = tuple(c for c in CHECKS if "TC101" not in c.codes)
    monkeypatch.setattr(toolc.checks, "CHECKS", without)
    with pytest.raises(AssertionError, match="1 of the analysis' findings were reported by no"):
        _facts(DiagnosticBag(), SPEC.replace("description: The name.", "descripton: The name."))
    _facts(DiagnosticBag())  # nothing found: nothing to lose
