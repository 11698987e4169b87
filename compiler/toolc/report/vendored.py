"""Findings about imported MCP servers: diagnostics in the tools an ``mcp`` toolset pins.

A pinned tool is the server's, published exactly as it gives it (``toolc import``): what
toolc would refuse in a schema of yours (an undescribed property, draft-07's
``$schema``) is a finding about the server, which the user cannot fix in place. Said in
full at every build, a third-party server's dozens of them drown the user's own. So the
commands fold them: one line per pinned server ("toolset 'server': 14 pinned tools, 68
findings about the server ..."), in every format, and ``--vendor`` shows them in full.

Only what does not fail the run is folded: an error (a pinned tool whose name or schema
cannot be published, two tools with one name) is printed in full like any other, and
so, under ``--strict``, is a warning. What hides text from a reviewer or speaks to the
model (TC701-TC705: :mod:`toolc.checks.texts`) is never folded, whatever its severity:
in a third-party tool, that is the finding. Folding changes what is printed, never an
exit code.

Which findings are the server's is decided by place: a diagnostic located inside the
``tools`` mapping of an ``mcp`` toolset. The places are found in the spec text the
command shows the diagnostics with (``Compiled.sources``), so a build the no-op cache
answers folds exactly as one that analysed the specs; a text that no longer parses
folds nothing.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import TEXT_CODES, Diagnostic, Severity, Span, SpecError
from ..loader import YList, YMap, load_text
from .escaping import bounded

# What the per-server line sends the reader to.
SEE_ALL = "see `toolc validate --vendor`"
# A spec that may declare an `mcp` toolset (`kind: mcp`, quoted or in flow style); one
# that spells it otherwise is not parsed, and its diagnostics are shown in full.
_MCP_KIND = re.compile(r"""\bkind['"]?\s*:\s*['"]?mcp\b""")


@dataclass(slots=True)
class PinnedServer:
    """An ``mcp`` toolset that pins tools, and the findings in them that were folded."""

    spec: str                      # the spec, as diagnostics name it
    toolset: str
    span: Span                     # the toolset's key
    tools: int                     # how many tools it pins
    first: tuple[int, int]         # (line, col) of its `tools` key ...
    last: tuple[int, int]          # ... and of the last node inside it
    findings: list[Diagnostic] = field(default_factory=list)

    def holds(self, span: Span) -> bool:
        return span.path == self.spec and self.first <= (span.line, span.col) <= self.last

    def by_rule(self) -> list[tuple[str, int]]:
        """(code, count) of the findings, the most frequent first, then by code."""
        counts = Counter(d.code for d in self.findings)
        return sorted(counts.items(), key=lambda item: (-item[1], item[0]))

    def summary(self) -> str:
        """``toolset 'server': 14 pinned tools, 68 findings about the server (TC201 x40,
        TC221 x28): see `toolc validate --vendor```."""
        rules = ", ".join(f"{code} x{count}" for code, count in self.by_rule())
        return (f"toolset '{bounded(self.toolset, 100)}': {self.tools} pinned tool(s), "
                f"{len(self.findings)} finding(s) about the server ({rules}): {SEE_ALL}")

    def as_json(self) -> dict[str, Any]:
        return {"path": self.spec, "line": self.span.line, "col": self.span.col,
                "toolset": bounded(self.toolset), "tools": self.tools,
                "findings": len(self.findings), "rules": dict(self.by_rule())}


def pinned_servers(path: str, text: str) -> list[PinnedServer]:
    """The ``mcp`` toolsets of a spec that pin tools, in the order written; none when
    the text does not parse (its diagnostics are then shown as they are)."""
    if _MCP_KIND.search(text) is None:  # most specs: not parsed again
        return []
    try:
        data = load_text(text, path).data
    except SpecError:
        return []
    toolsets = data.get("toolsets") if isinstance(data, YMap) else None
    if not isinstance(toolsets, YMap):
        return []
    found = []
    for name, toolset in toolsets.items():
        if not isinstance(toolset, YMap) or toolset.get("kind") != "mcp":
            continue
        tools = toolset.get("tools")
        if isinstance(tools, YMap) and tools:
            start = toolset.key_spans["tools"]
            found.append(PinnedServer(path, name, toolsets.key_spans[name], len(tools),
                                      (start.line, start.col), _last_place(tools)))
    return found


def _last_place(node: YMap | YList) -> tuple[int, int]:
    """The (line, col) of the last key, value or item at any depth under ``node``."""
    last = (node.span.line, node.span.col)
    stack: list[Any] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, YMap):
            spans: Iterable[Span] = (*item.key_spans.values(), *item.value_spans.values())
            stack.extend(item.values())
        elif isinstance(item, YList):
            spans = item.item_spans
            stack.extend(item)
        else:
            continue
        for span in spans:
            last = max(last, (span.line, span.col))
    return last


def fold(diagnostics: Iterable[Diagnostic], sources: Mapping[str, str], *,
         strict: bool = False) -> tuple[list[Diagnostic], list[PinnedServer]]:
    """The diagnostics to show in full, and the pinned servers whose findings were folded
    (each holding them). An error is never folded, nor a warning under ``strict``."""
    items = list(diagnostics)
    failing = Severity.WARNING if strict else Severity.ERROR
    candidates = {d.span.path for d in items if _foldable(d, failing) and d.span is not None}
    servers = [server for path in sorted(candidates) if path in sources
               for server in pinned_servers(path, sources[path])]
    if not servers:
        return items, []
    shown: list[Diagnostic] = []
    for d in items:
        server = None
        if d.span is not None and _foldable(d, failing):
            server = next((s for s in servers if s.holds(d.span)), None)
        if server is None:
            shown.append(d)
        else:
            server.findings.append(d)
    return shown, [s for s in servers if s.findings]


def _foldable(d: Diagnostic, failing: Severity) -> bool:
    return d.severity < failing and d.code not in TEXT_CODES

