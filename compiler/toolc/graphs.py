"""Graph helpers shared by the stages: strongly connected components and reachability.

Graphs are given as their nodes and a function from a node to its successors (the
things it refers to), so each caller keeps its own representation (named types and
their references, generated definitions and their local needs, modules and what they
import). Both walks are iterative: a project of thousands of types must not meet
Python's recursion limit.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

N = TypeVar("N", bound=Hashable)


def strongly_connected(nodes: Iterable[N], successors: Callable[[N], Iterable[N]]
                       ) -> list[list[N]]:
    """Tarjan's strongly connected components, each after every component it reaches
    (with edges pointing at dependencies: dependencies first). Nodes are visited in the
    order given, and their successors in the order ``successors`` gives them, so the
    result is deterministic; members of a component come in the order Tarjan pops them.
    Successors outside ``nodes`` are visited too."""
    index: dict[N, int] = {}
    low: dict[N, int] = {}
    stack: list[N] = []
    on_stack: set[N] = set()
    out: list[list[N]] = []

    def enter(node: N) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)

    for start in nodes:
        if start in index:
            continue
        enter(start)
        work = [(start, iter(successors(start)))]
        while work:
            node, pending = work[-1]
            for target in pending:
                if target not in index:  # descend; this node's walk resumes after it
                    enter(target)
                    work.append((target, iter(successors(target))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:  # every successor seen: the node is done
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    out.append(_pop_component(stack, on_stack, node))
    return out


def on_cycles(nodes: Iterable[N], successors: Callable[[N], Iterable[N]]) -> set[N]:
    """Every node that lies on some cycle: in a component of two or more, or one that
    is its own successor."""
    cyclic: set[N] = set()
    for component in strongly_connected(nodes, successors):
        if len(component) > 1 or component[0] in successors(component[0]):
            cyclic.update(component)
    return cyclic


def reachable(roots: Iterable[N], successors: Callable[[N], Iterable[N]]) -> list[N]:
    """The roots and everything they reach, each once, in the order first met
    (depth first, successors in their given order)."""
    seen: set[N] = set()
    order: list[N] = []
    todo = list(roots)[::-1]
    while todo:
        node = todo.pop()
        if node in seen:
            continue
        seen.add(node)
        order.append(node)
        todo.extend(reversed([s for s in successors(node) if s not in seen]))
    return order


def _pop_component(stack: list[N], on_stack: set[N], root: N) -> list[N]:
    members: list[N] = []
    while True:
        member = stack.pop()
        on_stack.discard(member)
        members.append(member)
        if member == root:
            return members
