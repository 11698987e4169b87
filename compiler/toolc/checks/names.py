"""Names: tools against the MCP and portable rules, types and toolsets as identifiers."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..diagnostics import Span
from ..loader import YMap
from ..model.keywords import JSON_TYPES
from ..model.parse import ParsedModule
from ..model.toolsets import ExternalToolset, MCPToolset
from .facts import ProjectFacts
from .modules import is_identifier
from .reporting import Reporter

_MCP_CHARS = re.compile(r"[^A-Za-z0-9._-]")
_PORTABLE_CHARS = re.compile(r"[^A-Za-z0-9_-]")
MCP_RULE = "^[A-Za-z0-9._-]{1,128}$"
PORTABLE_RULE = "^[A-Za-z0-9_-]{1,64}$"


def name_problem(name: str) -> tuple[str, str] | None:
    """(code, why) when ``name`` breaks the MCP rule (TC301) or the portable one (TC302)."""
    bad = _MCP_CHARS.search(name)
    if not name:
        return "TC301", "is empty"
    if bad:
        return "TC301", f"contains {bad.group()!r}"
    if len(name) > 128:
        return "TC301", f"is {len(name)} characters long (at most 128)"
    bad = _PORTABLE_CHARS.search(name)
    if bad:
        return "TC302", f"contains {bad.group()!r}"
    if len(name) > 64:
        return "TC302", f"is {len(name)} characters long (at most 64)"
    return None


def name_level(name: str) -> int:
    """0 fine, 1 not portable, 2 not a valid MCP name: how bad a name is, for comparisons."""
    problem = name_problem(name)
    return 0 if problem is None else (2 if problem[0] == "TC301" else 1)


def rule_note(code: str) -> str:
    if code == "TC301":
        return f"MCP tool names match {MCP_RULE}"
    return f"several model providers accept only names matching {PORTABLE_RULE}"


def external_tools(parsed: ParsedModule) -> Iterator[tuple[str, str, Span]]:
    """(toolset, tool name, key span) of every tool of the module's external toolsets."""
    section = parsed.section("toolsets")
    for ts_name, ts in parsed.toolsets.items():
        node = section.get(ts_name)
        if isinstance(ts, ExternalToolset) and isinstance(node, YMap):
            tools = node.get("tools")
            for tool in ts.tools:
                span = tools.key_spans[tool] if isinstance(tools, YMap) else node.span
                yield ts_name, tool, span


def pinned_tools(parsed: ParsedModule) -> Iterator[tuple[str, str, Span]]:
    """(toolset, tool name, key span) of every tool pinned in the module's mcp toolsets."""
    section = parsed.section("toolsets")
    for ts_name, ts in parsed.toolsets.items():
        node = section.get(ts_name)
        if isinstance(ts, MCPToolset) and ts.tools is not None and isinstance(node, YMap):
            tools = node.get("tools")
            for tool in ts.tools:
                span = tools.key_spans[tool] if isinstance(tools, YMap) else node.span
                yield ts_name, tool, span


def check_tool_names(facts: ProjectFacts, report: Reporter) -> None:
    """TC301/TC302: every tool name against the MCP rule (error) and portable rule
    (warning); then the published names composing found a prefix or rename breaking."""
    for parsed in facts.modules:
        section = parsed.section("tools")
        named = [(n, section.key_spans[n]) for n in section]
        named += [(n, span) for _, n, span in external_tools(parsed)]
        named += [(n, span) for _, n, span in pinned_tools(parsed)]
        for name, span in named:
            problem = name_problem(name)
            if problem:
                code, why = problem
                report(code, f"tool name '{name}' {why}", span, notes=(rule_note(code),))
    report.relay(facts.found)


def check_identifiers(facts: ProjectFacts, report: Reporter) -> None:
    """TC311: type and toolset names are identifiers; no type takes a JSON type's name."""
    for parsed in facts.modules:
        types = parsed.section("types")
        for name in types:
            if name in JSON_TYPES:
                report("TC311", f"type name '{name}' is a JSON type's name",
                       types.key_spans[name],
                       notes=("`type: " + name + "` would be ambiguous",))
            elif not is_identifier(name):
                report("TC311", f"type name '{name}' is not an ASCII Python identifier",
                       types.key_spans[name])
        toolsets = parsed.section("toolsets")
        for name in toolsets:
            if not is_identifier(name):
                report("TC311", f"toolset name '{name}' is not an ASCII Python "
                       "identifier", toolsets.key_spans[name])


def check_duplicate_tools(facts: ProjectFacts, report: Reporter) -> None:
    """TC312: an external tool must not take the name of another tool of its module."""
    for parsed in facts.modules:
        section = parsed.section("tools")
        seen: dict[str, Span] = {n: section.key_spans[n] for n in section}
        for ts_name, name, span in external_tools(parsed):
            if name in seen:
                first = seen[name]
                report("TC312", f"tool '{name}' of external toolset '{ts_name}' is "
                       f"already defined on line {first.line}", span,
                       notes=("every tool of a module needs its own name",))
            else:
                seen[name] = span


def check_renamed_from(facts: ProjectFacts, report: Reporter) -> None:
    """TC330: a tool's `renamed_from` is a tool name that no other tool of its module has
    now or claims as its own old name (whether the base had it, only a diff can say)."""
    for parsed in facts.modules:
        section = parsed.section("tools")
        claimed: dict[str, str] = {}
        for name, spec in parsed.tools.items():
            old = spec.renamed_from
            node = section.get(name)
            if old is None or not isinstance(node, YMap):
                continue
            span = node.value_spans.get("renamed_from", section.key_spans[name])
            problem = name_problem(old)
            if old == name:
                why = "names the tool itself; give the name it had before"
            elif problem is not None and problem[0] == "TC301":
                why = f"is no tool name: it {problem[1]}"
            elif old in parsed.tools:
                why = (f"names tool '{old}', which the module still defines: a renamed "
                       "tool's old name is free")
            elif old in claimed:
                why = f"is already the old name of tool '{claimed[old]}'"
            else:
                claimed[old] = name
                continue
            report("TC330", f"renamed_from '{old}' of tool '{name}' {why}", span)
