"""What the documentation site's tests share: its pages, the `python` examples on them
and in the docstrings they render, and the public objects those pages document (read
with griffe, as mkdocstrings reads them)."""

from __future__ import annotations

import importlib.util
import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
REFERENCE = DOCS / "reference"
HOOK = DOCS / "hooks" / "required_docstrings.py"

PYTHON_BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)
DIRECTIVE = re.compile(r"^::: (\S+)$", re.MULTILINE)
# A block indented under a blank line: Markdown shows it as code, and no test would run it.
INDENTED_CODE = re.compile(r"\n\n(    \S.*)")


def generated_copy(project: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """For a fixture: `project` holds a copy of the repository's generated/, is the
    current folder and on the path (examples/ too), and `generated` modules imported in
    the test are that copy's, forgotten afterwards."""
    shutil.copytree(ROOT / "generated", project / "generated")
    monkeypatch.chdir(project)
    for variable in ("WORKBENCH_WORKSPACE", "WORKBENCH_LOG"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.syspath_prepend(str(ROOT / "examples"))
    monkeypatch.syspath_prepend(str(project))
    for name in [m for m in sys.modules if m == "generated" or m.startswith("generated.")]:
        monkeypatch.delitem(sys.modules, name)  # the copy here is imported, then forgotten
    before = set(sys.modules)
    yield project
    for name in set(sys.modules) - before:
        if name == "generated" or name.startswith("generated."):
            del sys.modules[name]


def reference_pages() -> list[Path]:
    return sorted(REFERENCE.glob("*.md"))


def python_blocks(text: str) -> list[str]:
    return PYTHON_BLOCK.findall(text)


def directives() -> list[str]:
    """Every `::: identifier` of the reference pages, in page order."""
    return [name for page in reference_pages()
            for name in DIRECTIVE.findall(page.read_text(encoding="utf-8"))]


def hook() -> ModuleType:
    """The site's docstring check (docs/hooks), which says what the public surface is."""
    spec = importlib.util.spec_from_file_location("required_docstrings", HOOK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def documented_objects() -> list[Any]:
    """The objects the pages render: each directive's object and, recursively, the
    public members it defines (what mkdocstrings shows of it)."""
    # lazy: griffe is the docs extra's; only these tests read the package with it
    import griffe

    loader = griffe.GriffeLoader(search_paths=[str(ROOT / "compiler")],
                                 docstring_parser=griffe.Parser.google)
    package = loader.load("toolc")
    found: dict[str, Any] = {}

    def walk(obj: Any) -> None:
        if obj.path in found:
            return
        found[obj.path] = obj
        if isinstance(obj, griffe.Class | griffe.Module):
            for name, member in obj.members.items():
                # (a package's submodules are pages of their own, or not rendered)
                if not member.is_alias and not name.startswith("_") and member.is_public \
                        and not isinstance(member, griffe.Module):
                    walk(member)

    for name in directives():
        obj = package[name.removeprefix("toolc.")]
        walk(obj.final_target if obj.is_alias else obj)
    return list(found.values())
