"""References: code (``module:attr``), tools, toolsets and the export, within and across modules.

Nothing is imported: here a code reference is only checked to have the shape of one
(``checks.code`` looks for what it names, still without importing it).
"""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Span
from ..loader import YList, YMap
from ..model.errors import suggest
from ..model.parse import ParsedModule
from ..model.toolsets import (
    CombinedToolset,
    FilteredToolset,
    FunctionToolset,
    MCPManagerToolset,
    PreparedToolset,
    WrapperToolset,
)
from .facts import ProjectFacts
from .modules import is_identifier
from .names import external_tools
from .parsed import ParsedProject
from .reporting import Reporter


def is_code_reference(text: str) -> bool:
    """``package.module:attribute``, the attribute possibly dotted (``Class.method``)."""
    module, colon, attr = text.partition(":")
    if not colon:
        return False
    return all(is_identifier(p) for p in module.split(".") + attr.split("."))


def _span(node: object, key: str, fallback: Span) -> Span:
    return node.value_spans.get(key, fallback) if isinstance(node, YMap) else fallback


def code_references(parsed: ParsedModule) -> Iterator[tuple[str, str, str, Span]]:
    """(what, owner, reference, span) of every handler, predicate, prepare and wrapper."""
    tools, toolsets = parsed.section("tools"), parsed.section("toolsets")
    for name, tool in parsed.tools.items():
        if tool.handler is not None:
            yield "handler", f"tool '{name}'", tool.handler, _span(tools.get(name), "handler",
                                                                   tools.span)
    # A tool that failed validation for another reason (a misspelt key, say) still has
    # its handler checked from the raw YAML: every problem of a run is reported.
    for name in sorted(parsed.broken_tools):
        node = tools.get(name)
        if isinstance(node, YMap) and isinstance(node.get("handler"), str):
            yield "handler", f"tool '{name}'", node["handler"], node.value_spans["handler"]
    if parsed.certify is not None:
        node = parsed.raw.get("certify")
        items = node.get("contexts") if isinstance(node, YMap) else None
        for i, context in enumerate(parsed.certify.contexts):
            item = items[i] if isinstance(items, YList) else None
            yield "deps", f"certification context '{context.name}'", context.deps, _span(
                item, "deps", parsed.raw.span)
    for name, ts in parsed.toolsets.items():
        for key, cls in (("predicate", FilteredToolset), ("prepare", PreparedToolset),
                         ("wrapper", WrapperToolset)):
            if isinstance(ts, cls):
                yield key, f"toolset '{name}'", getattr(ts, key), _span(toolsets.get(name), key,
                                                                        toolsets.span)


def check_code_references(facts: ProjectFacts, report: Reporter) -> None:
    """TC303: handler, predicate, prepare and wrapper are ``package.module:attribute``."""
    for parsed in facts.modules:
        for what, owner, ref, span in code_references(parsed):
            if not is_code_reference(ref):
                report("TC303", f"{what} '{ref}' of {owner} is not a reference "
                       "`package.module:attribute`", span,
                       notes=(("e.g. `my_app.tools:read_log` or "
                              "`my_app.tools:Tools.read_log`"),))


def toolset_references(parsed: ParsedModule) -> Iterator[tuple[str, str, Span]]:
    """(toolset name, reference, span) of every reference a toolset makes to another."""
    section = parsed.section("toolsets")
    for name, ts in parsed.toolsets.items():
        node = section.get(name)
        if not isinstance(node, YMap):
            continue
        inner = getattr(ts, "inner", None)
        if isinstance(inner, str):
            yield name, inner, node.value_spans["inner"]
        if isinstance(ts, CombinedToolset) and isinstance(node.get("toolsets"), YList):
            yield from ((name, ref, span) for ref, span in
                        zip(ts.toolsets, node["toolsets"].item_spans, strict=True))
        if isinstance(ts, MCPManagerToolset) and isinstance(node.get("servers"), YMap):
            servers = node["servers"]
            yield from ((name, ref, servers.value_spans[server])
                        for server, ref in ts.servers.items())


