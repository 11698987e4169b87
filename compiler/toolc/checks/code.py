"""TC340-TC342: handler, predicate, prepare and wrapper references, found without running them.

A typo in ``handler: support_desk.tools:asign_ticket`` used to pass validation, build and
certification and fail at the first call. Each reference ``package.module:attr.path`` is
now looked up where ``toolc serve`` would import it from: the project's ``python-path``,
then the interpreter's own path (installed packages). The module's source is found and
parsed (``ast``), and the attribute looked for among its top-level names, or in the body
of the class a dotted attribute names. Nothing is imported, nothing executed: a spec from
a pull request cannot make the build run code.

Only projects that configure ``python-path`` are checked (without it, toolc does not know
where handlers live). What cannot be decided statically (a compiled extension, a name a
``from x import *`` or a module ``__getattr__`` may provide, an attribute of an instance or
of an inherited class) is a warning that says so; signatures stay mypy's job.
"""

from __future__ import annotations

import ast

from ..model.errors import did_you_mean
from ..python_source import SourceIndex, source_index
from .project import Project
from .references import code_references, is_code_reference


def _top_names(body: list[ast.stmt]) -> tuple[set[str], bool]:
    """Names a module or class body binds, and whether others may come dynamically."""
    names: set[str] = set()
    dynamic = False
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
            dynamic = dynamic or node.name == "__getattr__"
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign | ast.AugAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                if alias.name == "*":
                    dynamic = True
                else:
                    names.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.If | ast.Try | ast.With):
            inner = [*getattr(node, "body", []), *getattr(node, "orelse", []),
                     *getattr(node, "finalbody", []),
                     *(s for h in getattr(node, "handlers", []) for s in h.body)]
            more, more_dynamic = _top_names(inner)
            names |= more
            dynamic = dynamic or more_dynamic
    return names, dynamic


def _class(body: list[ast.stmt], name: str) -> ast.ClassDef | None:
    for node in body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return node
    return None


def target_problem(index: SourceIndex, ref: str) -> tuple[str, str] | None:
    """(code, message) when ``ref`` is not there (TC340/TC341) or cannot be checked
    (TC342); None when found."""
    module_name, _, attr = ref.partition(":")
    found = index.module(module_name)
    if found is None:
        return "TC340", (f"module '{module_name}' is not found on the python-path"
                         f"{did_you_mean(module_name, index.siblings(module_name))}")
    if isinstance(found, str):
        return "TC342", f"'{ref}' cannot be checked without importing it: {found}"
    body, where = found.body, f"module '{module_name}'"
    parts = attr.split(".")
    for depth, part in enumerate(parts):
        names, dynamic = _top_names(body)
        if part not in names:
            if index.module(f"{module_name}.{part}") is not None and depth == 0:
                return None  # a submodule of a package
            if dynamic or (depth > 0 and _inherits(found, parts[depth - 1])):
                return "TC342", (f"'{ref}' cannot be checked without importing it: {where} "
                                 f"may provide '{part}' at run time")
            return "TC341", f"{where} has no attribute '{part}'{did_you_mean(part, names)}"
        if depth + 1 < len(parts):
            cls = _class(body, part)
            if cls is None:
                return "TC342", (f"'{ref}' cannot be checked without importing it: "
                                 f"'{part}' of {where} is not a class defined there")
            body, where = cls.body, f"class '{part}'"
    return None


def _inherits(module: ast.Module, class_name: str) -> bool:
    """Whether a class of the module has bases other than ``object`` (an attribute may
    come from one of them)."""
    cls = _class(module.body, class_name)
    return cls is not None and any(not (isinstance(b, ast.Name) and b.id == "object")
                                   for b in cls.bases)


def check_code_targets(project: Project) -> None:
    """TC340/TC341 (errors) and TC342 (warning): every code reference names something."""
    if not project.python_path:
        return
    index = project.code_index = source_index(project.python_path, project.files.root)
    for parsed in project.modules:
        index.asking = parsed.path
        for what, owner, ref, span in code_references(parsed):
            if not is_code_reference(ref):
                continue  # TC303 said so
            problem = target_problem(index, ref)
            if problem is not None:
                code, message = problem
                project.report(code, f"{what} '{ref}' of {owner}: {message}", span)
