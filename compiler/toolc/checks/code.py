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
from collections.abc import Iterable
from typing import NamedTuple

from ..diagnostics import replacement
from ..model.errors import near_miss
from ..python_source import SourceIndex, source_index
from .facts import ProjectFacts, StepFinding
from .parsed import ParsedProject
from .references import code_references, is_code_reference
from .reporting import Reporter


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


class TargetProblem(NamedTuple):
    """Why a code reference is not there (TC340/TC341) or cannot be checked (TC342), and
    the reference with a near miss for the part that is not there (what a fix writes)."""

    code: str
    message: str
    instead: str | None = None


def _near(word: str, names: Iterable[str], ref: str, start: int) -> tuple[str, str | None]:
    close = near_miss(word, names)
    if close is None:
        return "", None
    return f"; did you mean '{close}'?", ref[:start] + close + ref[start + len(word):]


def target_problem(index: SourceIndex, ref: str) -> TargetProblem | None:
    """Why ``ref`` is not there, or cannot be checked; None when found."""
    module_name, _, attr = ref.partition(":")
    found = index.module(module_name)
    if found is None:
        hint, instead = _near(module_name, index.siblings(module_name), ref, 0)
        return TargetProblem("TC340", f"module '{module_name}' is not found on the "
                             f"python-path{hint}", instead)
    if isinstance(found, str):
        return TargetProblem("TC342", f"'{ref}' cannot be checked without importing it: "
                             f"{found}")
    body, where = found.body, f"module '{module_name}'"
    parts = attr.split(".")
    for depth, part in enumerate(parts):
        names, dynamic = _top_names(body)
        if part not in names:
            if index.module(f"{module_name}.{part}") is not None and depth == 0:
                return None  # a submodule of a package
            if dynamic or (depth > 0 and _inherits(found, parts[depth - 1])):
                return TargetProblem("TC342", f"'{ref}' cannot be checked without importing "
                                     f"it: {where} may provide '{part}' at run time")
            start = len(module_name) + 1 + sum(len(p) + 1 for p in parts[:depth])
            hint, instead = _near(part, names, ref, start)
            return TargetProblem("TC341", f"{where} has no attribute '{part}'{hint}", instead)
        if depth + 1 < len(parts):
            cls = _class(body, part)
            if cls is None:
                return TargetProblem("TC342", f"'{ref}' cannot be checked without importing "
                                     f"it: '{part}' of {where} is not a class defined there")
            body, where = cls.body, f"class '{part}'"
    return None


def _inherits(module: ast.Module, class_name: str) -> bool:
    """Whether a class of the module has bases other than ``object`` (an attribute may
    come from one of them)."""
    cls = _class(module.body, class_name)
    return cls is not None and any(not (isinstance(b, ast.Name) and b.id == "object")
                                   for b in cls.bases)


def look_up_code(project: ParsedProject) -> tuple[SourceIndex | None, tuple[StepFinding, ...]]:
    """Every code reference looked up (none without a ``python-path``): the index, which
    records what each spec looked up, and TC340/TC341/TC342 where a reference names
    nothing or cannot be checked."""
    if not project.python_path:
        return None, ()
    index = source_index(project.python_path, project.files.root)
    found: list[StepFinding] = []
    for parsed in project.modules:
        index.asking = parsed.path
        for what, owner, ref, span in code_references(parsed):
            if not is_code_reference(ref):
                continue  # TC303 said so
            problem = target_problem(index, ref)
            if problem is not None:
                fixes = () if problem.instead is None else replacement(span, ref, problem.instead)
                found.append(StepFinding(problem.code, f"{what} '{ref}' of {owner}: "
                                         f"{problem.message}", span, fixes=fixes))
    return index, tuple(found)


def check_code_targets(facts: ProjectFacts, report: Reporter) -> None:
    """TC340/TC341 (errors) and TC342 (warning): every code reference names something."""
    report.relay(facts.found)
