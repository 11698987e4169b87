"""Targets: every exported tool as each configured provider dialect would take it.

``[tool.toolc] targets = ["openai-strict", "anthropic-strict", "gemini"]`` (a module's
own ``targets:`` replaces the project's for its export; ``targets: []`` checks none)
names the model APIs the exports are written for. Each target's table
(:mod:`toolc.runtime.dialects`) says what the provider does with every part of a
published tool; this check reports, at the spec line of the property or keyword, what
the target rejects (an error: the request would fail) and what it would silently drop,
move into the description or change (TC602, a warning: the model would read something
else than the golden file says):

- TC601 a keyword or keyword value the target refuses; TC603 an object it needs closed;
  TC604 a property it needs required; TC605 a bound of one tool's schema; TC606 a bound
  of one request (the tools of one export); TC607 a name it refuses; TC608 a reference
  it cannot follow (a recursive schema, a reference out of the document).

Unlike the CHECKS list, it runs after resolve, on the IR: the published tools are what a
provider is sent, and nothing here re-derives them. A tool pinned from an MCP server is
the server's: what a target refuses in it is a warning (the adapters and a view for the
target are where it is handled), said at its line like the server's other findings.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..diagnostics import DiagnosticBag, Severity, Span
from ..ir import ModuleIR, ProjectIR, ToolIR
from ..model.parse import ParsedModule
from ..runtime.dialects import TARGETS, Finding, Target, check_request, check_tool
from .project import PINNED_NOTE

# The rule of a finding the target rejects -> its code; a silent one is always TC602.
CODES = {"keyword": "TC601", "open-object": "TC603", "optional-property": "TC604",
         "limit": "TC605", "request-limit": "TC606", "name": "TC607", "reference": "TC608"}
SILENT = "TC602"
TARGET_CODES = frozenset({*CODES.values(), SILENT})


def check_targets(project: ProjectIR, modules: Iterable[ParsedModule],
                  targets: tuple[str, ...], bag: DiagnosticBag) -> None:
    """Report every finding of every module's targets (its own, else ``targets``) on its
    exported tools; a tool exported by several modules is said once per finding."""
    parsed = {str(p.name): p for p in modules if p.name is not None}
    said: set[tuple[str, Span, str]] = set()
    for module in project.modules.values():
        spec = parsed.get(module.name)
        chosen = spec.targets if spec is not None and spec.targets is not None else targets
        for name in chosen:
            table = TARGETS[name]
            for tool in module.exported_tools:
                for finding in check_tool(table, tool.name, tool.input_schema):
                    _report(bag, said, finding, tool.span_at(finding.pointer),
                            _where(tool, finding), pinned=tool.pinned_by is not None)
            _request(bag, said, table, module, _request_span(spec, module))


def _request_span(spec: ParsedModule | None, module: ModuleIR) -> Span:
    """Where a bound on the whole export is said: the module's own `targets:`, else its
    `export:`, else its `module:` line."""
    if spec is not None:
        for key in ("targets", "export", "module"):
            if key in spec.raw.value_spans:
                return spec.raw.value_spans[key]
    return Span(module.path, 1, 1)


def _request(bag: DiagnosticBag, said: set[tuple[str, Span, str]], table: Target,
             module: ModuleIR, span: Span) -> None:
    tools = [(t.name, t.input_schema) for t in module.exported_tools]
    for finding in check_request(table, tools):
        _report(bag, said, finding, span, f"export '{module.name}.{module.export}'",
                pinned=False)


def _report(bag: DiagnosticBag, said: set[tuple[str, Span, str]], finding: Finding,
            span: Span, where: str, *, pinned: bool) -> None:
    code = CODES[finding.rule] if finding.rejected else SILENT
    message = finding.says(where)
    if (code, span, message) in said:
        return
    said.add((code, span, message))
    notes = [f"fix: {finding.fix}"] if finding.fix else []
    if pinned:
        notes.append(PINNED_NOTE)
    bag.report(code, message, span, notes=tuple(notes),
               severity=Severity.WARNING if pinned else None)


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

