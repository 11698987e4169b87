"""Importing a generated module of 1,000 tools is cheap (issue 6), shown by what it does.

The time itself (at most 100 ms) is a benchmark figure (bench/import_time.py); here the
reasons it is cheap are checked, since they hold on any machine however busy: in a fresh
interpreter where the runtime (``toolc.runtime``, its ``_generated`` support, and
pydantic) is already imported, importing the module builds no pydantic class, imports no
other module (not the handlers, not the mcp SDK, not jsonschema), and even listing its
1,000 tools builds no class. The module is
compiled to bytecode first, as an installed or once-imported module is. The budget check
proper runs with the ``perf`` marker (`pytest -m perf`, run by .ci/run).
"""

from __future__ import annotations

import json
import os
import py_compile
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from generate_support import synthetic_project
from toolc.generate import generate_project

TOOLS = 1000
BUDGET_MS = 100.0

_PROBE = """
import json, sys, time
import toolc.runtime as rt
import toolc.runtime._generated
from pydantic import BaseModel
classes = len(BaseModel.__subclasses__())
before = set(sys.modules)
start = time.perf_counter()
import synthetic.big as big
imported = time.perf_counter()
new_modules = sorted(set(sys.modules) - before)
classes_at_import = len(BaseModel.__subclasses__()) - classes
import anyio
tools = anyio.run(big.toolset.list_tools, rt.RunContext.empty())
print(json.dumps({
    "import_ms": 1000 * (imported - start), "new_modules": new_modules,
    "classes_at_import": classes_at_import, "tools": len(tools),
    "classes_after_listing": len(BaseModel.__subclasses__()) - classes,
    "user_code": "big_app" in sys.modules,
}))
"""


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    files = generate_project(synthetic_project(TOOLS))
    package = tmp_path_factory.mktemp("import_time") / "synthetic"
    package.mkdir()
    for rel, text in files.items():
        (package / rel).write_text(text, encoding="utf-8")
        py_compile.compile(str(package / rel), doraise=True)
    return package.parent


def _probe(root: Path) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True,
                          env=env, check=True, timeout=300)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_importing_1000_tools_builds_no_class_and_imports_nothing_else(compiled: Path) -> None:
    probe = _probe(compiled)
    assert probe["classes_at_import"] == 0
    assert [m for m in probe["new_modules"] if m.split(".")[0] != "synthetic"] == []
    assert probe["tools"] == TOOLS
    assert probe["classes_after_listing"] == 0 and not probe["user_code"]


@pytest.mark.perf
def test_a_module_of_1000_tools_imports_within_budget(compiled: Path) -> None:
    runs = [_probe(compiled)["import_ms"] for _ in range(3)]
    assert min(runs) < BUDGET_MS, f"import took {runs} ms, budget {BUDGET_MS} ms"
