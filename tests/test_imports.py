"""The package's import graph: no cycles, layers that data flows down through, and a
runtime (and adapters) that import nothing of the compiler.

Built from the source (ast). An edge is every import a module can run: at its top, in
``try`` and plain ``if`` blocks, and inside functions (which run later, and each says
why it is there: ``# lazy: ...``); a circle through a function-level import is a circle
all the same (the two modules cannot be understood, tested or moved one without the
other). Imports under ``if TYPE_CHECKING:`` run never: the cycle check leaves them out,
the layer checks do not (an annotation is a dependency too). Importing a module also
runs its packages' ``__init__``, so an edge goes to those too.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

from toolc.graphs import strongly_connected

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

# The layers, top first: a module imports from its own layer and the layers below it,
# never from one above. A name stands for that module or package and everything in it;
# a module is in the layer of the longest name that holds it. A module that no name
# holds fails `test_every_module_has_a_layer`: place it where it belongs.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("toolc.__main__", "toolc.cli"),  # the command line: options only
    ("toolc.commands",),  # what each command does
    ("toolc.serving", "toolc.importer", "toolc.lsp"),  # what serve, import and lsp add
    ("toolc.pipeline",),  # a build's stages in order
    ("toolc.reuse",),  # the reuse wing: what a build takes from the last one, above the stages
    ("toolc.specs", "toolc.frontend", "toolc.loader", "toolc.syntax_errors", "toolc.model", "toolc.checks",
     "toolc.resolve", "toolc.publish", "toolc.generate", "toolc.budget", "toolc.diff",
     "toolc.certify", "toolc.output", "toolc.report",
     "toolc.formatting"),  # the stages, and the formatter (it reads with the loader)
    ("toolc.config", "toolc.diagnostics", "toolc.suppressions", "toolc.ir", "toolc.graphs",
     "toolc.scalars", "toolc.schema_typing", "toolc.python_source", "toolc.collector",
     "toolc.file_events", "toolc.untrusted"),  # the records and tools every stage shares
    ("toolc.adapters",),  # a toolset inside an agent framework: the runtime alone below
    ("toolc.runtime",),  # its public names
    ("toolc.runtime._generated", "toolc.runtime.mcp", "toolc.runtime.mcp_server"),
    ("toolc.runtime.toolsets",),  # the toolset kinds and their contract
    ("toolc.runtime.context", "toolc.runtime.client", "toolc.runtime.elicitation",
     "toolc.runtime.definition", "toolc.runtime.deferred",
     "toolc.runtime.failures", "toolc.runtime.json_pointers", "toolc.runtime.metakeys",
     "toolc.runtime.pausing", "toolc.runtime.results", "toolc.runtime.tool",
     "toolc.runtime.validation", "toolc.runtime.validation_messages"),  # what every part of the runtime shares
)


def layer_of(module: str) -> int | None:
    """The index of ``module``'s layer in LAYERS (0 the top), or None."""
    best: tuple[int, int] | None = None  # (length of the name, layer)
    for index, names in enumerate(LAYERS):
        for name in names:
            if (module == name or module.startswith(name + ".")) and (
                    best is None or len(name) > best[0]):
                best = (len(name), index)
    return None if best is None else best[1]


def _under_type_checking(tree: ast.Module) -> set[int]:
    """The ids of the nodes that only a type checker runs."""
    hidden: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for statement in node.body:
                hidden.update(id(inner) for inner in ast.walk(statement))
    return hidden


def _imports(tree: ast.Module, *, typing: bool) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement, at any depth; those under TYPE_CHECKING only if asked."""
    hidden = set() if typing else _under_type_checking(tree)
    return [node for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in hidden]


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


@functools.cache
def tree_of(module: str) -> ast.Module:
    """``module``'s source parsed, once a session (several tests walk every module)."""
    return ast.parse(MODULES[module].read_text(encoding="utf-8"))


def imports_of(module: str, *, typing: bool = False) -> set[str]:
    """The toolc modules ``module`` imports directly, wherever the import stands (with
    ``typing``, also those under TYPE_CHECKING)."""
    tree = tree_of(module)
    targets: set[str] = set()
    for node in _imports(tree, typing=typing):
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


@functools.cache
def graph(*, typing: bool = False) -> dict[str, set[str]]:
    """Every module's imports (made once a session for each ``typing``: read, never changed)."""
    return {module: imports_of(module, typing=typing) for module in MODULES}


def circles(edges: dict[str, set[str]]) -> set[frozenset[str]]:
    """Every import circle, as the modules on it (two or more that reach each other)."""
    components = strongly_connected(sorted(edges), lambda m: sorted(edges.get(m, ())))
    return {frozenset(c) for c in components if len(c) > 1}


def test_the_import_graph_has_no_cycle() -> None:
    found = [" <-> ".join(sorted(c)) for c in circles(graph())]
    assert found == [], f"import circles: {found}"


