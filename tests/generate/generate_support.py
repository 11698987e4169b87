"""Helpers of the generator tests (importable: conftest puts this folder on sys.path).

A case is a folder of ``tests/fixtures/valid/<case>/``: its ``*.toolc.yaml`` specs and, in
``expected/``, the files ``generate_project`` must give for them, compared in full. To
regenerate the expected files after a deliberate change of the generator:

    TOOLC_REGEN=1 .venv/bin/python -m pytest tests/generate -q
"""

from __future__ import annotations

from pathlib import Path

from toolc.diagnostics import DiagnosticBag, Severity
from toolc.frontend import analyse
from toolc.ir import ProjectIR
from toolc.loader import load_file

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
FIXTURES = TESTS / "fixtures" / "valid"
TYPING = TESTS / "typing"
CASES = sorted(p.name for p in FIXTURES.iterdir() if any(p.glob("*.toolc.yaml")))


def analyse_case(case: str) -> ProjectIR:
    """spec -> the front end -> IR, exactly as ``toolc build`` does it."""
    folder = FIXTURES / case
    files = [load_file(str(p), p.name) for p in sorted(folder.glob("*.toolc.yaml"))]
    bag = DiagnosticBag()
    project = analyse(files, bag)
    errors = [str(d) for d in bag if d.severity >= Severity.ERROR]
    assert project is not None and not errors, errors
    return project
