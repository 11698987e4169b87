"""Descriptions: what the model reads, on every tool and every property at any depth.

A missing one is an error by default (its severity is configurable); for ``external``
tools and tools pinned from MCP servers, whose schemas someone else wrote, it is a warning
(and no text is ever made up for them). Properties left undescribed by a named type
without a description are one problem, the type's: reported once, at the type, with its
uses listed (a type used by 8 properties is one diagnostic, not 8).
"""

from __future__ import annotations

import difflib

from ..diagnostics import Fix, Related, Severity, Span
from ..loader import YMap
from ..model.keywords import JSON_TYPES, KEYWORDS
from ..model.parse import ParsedModule
from .facts import ProjectFacts, Walk
from .names import external_tools, pinned_tools
from .reporting import Reporter

MAX_USES_LISTED = 5  # uses of an undescribed type named in its diagnostic; the rest counted


def _has_text(value: object) -> bool:
    return isinstance(value, str) and bool(value.strip())


def check_descriptions(facts: ProjectFacts, report: Reporter) -> None:
    """TC201, from one place: the properties the schema walk found undescribed, then each
    undescribed named type such properties use, then the tools."""
    report.relay(facts.found)
    _type_descriptions(facts, report)
    _tool_descriptions(facts, report)


def _tool_descriptions(facts: ProjectFacts, report: Reporter) -> None:
    """Every tool has a non-empty description."""
    for parsed in facts.modules:
        section = parsed.section("tools")
        for name, tool in parsed.tools.items():
            if not _has_text(tool.description):
                span = _at_value(parsed, ("tools", name), section.key_spans[name])
                node = section[name]
                report("TC201", _tool_message(f"tool '{name}'", tool.description),
                       span, notes=_one_level_down(node, "params"),
                       fixes=description_stub(node, parsed.file.text))
        for ts_name, name, span in external_tools(parsed):
            ts = parsed.toolsets[ts_name]
            ext = getattr(ts, "tools", {}).get(name)
            if ext is not None and not _has_text(ext.description):
                span = _at_value(parsed, ("toolsets", ts_name, "tools", name), span)
                report("TC201", _tool_message(f"external tool '{name}'", ext.description),
                       span, severity=Severity.WARNING)
        for ts_name, name, span in pinned_tools(parsed):
            pinned = getattr(parsed.toolsets[ts_name], "tools", {}).get(name)
            if pinned is not None and not _has_text(pinned.description):
                what = f"pinned tool '{name}' of toolset '{ts_name}'"
                span = _at_value(parsed, ("toolsets", ts_name, "tools", name), span)
                report("TC201", _tool_message(what, pinned.description), span,
                       severity=Severity.WARNING)


def _at_value(parsed: ParsedModule, path: tuple[str, ...], key_span: Span) -> Span:
    """Where an empty description is reported: at its value (``description: ""`` at the
    ``""``), a bad value like any other; a missing one at the key that lacks it."""
    node: object = parsed.raw
    for part in path:
        node = node.get(part) if isinstance(node, YMap) else None
    if isinstance(node, YMap):
        return node.value_spans.get("description", key_span)
    return key_span


STUB = "TODO"  # what a description stub says: the author writes the text over it


def description_stub(node: object, text: str) -> tuple[Fix, ...]:
    """The fix that gives the mapping ``node`` (of a spec of ``text``) a `description`
    to fill in, as its first key: a line of its own in a block mapping, the first entry
    of a one-line one."""
    if not isinstance(node, YMap) or "description" in node or not node:
        return ()
    span = node.span
    lines = text.splitlines()
    if not 0 < span.line <= len(lines):
        return ()
    at = Span(span.path, span.line, span.col, 0)
    if lines[span.line - 1][span.col - 1:span.col] == "{":
        return (Fix("Add a description", at._replace(col=span.col + 1),
                    f"description: {STUB}, "),)
    return (Fix("Add a description", at, f"description: {STUB}\n{' ' * (span.col - 1)}"),)


def _one_level_down(node: object, section: str) -> tuple[str, ...]:
    """A `description` text written one level too deep, under ``section`` (where it is
    read as a parameter or property and reported as such, TC202)."""
    inner = node.get(section) if isinstance(node, YMap) else None
    if not isinstance(inner, YMap) or not isinstance(inner.get("description"), str):
        return ()
    line = inner.key_spans["description"].line
    return (f"the `description` on line {line} is under `{section}:`, one level too deep",)


def _tool_message(what: str, description: str | None) -> str:
    if description is None:
        return f"{what} has no description; it is what the model reads to choose the tool"
    return f"{what} has an empty description; it is what the model reads to choose the tool"


def _misspelt_description(node: YMap) -> bool:
    return any(key not in KEYWORDS and difflib.get_close_matches(key, ["description"], 1, 0.6)
               for key in node)


def check_property_description(walk: Walk, node: YMap, key_span: Span,
                               trail: tuple[str, ...] | None) -> None:
    """TC201: every property has a description, its own or its named type's."""
    if trail is None:
        return
    own = node.get("description")
    if _has_text(own):
        return
    if own is not None and not isinstance(own, str):
        return  # not a string: the keyword's own check says so
    if own is None and _misspelt_description(node):
        return  # "unknown keyword 'descripton'; did you mean 'description'?" says it all
    ref = node.get("type")
    named = None
    if walk.toolc and isinstance(ref, str) and ref not in JSON_TYPES:
        named = walk.project.registry.lookup(walk.root.module, ref)
        if named is None or walk.project.type_description(named):
            return  # described by its type (or the type is unknown, reported already)
    what = "parameter" if walk.root.kind == "params" and len(trail) == 1 else "property"
    shown = ".".join(trail)
    if named is not None and own is None:  # the type's problem: said once, at the type
        use = f"{what} '{shown}' of {walk.root.describe()}"
        walk.undescribed.setdefault(named, []).append((use, key_span))
        return
    state = "an empty description" if own is not None else "no description"
    message = f"{what} '{shown}' of {walk.root.describe()} has {state}"
    notes = (f"nor has its type '{ref}'",) if named is not None else \
        _one_level_down(node, "properties")
    span = node.value_spans.get("description", key_span) if own is not None else key_span
    walk.report("TC201", message, span, notes=notes,
                severity=Severity.WARNING if walk.root.raw else None,
                fixes=description_stub(node, walk.root.module.file.text))


def _type_descriptions(facts: ProjectFacts, report: Reporter) -> None:
    """A named type without a description, used by properties without their own, at the
    type, once: giving the type a description describes them all."""
    for named, uses in facts.undescribed_uses.items():
        count = len(uses)
        listed = [f"used by {use} (line {span.line}{_elsewhere(span, named.span)})"
                  for use, span in uses[:MAX_USES_LISTED]]
        if count > MAX_USES_LISTED:
            listed.append(f"and {count - MAX_USES_LISTED} more use(s)")
        them = "has the property that uses it" if count == 1 else (
            f"have the {count} properties that use it")
        listed.append("a description here describes every use that has none of its own")
        node = named.node
        report("TC201", f"type '{named.name}' has no description, nor {them}",
               named.span, notes=tuple(listed),
               related=tuple(Related(span, f"used by {use}") for use, span in uses),
               fixes=description_stub(node, named.module.file.text))


def _elsewhere(span: Span, home: Span) -> str:
    return "" if span.path == home.path else f" of {span.path}"
