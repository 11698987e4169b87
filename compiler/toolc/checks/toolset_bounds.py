"""How deep toolsets nest, and how many tools one may publish: bounded before composing.

Toolsets refer to other toolsets (``inner``, a ``combined`` set's ``toolsets``, a
manager's ``servers``). A chain of 3,000 wrappers composed by recursion ended in a
RecursionError, and served in one at run time (each wrapper calls the next); sets that
each combine two prefixed copies of the one before double the tools at every level, so
24 levels made 16 million published names. So:

- depth (TC233): no toolset nests more than :data:`~toolc.loader.MAX_DEPTH` toolsets
  deep, the one nesting bound of the format (a set that refers to none is level 1);
  measured here without recursion, before composing (``steps.py``), which then never
  follows a set past the bound;
- breadth (TC234): no toolset publishes more than :data:`MAX_SET_TOOLS` tools; the
  composition finds it (:func:`too_many`) and goes on with the set unknown.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..loader import MAX_DEPTH
from ..model.parse import ParsedModule
from .facts import ProjectFacts, StepFinding, ToolsetKey
from .parsed import ParsedProject
from .reporting import Reporter

MAX_SET_TOOLS = 100_000

Node = tuple[ParsedModule, str]


def measure_toolset_depth(project: ParsedProject,
                          ) -> tuple[frozenset[ToolsetKey], tuple[StepFinding, ...]]:
    """The toolsets past the nesting bound, which composition leaves out, and TC233 at
    the first toolset past the bound on each too deep chain."""
    heights = _heights(project)
    deep: set[ToolsetKey] = set()
    found: list[StepFinding] = []
    for parsed in project.modules:
        toolsets = parsed.section("toolsets")
        for name in parsed.toolsets:
            height = heights.get((id(parsed), name), 0)
            if height <= MAX_DEPTH:
                continue
            deep.add((id(parsed), name))
            if height == MAX_DEPTH + 1:  # the deepest ones contain this one: it says it
                found.append(StepFinding(
                    "TC233", f"toolset '{name}' nests {height} toolsets deep; at most "
                    f"{MAX_DEPTH} are allowed", toolsets.key_spans.get(name),
                    notes=(("each `inner`, member of `toolsets` or server is one level "
                            "below the set that names it"),)))
    return frozenset(deep), tuple(found)


def check_toolset_depth(facts: ProjectFacts, report: Reporter) -> None:
    """TC233, as the measuring found it (before composing)."""
    report.relay(facts.found)


def _heights(project: ParsedProject) -> dict[ToolsetKey, int]:
    """Each toolset's nesting height, by an iterative depth-first walk (a cycle, TC401,
    counts its closing reference as nothing)."""
    heights: dict[ToolsetKey, int] = {}
    for parsed in project.modules:
        for name in parsed.toolsets:
            if (id(parsed), name) in heights:
                continue
            on_path = {(id(parsed), name)}
            stack: list[tuple[Node, Iterator[Node]]] = [((parsed, name),
                                                         _refs(project, parsed, name))]
            while stack:
                node, todo = stack[-1]
                child = next(todo, None)
                if child is None:
                    stack.pop()
                    key = (id(node[0]), node[1])
                    on_path.discard(key)
                    below = [heights.get((id(m), n), 0) for m, n in _refs(project, *node)
                             if (id(m), n) not in on_path]
                    heights[key] = 1 + max(below, default=0)
                    continue
                key = (id(child[0]), child[1])
                if key not in heights and key not in on_path:
                    on_path.add(key)
                    stack.append((child, _refs(project, *child)))
    return heights


def _refs(project: ParsedProject, parsed: ParsedModule, name: str) -> Iterator[Node]:
    """The toolsets that ``name`` of ``parsed`` refers to (as far as they exist)."""
    ts = parsed.toolsets.get(name)
    if ts is None:
        return
    refs: list[str] = []
    inner = getattr(ts, "inner", None)
    if isinstance(inner, str):
        refs.append(inner)
    members = getattr(ts, "toolsets", None)
    if isinstance(members, list):
        refs.extend(m for m in members if isinstance(m, str))
    servers = getattr(ts, "servers", None)
    if isinstance(servers, dict):
        refs.extend(s for s in servers.values() if isinstance(s, str))
    for ref in refs:
        found = project.find_toolset(parsed, ref)
        if found is not None and found[1] in found[0].toolsets:
            yield found


def too_many(parsed: ParsedModule, name: str, count: int) -> StepFinding:
    """TC234 for a set whose composition came to ``count`` tools."""
    span = parsed.section("toolsets").key_spans.get(name)
    return StepFinding("TC234", f"toolset '{name}' would publish {count:,} tools; at most "
                       f"{MAX_SET_TOOLS:,} are allowed", span,
                       notes=(("`combined` sets of `prefixed` or `renamed` copies multiply "
                               "the tools at every level"),))
