"""Static composition: what every toolset publishes, when that is known at compile time.

For each toolset whose tools are known when compiling (``function``, ``external``, and
everything built only on those) the published names are computed through prefixes,
renames and unions, and each problem is reported at the line that causes it: a cycle at
the reference that closes it, a collision at the member that brings the second tool, a
rename of a missing tool at its ``names`` entry, a published name that breaks the name
rules at the ``prefix`` or ``names`` entry that made it. An ``mcp`` set is known when its
tools are pinned (``tools:``, written by ``toolc import``), and an ``mcp_manager`` when
all its servers are, merged like a ``combined`` set whose conflicts are errors (as the
runtime merges them); otherwise they are known only at run time, and anything built on
them is incomplete.
"""

from __future__ import annotations

from ..diagnostics import Span
from ..loader import YList, YMap
from ..model.errors import suggest
from ..model.parse import ParsedModule
from ..model.toolsets import (
    ApprovalRequiredToolset,
    CombinedToolset,
    ExternalToolset,
    FunctionToolset,
    MCPManagerToolset,
    MCPToolset,
    PrefixedToolset,
    RenamedToolset,
    ToolsetSpec,
)
from .facts import (
    Composition,
    Entry,
    MissingRename,
    ProjectFacts,
    StepFinding,
    ToolKey,
    ToolsetKey,
)
from .names import name_level, name_problem, rule_note
from .parsed import ParsedProject
from .reporting import Reporter
from .toolset_bounds import MAX_SET_TOOLS, too_many

_UNKNOWN = Composition([], False)


def compose_toolsets(project: ParsedProject, deep: frozenset[ToolsetKey]) -> Composer:
    """Every toolset composed (those past the nesting bound, ``deep``, left unknown), with
    what composing found: TC401, TC402, TC407, TC301/TC302 on published names and TC234
    as findings, each rename of a missing tool (TC403) as data."""
    composer = Composer(project, deep)
    for parsed in project.modules:
        for name in parsed.toolsets:
            composer.compose(parsed, name)
    return composer


def check_composition(facts: ProjectFacts, report: Reporter) -> None:
    """TC401, TC402, TC234 as composing found them; TC403 at each rename of a tool the
    inner set does not publish, with its near miss (looked for here, in the order of the
    checks, as every suggestion of an analysis shares one budget)."""
    report.relay(facts.found)
    for missing in facts.missing_renames:
        hint, fixes = suggest(missing.old, missing.present, missing.at)
        report("TC403", f"toolset '{missing.toolset}' renames '{missing.old}', which its "
               f"inner set does not publish{hint}", missing.at, fixes=fixes)


