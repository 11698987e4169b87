"""toolc.graphs: components, cycles and reachability over any hashable nodes."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from toolc.graphs import on_cycles, reachable, strongly_connected


def _successors(edges: dict[str, list[str]]) -> Callable[[str], Iterable[str]]:
    def of(node: str) -> Iterable[str]:
        return edges.get(node, [])
    return of


def test_components_come_after_what_they_reach() -> None:
    edges = {"a": ["b"], "b": ["c", "a"], "c": ["d"], "d": ["c"], "e": []}
    groups = [sorted(g) for g in strongly_connected(edges, _successors(edges))]
    assert groups == [["c", "d"], ["a", "b"], ["e"]]


def test_only_nodes_on_a_cycle_or_a_self_loop_are_cyclic() -> None:
    edges = {"a": ["a"], "b": ["c"], "c": [], "d": ["e"], "e": ["d"]}
    assert on_cycles(edges, _successors(edges)) == {"a", "d", "e"}


def test_a_long_chain_does_not_meet_the_recursion_limit() -> None:
    edges = {str(i): [str(i + 1)] for i in range(20_000)}
    edges["20000"] = ["0"]
    groups = strongly_connected(edges, _successors(edges))
    assert len(groups) == 1 and len(groups[0]) == 20_001


def test_reachable_lists_each_node_once_in_depth_first_order() -> None:
    edges = {"a": ["b", "c"], "b": ["d"], "c": ["d", "a"], "d": []}
    assert reachable(["a"], _successors(edges)) == ["a", "b", "d", "c"]
    assert reachable(["x"], _successors(edges)) == ["x"]
