"""How deep and how large each tool is once published: bounded before anything is written.

Named types are written out in place where they are used, so a spec whose every file
is shallow and small can still publish a tool nested thousands of levels deep (a chain
of types, each one level), or of 2^40 nodes (each type using the next twice). Past
some depth the generated module no longer parses (Python allows 200 nested brackets,
and a level of array nesting takes two), and writing the schema out recurses past
Python's stack. So every schema document is measured here, before any later stage
writes it out:

- depth (TC230): at most :data:`MAX_DEPTH` levels, the loader's own bound on a spec
  file's nesting, counted in the published JSON from the tool itself (level 1; its
  ``inputSchema`` is level 2), where a named type written out in place counts one
  level more and ``nullable`` two (the ``anyOf`` list and its branch);
- size (TC231): at most :data:`MAX_PUBLISHED_NODES` nodes per document, counted as
  published (every use of a type written out again).

Heights and sizes are memoised per spec node, so the work is linear in the spec; a
height is computed only as far as the bound (``budget``), so the recursion stays within
``MAX_DEPTH`` frames however long a chain of types is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Span
from ..loader import MAX_DEPTH, YList, YMap
from ..model.keywords import JSON_TYPES
from ..model.named import TypeDef
from .facts import ProjectFacts, SchemaRoot, StepFinding
from .parsed import ParsedProject
from .reporting import Reporter

MAX_PUBLISHED_NODES = 100_000
# All the tools of the project together: a type just under the bound, used by a
# thousand tools, would otherwise publish 10^8 nodes from a spec of a few hundred lines.
MAX_PROJECT_NODES = 5_000_000
_PUBLISHED = frozenset({"params", "returns", "external", "pinned", "pinned_output"})

# The level at which each kind of document stands in its tool's published JSON.
_LEVEL = {"params": 3, "returns": 2, "external": 2, "pinned": 2, "pinned_output": 2,
          "type": 2}


@dataclass(slots=True)
class _Measure:
    """Memoised heights (``(id(node), raw) -> (height, exact)``) and sizes of spec nodes;
    ``raw``: as a raw schema, which names no types (one node can be both, through a YAML
    alias)."""

    project: ParsedProject
    heights: dict[tuple[int, bool], tuple[int, bool]] = field(default_factory=dict)
    sizes: dict[tuple[int, bool], int] = field(default_factory=dict)
    entered: set[int] = field(default_factory=set)  # types being measured: a cycle

    def named(self, node: YMap, root: SchemaRoot) -> TypeDef | None:
        ref = node.get("type")
        if root.raw or not isinstance(ref, str) or ref in JSON_TYPES:
            return None  # a raw schema (external, pinned) names no toolc types
        td = self.project.registry.lookup(root.module, ref)
        return td if td is not None and id(td.node) not in self.entered else None

    def height(self, node: Any, root: SchemaRoot, budget: int) -> int:
        """Levels of ``node`` as published, or ``budget`` when it has at least that many."""
        if not isinstance(node, (YMap, YList)):
            return 0
        key = (id(node), root.raw)
        known = self.heights.get(key)
        if known is not None and (known[1] or known[0] >= budget):
            return min(known[0], budget)
        if budget <= 1:
            return budget
        below = 0
        for child in (node.values() if isinstance(node, YMap) else node):
            if not isinstance(child, (YMap, YList)):
                continue  # a scalar, height 0: most children, not worth a call each
            below = max(below, self.height(child, root, budget - 1))
            if below >= budget - 1:
                break
        found = 1 + below
        if isinstance(node, YMap):
            found = self._with_type(node, root, budget, found)
        self.heights[key] = (min(found, budget), found < budget)
        return min(found, budget)

    def _with_type(self, node: YMap, root: SchemaRoot, budget: int, found: int) -> int:
        if node.get("nullable") is True:
            found += 2
        td = self.named(node, root)
        if td is not None and found < budget:
            self.entered.add(id(td.node))
            try:
                found = max(found, 1 + self.height(td.node, _as_root(td, root), budget - 1))
            finally:
                self.entered.discard(id(td.node))
        return found

    def size(self, node: Any, root: SchemaRoot) -> int:
        """Nodes of ``node`` as published (capped just past the bound)."""
        if not isinstance(node, (YMap, YList)):
            return 1
        key = (id(node), root.raw)
        known = self.sizes.get(key)
        if known is not None:
            return known
        total = 1
        for child in (node.values() if isinstance(node, YMap) else node):
            # a scalar is one node: counted here, not by a call each
            total += self.size(child, root) if isinstance(child, (YMap, YList)) else 1
        total = min(total, MAX_PUBLISHED_NODES + 1)
        if isinstance(node, YMap):
            td = self.named(node, root)
            if td is not None:
                self.entered.add(id(td.node))
                try:
                    total = min(total + self.size(td.node, _as_root(td, root)),
                                MAX_PUBLISHED_NODES + 1)
                finally:
                    self.entered.discard(id(td.node))
        self.sizes[key] = total
        return total


def _as_root(td: TypeDef, root: SchemaRoot) -> SchemaRoot:
    """A type's body names other types from the type's own module."""
    if td.module is root.module:
        return root
    return SchemaRoot(td.module, "type", td.name, td.node, td.span, td)


def measure_bounds(project: ParsedProject, roots: tuple[SchemaRoot, ...],
                   ) -> tuple[frozenset[SchemaRoot], tuple[StepFinding, ...]]:
    """The schema documents past a bound, and the findings that say so (TC230, TC231):
    measuring and finding where the bound is passed are one walk."""
    measure = _Measure(project)
    found: list[StepFinding] = []
    failed = {root for root in roots if root.errors}  # the walk's problems, then these
    too_deep = [root for root in roots if _too_deep(measure, root)]
    deep_types = {root.type_def for root in too_deep if root.type_def is not None}
    reported: set[Span] = set()
    for root in too_deep:
        failed.add(root)
        _report_depth(found, measure, root, deep_types, reported)
    too_large = [root for root in roots
                 if root not in failed and measure.size(root.node, root) > MAX_PUBLISHED_NODES]
    large_types = {root.type_def for root in too_large if root.type_def is not None}
    for root in too_large:
        failed.add(root)
        if any(td in large_types for td, _, _ in root.refs):
            continue  # a type it uses is too large by itself, and says so
        notes = (("named types are written out in place at every use; a type used "
                  "twice in each of many types doubles each time"),) if root.refs else ()
        found.append(StepFinding("TC231", f"{root.describe()} would publish more than "
                                 f"{MAX_PUBLISHED_NODES:,} schema nodes", root.span,
                                 notes=notes))
    _check_project_size(found, roots, failed, measure)
    return frozenset(r for r in failed if not r.errors), tuple(found)


def check_bounds(facts: ProjectFacts, report: Reporter) -> None:
    """TC230 and TC231, as the measuring found them (before anything is written out)."""
    report.relay(facts.found)


def _check_project_size(found: list[StepFinding], roots: tuple[SchemaRoot, ...],
                        failed: set[SchemaRoot], measure: _Measure) -> None:
    """TC231 once, at the tool whose schemas take the project past its total bound; that
    tool and every one after it are then not clean: nothing writes them out."""
    total, past = 0, False
    for root in roots:
        if root.kind not in _PUBLISHED or root in failed:
            continue
        if past:
            failed.add(root)
            continue
        total += measure.size(root.node, root)
        if total > MAX_PROJECT_NODES:
            found.append(StepFinding(
                "TC231", f"the project's tools would publish more than {MAX_PROJECT_NODES:,} "
                f"schema nodes together; {root.describe()} takes it past that", root.span,
                notes=(("named types are written out in place at every use of them, in "
                        "every tool"),)))
            failed.add(root)
            past = True


def _too_deep(measure: _Measure, root: SchemaRoot) -> bool:
    budget = MAX_DEPTH - _LEVEL.get(root.kind, 2) + 2  # one past the bound
    return measure.height(root.node, root, budget) >= budget


def _report_depth(found: list[StepFinding], measure: _Measure, root: SchemaRoot,
                  deep_types: set[TypeDef], reported: set[Span]) -> None:
    """Follow the deepest branch down to the first level past the bound and report there,
    unless the branch goes through a type too deep by itself: that type's own report
    says it (a chain of 2,000 types is one error, not 2,000)."""
    node, span, through = root.node, root.span, []
    current, level = root, _LEVEL.get(root.kind, 2)
    while level <= MAX_DEPTH:
        budget = MAX_DEPTH - level + 1  # what this node may still hold below itself
        step = _deeper_child(measure, node, current, budget)
        if step is None:
            break
        node, span, entered = step
        if entered is not None:
            if entered in deep_types and entered is not root.type_def:
                return
            through.append(entered.qualname)
            current = _as_root(entered, current)
        level += 1
    if span in reported:
        return
    reported.add(span)
    notes = [("counted from the tool (level 1); a named type written out in place counts "
             "one level, `nullable` two")]
    if through:
        names = list(dict.fromkeys(through))
        shown = names if len(names) <= 5 else [*names[:2], "...", *names[-2:]]
        notes.append(f"reached through {len(names)} named type(s): {' -> '.join(shown)}")
    found.append(StepFinding("TC230", f"{root.describe()} nests deeper than {MAX_DEPTH} "
                             "levels when published", span, notes=tuple(notes)))


def _deeper_child(measure: _Measure, node: Any, root: SchemaRoot, budget: int,
                  ) -> tuple[Any, Span, TypeDef | None] | None:
    """The child (or named type) that makes ``node`` too deep, with its span."""
    if isinstance(node, YMap):
        for key, child in node.items():
            if measure.height(child, root, budget) >= budget:
                return child, node.value_spans[key], None
        td = measure.named(node, root)
        if td is not None and measure.height(td.node, _as_root(td, root), budget) >= budget:
            return td.node, node.value_spans.get("type", node.span), td
    elif isinstance(node, YList):
        for child, span in zip(node, node.item_spans, strict=True):
            if measure.height(child, root, budget) >= budget:
                return child, span, None
    return None
