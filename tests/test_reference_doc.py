"""The reference pages' examples run: each page's `python` blocks in order, in one
namespace, and every `python` block of a docstring the pages render; from a project
holding a copy of the repository's generated/ (examples/ on the path)."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from docs_support import (
    INDENTED_CODE,
    ROOT,
    documented_objects,
    generated_copy,
    python_blocks,
    reference_pages,
)
from project_support import pyproject

PAGES = reference_pages()


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A project of the bundled modules: `toolc serve workbench` works from it."""
    (tmp_path / "pyproject.toml").write_text(
        pyproject(output="generated", python_path=[str(ROOT / "examples")]), encoding="utf-8")
    yield from generated_copy(tmp_path, monkeypatch)


def run_blocks(blocks: list[str], where: str, monkeypatch: pytest.MonkeyPatch) -> None:
    page = types.ModuleType(f"reference_{len(where)}")  # a real module: dataclasses need one
    monkeypatch.setitem(sys.modules, page.__name__, page)
    for number, text in enumerate(blocks, 1):
        code = compile(text, f"{where} block {number}", "exec", dont_inherit=True)
        exec(code, page.__dict__)  # noqa: S102  # the docs are this repository's own text


def test_every_page_has_examples() -> None:
    assert PAGES, "no reference pages"
    without = [p.name for p in PAGES if p.name != "index.md" and not python_blocks(
        p.read_text(encoding="utf-8")) and p.name != "adapters.md"]
    assert not without, f"reference pages without a python example: {without}"


@pytest.mark.parametrize("page", PAGES, ids=[p.stem for p in PAGES])
def test_every_python_block_of_a_page_runs(
    page: Path, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_blocks(python_blocks(page.read_text(encoding="utf-8")), f"docs/reference/{page.name}",
               monkeypatch)


@pytest.fixture(scope="module")
def documented() -> list[Any]:
    """The rendered objects that have a docstring (griffe reads the package: a second)."""
    return [obj for obj in documented_objects() if obj.docstring is not None]


def test_every_python_block_of_a_docstring_runs(
    documented: list[Any], project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = []
    for obj in documented:
        blocks = python_blocks(obj.docstring.value)
        if blocks:
            run_blocks(blocks, obj.path, monkeypatch)
            ran.append(obj.path)
    assert set(ran) >= {"toolc.adapters.pydantic_ai", "toolc.adapters.openai_agents",
                        "toolc.adapters.langchain", "toolc.adapters.claude_agent_sdk"}


def test_no_docstring_shows_code_that_no_test_runs(documented: list[Any]) -> None:
    """Code indented under a blank line is shown as a code block: an example that would
    not run. Examples are fenced `python` blocks, which the test above runs."""
    indented = {obj.path: m[1] for obj in documented
                if (m := INDENTED_CODE.search(obj.docstring.value))}
    assert not indented, indented
