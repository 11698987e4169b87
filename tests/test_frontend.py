"""The front end end to end: every bad spec in tests/fixtures/invalid/ and its exact diagnostics.

Each folder of ``tests/fixtures/invalid/`` holds one bad spec (several files where a case
spans modules) and ``expected.txt``: the text diagnostics ``toolc`` prints for it, paths
relative to the folder, compared in full. To regenerate them after an intended change,
run ``TOOLC_REGEN=1 .venv/bin/python -m pytest tests/test_frontend.py`` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from toolc.diagnostics import RULES, DiagnosticBag, Severity, SpecError
from toolc.frontend import analyse
from toolc.ir import ProjectIR
from toolc.loader import LoadedFile, load_file, load_text
from toolc.report.diagnostics import render_text

INVALID = Path(__file__).parent / "fixtures" / "invalid"
CASES = sorted(p.name for p in INVALID.iterdir() if p.is_dir())
REGEN = bool(os.environ.get("TOOLC_REGEN"))


def run_case(folder: Path) -> tuple[str, DiagnosticBag, ProjectIR | None]:
    """Load and analyse every spec of ``folder`` as the build does; render what it reports."""
    bag = DiagnosticBag()
    loaded: list[LoadedFile] = []
    sources: dict[str, str] = {}
    for path in sorted(folder.glob("*.toolc.yaml")):
        sources[path.name] = path.read_bytes().decode("utf-8", "replace")
        try:
            loaded.append(load_file(str(path), path.name))
        except SpecError as exc:  # the loader refuses the whole file
            bag.extend(exc.diagnostics)
    ir = analyse(loaded, bag)
    return render_text(bag.sorted(), sources) + "\n", bag, ir


@pytest.mark.parametrize("case", CASES)
def test_invalid_spec_reports_exactly_the_expected_diagnostics(case: str) -> None:
    folder = INVALID / case
    text, bag, ir = run_case(folder)
    expected = folder / "expected.txt"
    if REGEN:
        expected.write_text(text, encoding="utf-8")
    assert text == expected.read_text(encoding="utf-8")
    code = case.split("-")[0]
    assert code not in RULES or any(d.code == code for d in bag), f"{case} lacks {code}"
    assert all(d.span is not None and d.span.line >= 1 and d.span.col >= 1 for d in bag)
    assert (ir is None) == bag.has_errors


def test_every_front_end_rule_has_a_fixture() -> None:
    covered = {case.split("-")[0] for case in CASES}
    front_end = {code for code in RULES if code < "TC500"}
    assert front_end - covered - {"TC002"} == set()  # a 10 MiB fixture is tested in test_loader


def test_analyse_reports_loader_diagnostics_of_each_file() -> None:
    f = load_text("toolc: 1\nmodule: a\nmodule: b\n", "a.toolc.yaml")
    bag = DiagnosticBag()
    assert analyse([f], bag) is None
    assert [(d.code, d.span.line) for d in bag if d.span] == [("TC006", 3)]


def test_analyse_returns_ir_when_only_warnings() -> None:
    f = load_text("toolc: 1\nmodule: a\ntools:\n  read.log:\n    description: Read.\n"
                  "    handler: app.tools:read\n", "a.toolc.yaml")
    bag = DiagnosticBag()
    ir = analyse([f], bag)
    assert [d.code for d in bag] == ["TC302"]
    assert ir is not None and [t.name for t in ir.modules["a"].exported_tools] == ["read.log"]


def test_configured_severity_turns_an_error_into_a_warning() -> None:
    f = load_text("toolc: 1\nmodule: a\ntools:\n  t:\n    handler: app.tools:t\n", "a.toolc.yaml")
    bag = DiagnosticBag(severities={"TC201": Severity.WARNING})
    ir = analyse([f], bag)
    assert [(d.code, d.severity) for d in bag] == [("TC201", Severity.WARNING)]
    assert ir is not None


@pytest.mark.parametrize("text", ["", "[1, 2]", "42", "toolc: 1\nmodule: a\ntools: 5\n",
                                  "toolc: 1\nmodule: a\ntools: {t: [1]}\ntoolsets: {s: 3}\n",
                                  "toolc: 1\nmodule: a\ntypes: {T: 5}\ntools: {t: {params: 4}}\n"])
def test_nonsense_gives_located_errors_not_tracebacks(text: str) -> None:
    bag = DiagnosticBag()
    assert analyse([load_text(text, "x.toolc.yaml")], bag) is None
    assert bag.has_errors
    assert all(d.span is not None and d.span.line >= 1 for d in bag)
