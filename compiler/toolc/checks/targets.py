"""Targets: every exported tool as each configured provider dialect would take it.

``[tool.toolc] targets = ["openai-strict", "anthropic-strict", "gemini"]`` (a module's
own ``targets:`` replaces the project's for its export; ``targets: []`` checks none)
names the model APIs the exports are written for. Each target's table
(:mod:`toolc.runtime.dialects`) says what the provider does with every part of a
published tool and how a view for it carries what it does not take; the build publishes
that view of each tool (``toolc.publish.views``), and this check reports, at the spec
line of the property or keyword, what the view could not carry: what the target would
reject (an error: the request would fail). What the view carries (a constraint written
into the description, an optional property as a union with null, an object closed) is
not a finding: it is in the view, reviewed like the tool; but a move after which the
view takes other arguments than the golden file is a warning under its rule's code
(`oneOf` as `anyOf`: TC602; an object the schema leaves open closed: TC603; an optional
property that takes null made required: TC604):

- TC601 a keyword or keyword value the target refuses; TC602 what it changes silently;
  TC603 an object it needs closed; TC604 a property it needs required; TC605 a bound of one tool's schema; TC606 a bound
  of one request (the tools of one export); TC607 a name it refuses; TC608 a reference
  it cannot follow (a recursive schema, a reference out of the document).

Unlike the CHECKS list, it runs after resolve, on the IR: the views are lowered from the
published tools, and nothing here re-derives them. A bound of one request is checked
over the views, which are what one request sends. A tool pinned from an MCP server is
the server's: what a target refuses in it is a warning (the adapters and a view for the
target are where it is handled), said at its line like the server's other findings.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from ..diagnostics import DiagnosticBag, Severity, Span
from ..ir import ModuleIR, ProjectIR, ToolIR
from ..model.parse import ParsedModule
from ..publish.views import module_views
from .facts import PINNED_NOTE

if TYPE_CHECKING:
    from ..runtime.dialects import Finding, Target, View

# The rule of a finding the target rejects -> its code; a silent one is always TC602.
CODES = {"keyword": "TC601", "open-object": "TC603", "optional-property": "TC604",
         "limit": "TC605", "request-limit": "TC606", "name": "TC607", "reference": "TC608"}
SILENT = "TC602"
TARGET_CODES = frozenset({*CODES.values(), SILENT})


def module_targets(project: ProjectIR, modules: Iterable[ParsedModule],
                   targets: tuple[str, ...], refs: Mapping[str, str] | None = None
                   ) -> ProjectIR:
    """``project`` with each module's targets (its own `targets:`, else ``targets``), and
    the `$ref` shape of each target's views (``refs``: target -> shape)."""
    shapes = tuple(sorted((refs or {}).items()))
    parsed = {str(p.name): p for p in modules if p.name is not None}
    chosen = {}
    for name, module in project.modules.items():
        spec = parsed.get(name)
        own = spec.targets if spec is not None and spec.targets is not None else targets
        chosen[name] = dataclasses.replace(module, targets=tuple(own), refs=shapes)
    return dataclasses.replace(project, modules=chosen)


def check_targets(project: ProjectIR, modules: Iterable[ParsedModule], bag: DiagnosticBag
                  ) -> None:
    """Report what every module's targets cannot take of its exported tools, as each
    target's view of them (``toolc.publish.views``) leaves it; a tool exported by
    several modules is said once per finding."""
    parsed = {str(p.name): p for p in modules if p.name is not None}
    said: set[tuple[str, Span, str]] = set()
    for module in project.modules.values():
        if not module.targets:
            continue
        # lazy: loads the dialect tables, which a project without targets never needs
        from ..runtime.dialects import TARGETS

        spec = parsed.get(module.name)
        for name, views in module_views(module).items():
            for tool, view in zip(module.exported_tools, views, strict=True):
                for finding in [*view.problems, *view.changes]:
                    _report(bag, said, finding, tool.span_at(finding.pointer),
                            _where(tool, finding), pinned=tool.pinned_by is not None)
            _request(bag, said, TARGETS[name], module, views, _request_span(spec, module))


def _request_span(spec: ParsedModule | None, module: ModuleIR) -> Span:
    """Where a bound on the whole export is said: the module's own `targets:`, else its
    `export:`, else its `module:` line."""
    if spec is not None:
        for key in ("targets", "export", "module"):
            if key in spec.raw.value_spans:
                return spec.raw.value_spans[key]
    return Span(module.path, 1, 1)


def _request(bag: DiagnosticBag, said: set[tuple[str, Span, str]], table: Target,
             module: ModuleIR, views: list[View], span: Span) -> None:
    # lazy: loads the dialect tables (only a module with targets gets here)
    from ..runtime.dialects import request_problems

    for finding in request_problems(table, views):
        _report(bag, said, finding, span, f"export '{module.name}.{module.export}'",
                pinned=False)


def _report(bag: DiagnosticBag, said: set[tuple[str, Span, str]], finding: Finding,
            span: Span, where: str, *, pinned: bool) -> None:
    # A keyword's silent fate is TC602; an object or a property the view changes keeps
    # its rule's code, as a warning.
    code = CODES[finding.rule] if finding.rejected or finding.rule != "keyword" else SILENT
    message = finding.says(where)
    if (code, span, message) in said:
        return
    said.add((code, span, message))
    notes = [f"fix: {finding.fix}"] if finding.fix else []
    if pinned:
        notes.append(PINNED_NOTE)
    bag.report(code, message, span, notes=tuple(notes),
               severity=Severity.WARNING if pinned or not finding.rejected else None)


def _where(tool: ToolIR, finding: Finding) -> str:
    """The tool, and the place in its input schema when it is not the whole input."""
    pointer = finding.pointer
    if pointer == "/name" or not pointer.startswith("/inputSchema"):
        return f"tool '{tool.name}'"
    inner = pointer.removeprefix("/inputSchema")
    keyword = "/" + finding.keyword.replace("~", "~0").replace("/", "~1")
    if finding.keyword and inner.endswith(keyword):
        inner = inner[:-len(keyword)]
    return f"tool '{tool.name}' at {inner}" if inner else f"tool '{tool.name}'"