class Composer:
    """Composes toolsets, each once (``compositions``), keeping what it finds."""

    def __init__(self, project: ParsedProject, deep: frozenset[ToolsetKey]):
        self.project = project
        self.deep = deep
        self.path: list[tuple[ParsedModule, str]] = []
        self.compositions: dict[ToolsetKey, Composition] = {}
        self.found: list[StepFinding] = []
        self.missing_renames: list[MissingRename] = []

    def compose(self, parsed: ParsedModule, name: str) -> Composition:
        key: ToolsetKey = (id(parsed), name)
        done = self.compositions.get(key)
        if done is not None:
            return done
        ts = parsed.toolsets.get(name)
        if ts is None or key in self.deep:
            return _UNKNOWN  # past the nesting bound (TC233): never followed
        self.path.append((parsed, name))
        try:
            result = self._kind(parsed, name, ts)
        finally:
            self.path.pop()
        if len(result.entries) > MAX_SET_TOOLS:
            self.found.append(too_many(parsed, name, len(result.entries)))
            result = _UNKNOWN  # and the sets made of it stop growing here
        self.compositions[key] = result
        return result

    def _node(self, parsed: ParsedModule, name: str) -> YMap:
        node = parsed.section("toolsets").get(name)
        return node if isinstance(node, YMap) else YMap(parsed.raw.span)

    def _kind(self, parsed: ParsedModule, name: str, ts: ToolsetSpec) -> Composition:
        if isinstance(ts, FunctionToolset):
            tools = list(dict.fromkeys(ts.tools))
            return Composition([Entry(t, ToolKey(parsed, t)) for t in tools if t in parsed.tools],
                               all(t in parsed.tools for t in tools))
        if isinstance(ts, ExternalToolset):
            return Composition([Entry(t, ToolKey(parsed, t, name)) for t in ts.tools], True)
        if isinstance(ts, CombinedToolset):
            return self._combined(parsed, name, ts)
        if isinstance(ts, MCPToolset):
            if ts.tools is None:
                return _UNKNOWN
            return Composition([Entry(t, ToolKey(parsed, t, pinned_toolset=name))
                                for t in ts.tools], True)
        if isinstance(ts, MCPManagerToolset):
            return self._manager(parsed, name, ts)
        inner_ref = getattr(ts, "inner", None)
        if not isinstance(inner_ref, str):
            return _UNKNOWN  # mcp and mcp_manager: known only at run time
        node = self._node(parsed, name)
        inner = self._follow(parsed, inner_ref, node.value_spans.get("inner", node.span))
        if isinstance(ts, PrefixedToolset):
            return self._prefixed(name, ts, inner, node)
        if isinstance(ts, RenamedToolset):
            return self._renamed(name, ts, inner, node)
        if isinstance(ts, ApprovalRequiredToolset):
            return Composition([Entry(e.name, e.tool, True, e.steps) for e in inner.entries],
                               inner.complete)
        return Composition(list(inner.entries), inner.complete)

    def _follow(self, parsed: ParsedModule, ref: str, span: Span) -> Composition:
        found = self.project.find_toolset(parsed, ref)
        if found is None:
            return _UNKNOWN  # reported by the reference checks
        for i, (m, n) in enumerate(self.path):
            if m is found[0] and n == found[1]:
                cycle = [self._shown(parsed, mm, nn) for mm, nn in self.path[i:]]
                self.found.append(StepFinding(
                    "TC401", f"toolset '{self.path[-1][1]}' closes a cycle: "
                    f"{' -> '.join([*cycle, cycle[0]])}", span))
                return _UNKNOWN
        return self.compose(*found)

    @staticmethod
    def _shown(here: ParsedModule, module: ParsedModule, name: str) -> str:
        return name if module is here else f"{module.name}.{name}"

    def _prefixed(self, name: str, ts: PrefixedToolset, inner: Composition,
                  node: YMap) -> Composition:
        span = node.value_spans.get("prefix", node.span)
        maker = f"prefix '{ts.prefix}' of toolset '{name}'"
        entries = [Entry(ts.prefix + e.name, e.tool, e.approval,
                         (*e.steps, (ts.prefix + e.name, span, maker))) for e in inner.entries]
        made = [(new.name, old.name) for new, old in zip(entries, inner.entries, strict=True)]
        self._name_rules(f"prefix '{ts.prefix}' of toolset '{name}'", made,
                         node.value_spans.get("prefix", node.span))
        return Composition(entries, inner.complete)

    def _renamed(self, name: str, ts: RenamedToolset, inner: Composition,
                 node: YMap) -> Composition:
        names = node.get("names")
        names = names if isinstance(names, YMap) else YMap(node.span)
        present = {e.name: None for e in inner.entries}
        for old in ts.names:
            if old not in present and inner.complete:
                self.missing_renames.append(MissingRename(
                    name, old, tuple(present), names.key_spans.get(old, node.span)))
        entries: list[Entry] = []
        seen: dict[str, Entry] = {}
        for e in inner.entries:
            new = ts.names.get(e.name, e.name)
            if new != e.name:
                self._name_rules(f"renaming '{e.name}' in toolset '{name}'", [(new, e.name)],
                                 names.value_spans.get(e.name, node.span))
            steps = e.steps
            if new != e.name:
                steps = (*steps, (new, names.value_spans.get(e.name, node.span),
                                  f"renaming '{e.name}' in toolset '{name}'"))
            entry = Entry(new, e.tool, e.approval, steps)
            if new in seen:
                culprit = e.name if e.name in ts.names else seen[new].tool.name
                span = names.value_spans.get(culprit, node.span)
                self.found.append(StepFinding(
                    "TC407", f"toolset '{name}' publishes '{new}' twice, once for "
                    f"'{seen[new].tool.name}' and once for '{e.tool.name}'", span))
                continue
            seen[new] = entry
            entries.append(entry)
        return Composition(entries, inner.complete)

    def _combined(self, parsed: ParsedModule, name: str, ts: CombinedToolset) -> Composition:
        node = self._node(parsed, name)
        items = node.get("toolsets")
        spans = items.item_spans if isinstance(items, YList) else [node.span] * len(ts.toolsets)
        parts = [self._follow(parsed, ref, span) for ref, span in zip(ts.toolsets, spans,
                                                                       strict=True)]
        if ts.conflicts == "last_wins":
            return _last_wins(parts)
        return self._union(name, list(ts.toolsets), parts, list(spans), "member")

    def _manager(self, parsed: ParsedModule, name: str, ts: MCPManagerToolset) -> Composition:
        node = self._node(parsed, name)
        servers = node.get("servers")
        refs = list(ts.servers.values())
        spans = [servers.value_spans[s] if isinstance(servers, YMap) else node.span
                 for s in ts.servers]
        parts = [self._follow(parsed, ref, span) for ref, span in zip(refs, spans, strict=True)]
        if ts.conflicts == "last_wins":
            return _last_wins(parts)
        return self._union(name, list(ts.servers), parts, spans, "server")

    def _union(self, name: str, refs: list[str], parts: list[Composition], spans: list[Span],
               what: str) -> Composition:
        """Members merged in order; a name two members give is a collision (TC402)."""
        complete = all(p.complete for p in parts)
        owner: dict[str, int] = {}
        entries: list[Entry] = []
        for i, part in enumerate(parts):
            clashes: dict[int, list[str]] = {}
            for e in part.entries:
                if e.name in owner:
                    clashes.setdefault(owner[e.name], []).append(e.name)
                    continue
                owner[e.name] = i
                entries.append(e)
            for j, clashing in clashes.items():
                if what == "member":
                    note = ("give `conflicts: last_wins` to let the later member win, "
                            "or rename or prefix one of them")
                else:
                    note = ("give `conflicts: last_wins` to let the later server win, "
                            "or combine prefixed `mcp` sets instead")
                self.found.append(StepFinding(
                    "TC402", f"{what} '{refs[i]}' of toolset '{name}' publishes "
                    f"{_listed(clashing)}, already published by {what} '{refs[j]}'",
                    spans[i], notes=(note,)))
        return Composition(entries, complete)

    def _name_rules(self, maker: str, made: list[tuple[str, str]], span: Span) -> None:
        """Report the published names that ``maker`` made worse than the names it was given."""
        broken: dict[str, list[tuple[str, str]]] = {}
        for new, old in made:
            if name_level(new) > name_level(old):
                problem = name_problem(new)
                assert problem is not None
                broken.setdefault(problem[0], []).append((new, problem[1]))
        for code, names in broken.items():
            if len(names) == 1:
                message = f"{maker} makes the published name '{names[0][0]}', which {names[0][1]}"
            else:
                message = f"{maker} makes published names that break the rule: " + \
                    _listed([n for n, _ in names])
            self.found.append(StepFinding(code, message, span, notes=(rule_note(code),)))


def _listed(names: list[str], limit: int = 5) -> str:
    shown = ", ".join(f"'{n}'" for n in names[:limit])
    more = len(names) - limit
    return shown + (f" and {more} more" if more > 0 else "")


def _last_wins(parts: list[Composition]) -> Composition:
    """Members merged in order, a later member's tool replacing an earlier one's."""
    flat = [e for p in parts for e in p.entries]
    last = {e.name: i for i, e in enumerate(flat)}
    return Composition([e for i, e in enumerate(flat) if last[e.name] == i],
                       all(p.complete for p in parts))
