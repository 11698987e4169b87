"""The package surface: what generated code imports, and what importing it costs."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import toolc.runtime as rt

RUNTIME = Path(rt.__file__).parent


def test_all_is_sorted_and_every_name_resolves() -> None:
    assert rt.__all__ == sorted(rt.__all__)
    for name in rt.__all__:
        assert getattr(rt, name) is not None, name


def test_importing_the_runtime_loads_neither_mcp_nor_the_compiler() -> None:
    probe = (
        "import json, sys, toolc.runtime as rt\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('mcp', 'mcp_types', 'anyio', 'jsonschema', 'asyncio') or "
        "(m.startswith('toolc.') and not m.startswith('toolc.runtime')))\n"
        "print(json.dumps(loaded))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []


def test_mcp_kinds_load_on_first_access() -> None:
    probe = (
        "import sys, toolc.runtime as rt\n"
        "rt.MCPToolset\n"
        "print('mcp' in sys.modules, 'toolc.runtime.mcp' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]  # the SDK itself waits for a connection


def test_the_runtime_never_imports_the_compiler() -> None:
    for path in RUNTIME.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                modules = [node.module]
            elif isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            else:
                continue
            for module in modules:
                if module.startswith("toolc"):
                    assert module.startswith("toolc.runtime"), f"{path.name} imports {module}"
