"""The package's import graph: no cycles, and the runtime never imports the compiler.

Built from the source (ast), from the imports a module runs when it is imported: its
top-level statements, not those inside functions (which run later, and each says why
it is there: ``# lazy: ...``) nor those under ``if TYPE_CHECKING:``. Importing a module
also runs its packages' ``__init__``, so an edge goes to those too.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "compiler" / "toolc"


def module_files() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = ["toolc", *path.relative_to(PACKAGE).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = module_files()


def _top_level(body: list[ast.stmt]) -> list[ast.Import | ast.ImportFrom]:
    """Imports run at import time: at the top, in ``try`` and plain ``if`` blocks."""
    found: list[ast.Import | ast.ImportFrom] = []
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.If):
            if "TYPE_CHECKING" not in ast.unparse(node.test):
                found += _top_level(node.body) + _top_level(node.orelse)
            else:
                found += _top_level(node.orelse)
        elif isinstance(node, ast.Try):
            found += _top_level(node.body)
            for handler in node.handlers:
                found += _top_level(handler.body)
            found += _top_level(node.orelse) + _top_level(node.finalbody)
    return found


def _absolute(module: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


def _with_packages(target: str) -> set[str]:
    """``target`` and every package above it (their ``__init__`` runs first)."""
    parts = target.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts) + 1)} & MODULES.keys()


def imports_of(module: str) -> set[str]:
    """The toolc modules that importing ``module`` imports directly."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    targets: set[str] = set()
    for node in _top_level(tree.body):
        if isinstance(node, ast.Import):
            for alias in node.names:
                targets |= _with_packages(alias.name)
            continue
        base = _absolute(module, node)
        targets |= _with_packages(base)
        for alias in node.names:  # `from package import module`
            targets |= _with_packages(f"{base}.{alias.name}")
    ancestors = _with_packages(module)  # already running when ``module`` is imported
    return {t for t in targets if t not in ancestors}


def graph() -> dict[str, set[str]]:
    return {module: imports_of(module) for module in MODULES}


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import cycle, as the modules on it, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state and (found := visit(start)):
            return found
    return None


def test_the_import_graph_has_no_cycle() -> None:
    found = cycle(graph())
    assert found is None, "import cycle: " + " -> ".join(found or ())


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None


def test_the_graph_sees_relative_and_package_imports() -> None:
    edges = graph()
    assert "toolc.output.plan" in edges["toolc.output.staging"]
    assert "toolc.diagnostics" in edges["toolc.config"]
    assert "toolc.runtime" in edges["toolc.adapters._common"]  # the package, not only the file


def test_the_runtime_imports_nothing_of_the_compiler() -> None:
    """Generated modules and user code import the runtime alone; it must stand alone,
    at import time and in every function too."""
    for module, path in MODULES.items():
        if not module.startswith("toolc.runtime"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                target = _absolute(module, node)
            elif isinstance(node, ast.Import):
                target = " ".join(a.name for a in node.names)
            else:
                continue
            for name in target.split():
                assert not name.startswith("toolc.") or name.startswith("toolc.runtime"), (
                    f"{module} imports {name}")


# What sits above the stages, and so may use the reuse wing: the pipeline, which hands the
# stages what they reuse, and what runs a build (the commands and what they run).
ABOVE_THE_STAGES = ("toolc.reuse", "toolc.pipeline", "toolc.commands", "toolc.cli",
                    "toolc.__main__", "toolc.serving", "toolc.importer", "toolc.lsp")


def every_import(module: str) -> set[str]:
    """Every toolc module or package ``module`` imports from: at the top, inside a
    function, under TYPE_CHECKING (an annotation is a dependency too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(MODULES[module].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, node)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found & MODULES.keys()  # modules and packages (a name imported from one: not)


def reuse_importers(modules: dict[str, set[str]]) -> list[str]:
    """``module -> import`` for each import of the reuse package by a module below it."""
    return [f"{module} -> {name}" for module, names in sorted(modules.items())
            if not module.startswith(ABOVE_THE_STAGES) for name in sorted(names)
            if name == "toolc.reuse" or name.startswith("toolc.reuse.")]


def test_no_stage_imports_the_reuse_package() -> None:
    """The stages are handed what they reuse as plain data (``toolc.reuse.handed``): a
    stage can be read, run and tested without the caches, and they cannot weave back
    through it. Function-level and type-checking imports count too."""
    found = reuse_importers({module: every_import(module) for module in MODULES})
    assert found == [], f"stage modules importing toolc.reuse: {found}"


def test_the_reuse_rule_sees_every_kind_of_import() -> None:
    edges = {module: every_import(module) for module in MODULES}
    assert "toolc.reuse.handed" in edges["toolc.pipeline"]  # at the top
    assert "toolc.certify.compare" in edges["toolc.pipeline"]  # inside a function
    assert "toolc.frontend" in edges["toolc.reuse.handed"]  # under TYPE_CHECKING
    assert reuse_importers({"toolc.specs": {"toolc.reuse.memory"},
                            "toolc.certify.compare": {"toolc.reuse"},
                            "toolc.pipeline": {"toolc.reuse.last_build"},
                            "toolc.reusable": {"toolc.reuser"}}) == [
        "toolc.certify.compare -> toolc.reuse", "toolc.specs -> toolc.reuse.memory"]


def _function_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    found: dict[int, ast.Import | ast.ImportFrom] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import | ast.ImportFrom):
                    found[id(inner)] = inner
    return list(found.values())


def _says_why(lines: list[str], lineno: int) -> bool:
    """A ``# lazy: ...`` comment heads the block of imports the line is in."""
    for line in reversed(lines[: lineno - 1]):
        text = line.strip()
        if text.startswith("# lazy:"):
            return True
        if not (text.startswith(("import ", "from ", ")", "#")) or text.endswith(",")):
            return False
    return False


def test_every_import_inside_a_function_says_why() -> None:
    """Imports run at first call only where that keeps start-up cheap (the mcp SDK,
    jinja2, pydantic, ...), and each says so; one that costs nothing belongs at the top."""
    silent = []
    for module, path in MODULES.items():
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        for node in _function_imports(ast.parse(text)):
            if not _says_why(lines, node.lineno):
                silent.append(f"{module}:{node.lineno}")
    assert not silent, f"function-level imports without a '# lazy:' comment: {silent}"
