"""Formatting never changes what a project means: every valid project (the bundled specs,
each case of tests/fixtures/valid/) is analysed before and after formatting all its
specs, and what it publishes (each tool's JSON in the order the wire carries it), the
modules it generates and its diagnostics are the same."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from toolc.diagnostics import DiagnosticBag
from toolc.formatting import format_text
from toolc.frontend import analyse
from toolc.generate import generate_project
from toolc.loader import load_text
from toolc.publish import publish_project

ROOT = Path(__file__).resolve().parents[2]
VALID = ROOT / "tests" / "fixtures" / "valid"
PROJECTS = {"specs": (ROOT / "specs", (ROOT / "examples",))} | {
    case.name: (case, ()) for case in sorted(VALID.iterdir())
    if any(case.glob("*.toolc.yaml"))}


def analysed(texts: dict[str, str], python_path: tuple[Path, ...]) -> dict[str, object]:
    bag = DiagnosticBag()
    files = [load_text(text, path) for path, text in texts.items()]
    project = analyse(files, bag, ROOT, python_path=python_path)
    assert project is not None, [str(d) for d in bag]
    # The golden files sort keys; the wire keeps the order written, so compare that too.
    wire = {f"{module.name}/{tool.name}": json.dumps(tool.published(), ensure_ascii=False)
            for module in project.modules.values() for tool in module.exported_tools}
    return {"golden": publish_project(project), "wire": wire,
            "generated": generate_project(project),
            "diagnostics": sorted((d.code, d.severity.name, d.message) for d in bag)}


@pytest.mark.parametrize("name", sorted(PROJECTS))
def test_the_formatted_project_publishes_and_generates_exactly_the_same(name: str) -> None:
    folder, python_path = PROJECTS[name]
    texts = {f"{folder.name}/{p.name}": p.read_text(encoding="utf-8")
             for p in sorted(folder.glob("*.toolc.yaml"))}
    formatted = {path: format_text(text, path) for path, text in texts.items()}
    before, after = analysed(texts, python_path), analysed(formatted, python_path)
    assert before["golden"], "a project that publishes nothing proves nothing"
    assert after == before