def held_toolset_references(project: ParsedProject) -> list[tuple[str, Span]]:
    """(module, at) of each toolset reference to a module no spec declares that is held
    back, as one that could not be loaded may declare it (the front end says them there)."""
    held = []
    for parsed in project.modules:
        for _, ref, span in toolset_references(parsed):
            if project.find_toolset(parsed, ref) is None:
                prefix, dot, _ = ref.partition(".")
                if dot and prefix != parsed.name and project.module_named(prefix) is None \
                        and not project.unknown_module(prefix):
                    held.append((prefix, span))
    return held


def check_toolset_references(facts: ProjectFacts, report: Reporter) -> None:
    """TC306/TC307: every reference names an existing toolset, here or in another module;
    and the types the schema walk found naming a module no spec declares (TC307)."""
    report.relay(facts.found)
    for parsed in facts.modules:
        for _, ref, span in toolset_references(parsed):
            if facts.find_toolset(parsed, ref) is None:
                _unknown_toolset(facts, report, parsed, ref, span, "TC306")


def _unknown_toolset(facts: ProjectFacts, report: Reporter, parsed: ParsedModule, ref: str,
                     span: Span, code: str) -> None:
    prefix, dot, name = ref.partition(".")
    other = parsed if not dot or prefix == parsed.name else facts.module_named(prefix)
    if other is None:
        if facts.unknown_module(prefix):
            hint, fixes = suggest(prefix, facts.by_name, span, ref)
            report("TC307", f"toolset '{ref}' names module '{prefix}', which no "
                   f"spec declares{hint}", span, fixes=fixes)
        return
    if "toolsets" in other.unreadable:
        return
    wanted = name if dot else ref
    known = list(other.section("toolsets"))
    where = "" if other is parsed else f" in module '{prefix}'"
    hint, fixes = suggest(wanted, known, span, ref, len(ref) - len(wanted))
    report(code, f"unknown toolset '{wanted}'{where}{hint}", span, fixes=fixes)


def export_note(toolsets: list[str]) -> str:
    """What `export` takes, for a word that names no toolset (``export: everything``)."""
    shown = ", ".join(toolsets[:8]) + (", ..." if len(toolsets) > 8 else "")
    named = f" (here: {shown})" if toolsets else ""
    return (f"`export` names one toolset of the module{named}; without `export`, the module "
            "exports all its tools")


def check_export(facts: ProjectFacts, report: Reporter) -> None:
    """TC406: ``export`` names a toolset of the module itself."""
    for parsed in facts.modules:
        export = parsed.export
        if export is None or export in parsed.toolsets or export in parsed.broken_toolsets:
            continue
        span = parsed.raw.value_spans.get("export", parsed.top_span())
        if "." in export and facts.find_toolset(parsed, export) is not None:
            report("TC406", f"`export` must name a toolset of this module, not "
                   f"'{export}'", span,
                   notes=("define a toolset here that uses it, and export that",))
        elif "toolsets" not in parsed.unreadable:
            known = list(parsed.section("toolsets"))
            hint, fixes = suggest(export, known, span)
            report("TC406", f"`export` names '{export}', which is not a toolset of "
                   f"module '{parsed.name}'{hint}", span,
                   notes=() if hint else (export_note(known),), fixes=fixes)


def check_tool_references(facts: ProjectFacts, report: Reporter) -> None:
    """TC304/TC407: a function toolset lists tools of its module, each once; then the
    names that composing found a set publishing twice (TC407)."""
    for parsed in facts.modules:
        section = parsed.section("toolsets")
        externals = {tool: ts for ts, tool, _ in external_tools(parsed)}
        for name, ts in parsed.toolsets.items():
            node = section.get(name)
            if not isinstance(ts, FunctionToolset) or not isinstance(node, YMap):
                continue
            items = node["tools"]
            seen: set[str] = set()
            for tool, span in zip(ts.tools, items.item_spans, strict=True):
                if tool in seen:
                    report("TC407", f"toolset '{name}' lists tool '{tool}' twice", span)
                seen.add(tool)
                if tool in parsed.tools or tool in parsed.broken_tools or \
                        "tools" in parsed.unreadable:
                    continue
                notes = (((f"'{tool}' is a tool of external toolset '{externals[tool]}'; "
                          "use that toolset itself"),) if tool in externals else ())
                hint, fixes = suggest(tool, parsed.section("tools"), span)
                report("TC304", f"toolset '{name}' lists '{tool}', which is not a "
                       f"tool of module '{parsed.name}'{hint}", span,
                       notes=notes, fixes=fixes)
    report.relay(facts.found)
