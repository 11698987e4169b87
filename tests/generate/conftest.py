"""Fixtures of the generator tests: the fixture cases, analysed, generated and staged.

``staged`` writes every case's generated files as a package ``generated_<case>`` under a
temporary folder; the handlers of ``tests/typing/fixture_handlers`` import from those
packages, so mypy and the runtime tests see the same code the golden files hold.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from generate_support import CASES, TYPING, analyse_case
from toolc.generate import generate_project
from toolc.ir import ProjectIR


@pytest.fixture(scope="session")
def projects() -> dict[str, ProjectIR]:
    return {case: analyse_case(case) for case in CASES}


@pytest.fixture(scope="session")
def generated(projects: dict[str, ProjectIR]) -> dict[str, dict[str, str]]:
    return {case: generate_project(project) for case, project in projects.items()}


@pytest.fixture(scope="session")
def staged(tmp_path_factory: pytest.TempPathFactory,
           generated: dict[str, dict[str, str]]) -> Path:
    """A folder holding one package ``generated_<case>`` per case."""
    root = tmp_path_factory.mktemp("staged")
    for case, files in generated.items():
        package = root / f"generated_{case}"
        package.mkdir()
        for rel, text in files.items():
            (package / rel).write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="session")
def importable(staged: Path) -> Iterator[Callable[[str], object]]:
    """``load("case.module")`` imports a staged generated module; handlers are importable."""
    import importlib

    added = [str(staged), str(TYPING)]
    sys.path[:0] = added
    try:
        yield lambda name: importlib.import_module(f"generated_{name}")
    finally:
        for entry in added:
            sys.path.remove(entry)
        for name in [m for m in sys.modules
                     if m.startswith(("generated_", "fixture_handlers"))]:
            del sys.modules[name]
