"""The documentation site (mkdocs.yml, docs/) builds with `mkdocs build --strict`: no
broken link or anchor, no page outside the nav, no docstring griffe cannot read, and no
public name without a docstring; and the reference pages name every public name."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import toolc.runtime as rt
from docs_support import ROOT, directives

ADAPTERS = ["claude_agent_sdk", "langchain", "openai_agents", "pydantic_ai"]


def build(project: Path, site: Path) -> subprocess.CompletedProcess[str]:
    """`mkdocs build --strict` of `project`'s site into `site` (run from the project:
    the docstring check is a path from there)."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
         str(project / "mkdocs.yml"), "--site-dir", str(site)],
        cwd=project, capture_output=True, text=True, timeout=600, check=False)


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    run = build(ROOT, tmp_path / "site")
    assert run.returncode == 0, run.stderr
    for page in ["index.html", "python/index.html", "reference/design/index.html"]:
        assert (tmp_path / "site" / page).is_file(), page
    assert not (tmp_path / "site" / "hooks").exists()  # the build's own code is not a page


def copy_of_the_site(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "docs", project / "docs", ignore=ignore)
    shutil.copytree(ROOT / "compiler", project / "compiler", ignore=ignore)
    shutil.copy(ROOT / "mkdocs.yml", project / "mkdocs.yml")
    return project


# A public method and a runtime export, each with its docstring (found by its start)
# removed in a copy.
UNDOCUMENTED = [
    ("runtime/toolsets/function.py", "FunctionToolset.add_tool",
     '        """Add `tool` after the others.\n', "toolc.runtime.toolsets.function"),
    ("runtime/failures.py", "ToolError",
     '    """Raised by a handler to fail the call', "toolc.runtime.failures"),
]


def remove_docstring(project: Path, file: str, start_of_doc: str) -> None:
    source = project / "compiler" / "toolc" / file
    text = source.read_text(encoding="utf-8")
    start = text.index(start_of_doc)
    indent = start_of_doc[: len(start_of_doc) - len(start_of_doc.lstrip())]
    end = text.index('"""', start + len(indent) + 3) + 3
    # `pass` in its place: a class whose docstring was its whole body stays a class
    source.write_text(text[:start] + indent + "pass" + text[end:], encoding="utf-8")


def break_a_link(project: Path) -> None:
    page = project / "docs" / "reference" / "design.md"
    page.write_text(page.read_text(encoding="utf-8").replace(
        "(serving.md#the-approval-form)", "(serving.md#the-approval-from)"), encoding="utf-8")


@pytest.fixture(scope="module")
def defective_build(tmp_path_factory: pytest.TempPathFactory
                    ) -> subprocess.CompletedProcess[str]:
    """One strict build of a copy with every defect below: --strict reports each warning
    before it fails, so each rule's test reads its own warning from the one build."""
    tmp_path = tmp_path_factory.mktemp("defective-site")
    project = copy_of_the_site(tmp_path)
    for file, _, start_of_doc, _ in UNDOCUMENTED:
        remove_docstring(project, file, start_of_doc)
    break_a_link(project)
    return build(project, tmp_path / "site")


@pytest.mark.parametrize(("file", "name", "module"), [(f, n, m) for f, n, _, m in UNDOCUMENTED],
                         ids=[u[1] for u in UNDOCUMENTED])
def test_a_public_name_without_a_docstring_fails_the_build(
    defective_build: subprocess.CompletedProcess[str], file: str, name: str, module: str
) -> None:
    assert defective_build.returncode != 0
    line = f"{module}.{name} is public and has no docstring"
    assert re.search(rf"WARNING +- +griffe: compiler/toolc/{file}:\d+: {re.escape(line)}",
                     defective_build.stderr), defective_build.stderr


def test_a_broken_link_fails_the_build(defective_build: subprocess.CompletedProcess[str]
                                       ) -> None:
    assert defective_build.returncode != 0
    assert "'serving.md#the-approval-from'" in defective_build.stderr, defective_build.stderr


def test_every_public_name_is_on_a_reference_page() -> None:
    named = set(directives())
    missing = [name for name in rt.__all__ if f"toolc.runtime.{name}" not in named]
    missing += [m for m in ADAPTERS if f"toolc.adapters.{m}" not in named]
    assert not missing, f"not on any page of docs/reference: {missing}"
