"""Go to definition, find references and rename, over the index of every spec.

A named type, a toolset or a tool under the cursor (where it is defined or used, in any
module) leads to its definition and its uses; a code reference (``handler``,
``predicate``, ``prepare``, ``wrapper``) to the function or class in its Python file,
found as the handler check finds it: on the ``python-path``, parsed, never imported
(:mod:`toolc.python_source`). A rename edits the definition and every use, in every
spec, the name only (``geometry.Point`` keeps its module).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..config import Config
from ..diagnostics import Span
from ..model.keywords import JSON_TYPES
from ..python_source import source_index
from .index import TOOL, CodeRef, Index, Occurrence, Symbol

_TOOL_NAME = re.compile(r"[A-Za-z0-9._-]{1,128}")  # MCP's rule (TC301)
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")  # types and toolsets (TC311)


@dataclass(frozen=True, slots=True)
class Place:
    """A place in a file: a spec's span, or a line and column of a Python file."""

    path: Path
    span: Span


def under(index: Index, shown: str, line: int, col: int) -> Occurrence | CodeRef | None:
    found = index.files.get(shown)
    return found.at(line, col) if found is not None else None


def definition(index: Index, item: Occurrence | CodeRef, config: Config,
               path_of: Callable[[str], Path]) -> Place | None:
    """Where the name under the cursor is defined."""
    if isinstance(item, CodeRef):
        return code_place(config, item.ref)
    found = index.definition(item.symbol)
    return None if found is None else Place(path_of(found.span.path), found.span)


def references(index: Index, symbol: Symbol, *, declaration: bool) -> list[Occurrence]:
    return [o for o in index.occurrences(symbol) if declaration or not o.definition]


def rename_problem(symbol: Symbol, new: str) -> str | None:
    """Why ``new`` cannot name ``symbol``, or None."""
    if symbol.kind == TOOL:
        ok = _TOOL_NAME.fullmatch(new) is not None
        rule = "a tool name matches ^[A-Za-z0-9._-]{1,128}$"
    else:
        ok = _IDENTIFIER.fullmatch(new) is not None and new.isascii() and new not in JSON_TYPES
        rule = f"a {symbol.kind} name is an ASCII identifier, not a JSON type's name"
    return None if ok else f"'{new}' cannot be the new name: {rule}"


def renames(index: Index, symbol: Symbol) -> list[Span]:
    """Every place ``symbol``'s name is written (the definition and each use)."""
    return sorted((o.span for o in index.occurrences(symbol)),
                  key=lambda s: (s.path, s.line, s.col))


def code_place(config: Config, ref: str) -> Place | None:
    """The function, class or name ``package.module:attr.path`` names, in its source."""
    module_name, _, attr = ref.partition(":")
    finder = source_index(config.python_path, config.root.resolve())
    path = finder.locate(module_name)
    tree = finder.module(module_name)
    if not isinstance(path, Path) or not isinstance(tree, ast.Module):
        return None
    body: list[ast.stmt] = tree.body
    node: ast.stmt | None = None
    for part in attr.split("."):
        node = _named(body, part)
        if node is None:
            return Place(path, Span(str(path), 1, 1, 0)) if body is tree.body else None
        body = node.body if isinstance(node, ast.ClassDef) else []
    if node is None:
        return None
    name = getattr(node, "name", "")
    col = node.col_offset + 1
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        line_text = _line(path, node.lineno)
        found = line_text.find(name, node.col_offset)
        col = found + 1 if found >= 0 else col
    return Place(path, Span(str(path), node.lineno, col, len(name)))


def _named(body: list[ast.stmt], name: str) -> ast.stmt | None:
    """The last statement of ``body`` that binds ``name`` (def, class, assignment)."""
    found: ast.stmt | None = None
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name == name:
                found = node
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                found = node
    return found


def _line(path: Path, number: int) -> str:
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return ""
    return lines[number - 1] if 0 < number <= len(lines) else ""


__all__ = ["Place", "code_place", "definition", "references", "rename_problem", "renames",
           "under"]
