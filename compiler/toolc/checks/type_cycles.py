"""Cycles among named types.

A type that refers to itself through some structure (a property, an array's items) is
recursive: allowed, with a warning, and published through ``$defs``. A type that is only
an alias of itself (``A: {type: B}``, ``B: {type: A}``) has no structure at all: an error.
Each cycle is reported once, at the reference that closes it.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..diagnostics import Span
from ..graphs import on_cycles
from ..model.named import TypeDef
from .facts import ProjectFacts, SchemaRoot, TypeCycles
from .reporting import Reporter

Edges = dict[TypeDef, list[tuple[TypeDef, Span]]]


def _edges(type_roots: Mapping[TypeDef, SchemaRoot], aliases_only: bool) -> Edges:
    return {td: [(t, span) for t, span, alias in root.refs if alias or not aliases_only]
            for td, root in type_roots.items()}


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


def _names(cycle: tuple[TypeDef, ...]) -> str:
    return " -> ".join(td.name for td in [*cycle, cycle[0]])


def find_type_cycles(type_roots: Mapping[TypeDef, SchemaRoot]) -> TypeCycles:
    """The cycles of mere aliases, the recursive types, and each cycle's closing reference
    (from the named types the schema walk found each type using)."""
    alias_cycles = _closing_references(_edges(type_roots, aliases_only=True))
    alias_cycle_types = {td for _, cycle in alias_cycles for td in cycle}
    edges = _edges(type_roots, aliases_only=False)
    recursive = on_cycles(edges, lambda td: [target for target, _ in edges.get(td, ())])
    recursive_cycles = [(span, cycle) for span, cycle in _closing_references(edges)
                        if not all(td in alias_cycle_types for td in cycle)]
    return TypeCycles(tuple((span, tuple(cycle)) for span, cycle in alias_cycles),
                      tuple((span, tuple(cycle)) for span, cycle in recursive_cycles),
                      frozenset(alias_cycle_types), frozenset(recursive - alias_cycle_types))


def check_type_cycles(facts: ProjectFacts, report: Reporter) -> None:
    """TC208 for a cycle of mere aliases; TC206 (a warning) for a recursive type."""
    cycles = facts.type_cycles
    for span, cycle in cycles.alias_cycles:
        report("TC208", f"type '{cycle[-1].name}' is an alias of itself: {_names(cycle)}", span,
               notes=("a type needs some structure of its own (properties, items, ...)",))
    for span, cycle in cycles.recursive_cycles:
        report("TC206", f"type '{cycle[-1].name}' is recursive: {_names(cycle)}", span,
               notes=(("it is published through `$defs` and `$ref`, which some "
                      "clients handle poorly"),))
