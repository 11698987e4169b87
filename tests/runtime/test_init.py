"""The package surface: what generated code imports, and what importing it costs."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import toolc.runtime as rt
from toolc.runtime import _generated as rtg

RUNTIME = Path(rt.__file__).parent

# Every public name, decided one by one: what user code writes against. A name added to
# `toolc.runtime` without a decision fails here; a name only generated modules use
# belongs in `toolc.runtime._generated` instead.
PUBLIC = [
    # toolset kinds and the contract
    "AbstractToolset", "ApprovalRequiredToolset", "CombinedToolset", "DelegatingToolset",
    "ExternalTool", "ExternalToolset", "FilteredToolset", "FunctionToolset",
    "PrefixedToolset", "PreparedToolset", "RenamedToolset", "WrapperToolset", "CallNext",
    "lazy_wrapper", "Tool", "LazyRef", "ToolDefinition",
    # one turn of a conversation, and what a call returns
    "RunContext", "ToolResult", "ContentBlock", "TextContent", "ImageContent",
    "AudioContent", "EmbeddedResource", "ResourceLink",
    # whoever made the call, as a handler asks it (progress, logs, a form, sampling)
    "CallClient", "ClientUnavailable", "Elicited", "Sampled", "InvalidAnswer",
    # errors
    "ToolError", "ToolsetError", "LazyRefError",
    # approvals and deferred calls
    "ApprovalRequiredError", "Approved", "Denied", "DeferredCallError",
    "DeferredToolRequest", "ExternalCallRequired", "PausedResult",
    # serving (approval states shared by replicas) and the MCP kinds
    "to_mcp_server", "ApprovalStates", "MemoryNonces", "MCPToolset", "MCPManager", "MCPServerError", "StdioServer", "HttpServer",
]
GENERATED_ONLY = ["ClassRecorder", "LazyModule"]


def test_all_is_sorted_and_every_name_resolves() -> None:
    assert rt.__all__ == sorted(rt.__all__)
    for name in rt.__all__:
        assert getattr(rt, name) is not None, name


def test_the_public_names_are_the_decided_ones() -> None:
    assert sorted(rt.__all__) == sorted(PUBLIC)
    # what `import toolc.runtime` binds besides its submodules and its own imports
    bound = {name for name, value in vars(rt).items()
             if not name.startswith("_") and not isinstance(value, ModuleType)}
    undecided = bound - set(PUBLIC) - {"annotations", "TYPE_CHECKING", "Any"}
    assert undecided == set(), "public without a decision: add to PUBLIC or make private"


def test_what_only_generated_modules_use_is_private() -> None:
    assert rtg.__all__ == sorted(GENERATED_ONLY)
    for name in GENERATED_ONLY:
        assert getattr(rtg, name) is not None, name
        assert not hasattr(rt, name), f"{name} is for generated modules only"


def test_generated_modules_use_only_public_and_generated_names() -> None:
    root = RUNTIME.parents[2]
    for path in [*root.glob("generated/*.py"), *root.glob("tests/fixtures/valid/*/expected/*.py")]:
        text = path.read_text(encoding="utf-8")
        used = set(re.findall(r"\brt\.([A-Za-z_]+)", text))
        assert used <= set(PUBLIC), f"{path.name} uses {sorted(used - set(PUBLIC))}"
        assert set(re.findall(r"\brtg\.([A-Za-z_]+)", text)) <= set(GENERATED_ONLY), path.name


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
        "print('mcp' in sys.modules, 'toolc.runtime.mcp.toolset' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]  # the SDK itself waits for a connection


def test_the_runtime_never_imports_the_compiler() -> None:
    for path in RUNTIME.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                modules = [node.module]
            elif isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            else:
                continue
            for module in modules:
                if module.startswith("toolc"):
                    assert module.startswith("toolc.runtime"), f"{path.relative_to(RUNTIME)} imports {module}"
