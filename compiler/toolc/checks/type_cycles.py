"""Cycles among named types.

A type that refers to itself through some structure (a property, an array's items) is
recursive: allowed, with a warning, and published through ``$defs``. A type that is only
an alias of itself (``A: {type: B}``, ``B: {type: A}``) has no structure at all: an error.
Each cycle is reported once, at the reference that closes it.
"""

from __future__ import annotations

from ..diagnostics import Span
from ..graphs import on_cycles
from ..model.named import TypeDef
from .project import Project

Edges = dict[TypeDef, list[tuple[TypeDef, Span]]]


def _edges(project: Project, aliases_only: bool) -> Edges:
    return {td: [(t, span) for t, span, alias in root.refs if alias or not aliases_only]
            for td, root in project.type_roots.items()}


def _closing_references(edges: Edges) -> list[tuple[Span, list[TypeDef]]]:
    """(reference span, cycle members) for each reference that closes a cycle, by DFS."""
    found: list[tuple[Span, list[TypeDef]]] = []
    state: dict[TypeDef, int] = {}  # 1 on the path, 2 done
    for start in edges:
        if start in state:
            continue
        path: list[TypeDef] = [start]
        state[start] = 1
        todo = [iter(edges.get(start, ()))]
        while todo:
            step = next(todo[-1], None)
            if step is None:
                todo.pop()
                state[path.pop()] = 2
                continue
            target, span = step
            if state.get(target) == 1:
                found.append((span, path[path.index(target):]))
            elif target not in state:
                state[target] = 1
                path.append(target)
                todo.append(iter(edges.get(target, ())))
    return found


def _names(cycle: list[TypeDef]) -> str:
    return " -> ".join(td.name for td in [*cycle, cycle[0]])


def check_type_cycles(project: Project) -> None:
    """TC208 for a cycle of mere aliases; TC206 (a warning) for a recursive type."""
    alias_cycles = _closing_references(_edges(project, aliases_only=True))
    for span, cycle in alias_cycles:
        project.alias_cycle_types.update(cycle)
        project.report("TC208", f"type '{cycle[-1].name}' is an alias of itself: "
                       f"{_names(cycle)}", span,
                       notes=("a type needs some structure of its own (properties, items, ...)",))
    edges = _edges(project, aliases_only=False)
    recursive = on_cycles(edges, lambda td: [target for target, _ in edges.get(td, ())])
    project.recursive_types.update(recursive - project.alias_cycle_types)
    for span, cycle in _closing_references(edges):
        if all(td in project.alias_cycle_types for td in cycle):
            continue
        project.report("TC206", f"type '{cycle[-1].name}' is recursive: {_names(cycle)}", span,
                       notes=(("it is published through `$defs` and `$ref`, which some "
                              "clients handle poorly"),))