def test_the_circle_finder_finds_a_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == {
        frozenset({"a", "b", "c"})}
    assert circles({"a": {"b"}, "b": set()}) == set()


def test_the_graph_sees_relative_package_and_function_level_imports() -> None:
    edges = graph()
    assert "toolc.output.plan" in edges["toolc.output.staging"]
    assert "toolc.diagnostics" in edges["toolc.config"]
    assert "toolc.runtime" in edges["toolc.adapters._common"]  # the package, not only the file
    # imported inside certify_build only (lazily): an edge all the same
    assert "toolc.runtime.mcp.pinned" in edges["toolc.certify.compare"]
    assert "toolc.runtime.deferred" not in edges["toolc.runtime.context"]  # TYPE_CHECKING
    assert "toolc.runtime.deferred" in graph(typing=True)["toolc.runtime.context"]


def test_every_module_has_a_layer() -> None:
    placed = [m for m in MODULES if m != "toolc"]  # the version: every module's parent
    assert [m for m in placed if layer_of(m) is None] == []


def test_nothing_imports_from_above_its_layer() -> None:
    """Data flows one way: the command line over the commands, over what serve and
    import add, over the build, over its stages, over the shared records; the adapters
    over the runtime, whose public names sit over its parts (stages never import what
    sits above them, so a stage can be run, read and tested without the rest)."""
    upward = []
    for module, targets in graph(typing=True).items():
        here = layer_of(module)
        for target in sorted(targets):
            there = layer_of(target)
            if here is not None and there is not None and there < here:
                upward.append(f"{module} -> {target}")
    assert upward == [], "imports from a layer above: " + ", ".join(upward)


def test_a_layer_name_holds_what_is_inside_it() -> None:
    assert layer_of("toolc.runtime.toolsets.wrapper") == layer_of("toolc.runtime.toolsets")
    assert layer_of("toolc.runtime") != layer_of("toolc.runtime.tool")
    assert layer_of("toolc.serving.run") == layer_of("toolc.importer") < layer_of("toolc.pipeline")
    assert layer_of("toolc.runtimes") is None


def _imports_beyond(prefixes: tuple[str, ...]) -> list[str]:
    """Every import of a module under the first prefix of something under none of them."""
    return [f"{module} -> {target}" for module, targets in graph(typing=True).items()
            if module.startswith(prefixes[0]) for target in sorted(targets)
            if not target.startswith(prefixes)]


def test_the_runtime_imports_nothing_of_the_compiler() -> None:
    """Generated modules and user code import the runtime alone; it must stand alone,
    at import time and in every function too."""
    assert _imports_beyond(("toolc.runtime",)) == []


def test_an_adapter_imports_the_runtime_alone() -> None:
    """An adapter hands a toolset to a framework at run time: it imports no stage of the
    compiler (not the certifier, not the config), only the runtime and its own kind."""
    assert _imports_beyond(("toolc.adapters", "toolc.runtime")) == []


def reuse_importers(edges: dict[str, set[str]]) -> list[str]:
    """``module -> import`` for each import of the reuse package by a module below it
    (a stage, or what the stages share)."""
    wing = layer_of("toolc.reuse")
    assert wing is not None
    return [f"{module} -> {name}" for module, names in sorted(edges.items())
            if (layer_of(module) or 0) > wing for name in sorted(names)
            if name == "toolc.reuse" or name.startswith("toolc.reuse.")]


def test_no_stage_imports_the_reuse_package() -> None:
    """The stages are handed what they reuse as plain data (``toolc.reuse.handed``): a
    stage can be read, run and tested without the caches, and they cannot weave back
    through it. Function-level and type-checking imports count too."""
    found = reuse_importers(graph(typing=True))
    assert found == [], f"stage modules importing toolc.reuse: {found}"


def test_the_reuse_rule_sees_every_kind_of_import() -> None:
    edges = graph(typing=True)
    assert "toolc.reuse.handed" in edges["toolc.pipeline"]  # at the top
    assert "toolc.certify.compare" in edges["toolc.pipeline"]  # inside a function
    assert "toolc.frontend" in edges["toolc.reuse.handed"]  # under TYPE_CHECKING
    pipeline, wing, load = (layer_of(m) or 0 for m in ("toolc.pipeline", "toolc.reuse",
                                                       "toolc.specs"))
    assert pipeline < wing < load  # the pipeline hands the stages what the wing found
    assert reuse_importers({"toolc.specs": {"toolc.reuse.memory"},
                            "toolc.certify.compare": {"toolc.reuse"},
                            "toolc.pipeline": {"toolc.reuse.last_build"},
                            "toolc.commands.watch": {"toolc.reuse.memory"},
                            "toolc.diagnostics": {"toolc.reusable"}}) == [
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
        for node in _function_imports(tree_of(module)):
            if not _says_why(lines, node.lineno):
                silent.append(f"{module}:{node.lineno}")
    assert not silent, f"function-level imports without a '# lazy:' comment: {silent}"
