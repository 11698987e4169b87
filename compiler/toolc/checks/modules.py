"""Module names: valid Python identifiers, one spec file each."""

from __future__ import annotations

import keyword

from ..diagnostics import Span
from ..model.parse import ParsedModule
from .facts import ProjectFacts
from .reporting import Reporter


def is_identifier(name: str) -> bool:
    """An ASCII Python identifier that is not a keyword."""
    return name.isascii() and name.isidentifier() and not keyword.iskeyword(name)


def _module_span(parsed: ParsedModule) -> Span:
    return parsed.raw.value_spans.get("module", parsed.top_span())


def check_module_names(facts: ProjectFacts, report: Reporter) -> None:
    """TC309: ``module`` must be an ASCII Python identifier and not a keyword."""
    for parsed in facts.modules:
        name = parsed.name
        if name is None or is_identifier(name):
            continue
        why = "a Python keyword" if keyword.iskeyword(name) else "not an ASCII Python identifier"
        report("TC309", f"module name '{name}' is {why}", _module_span(parsed),
               notes=(("the module becomes `generated/<module>.py`: use letters, "
                      "digits and '_', not starting with a digit"),))


def check_duplicate_modules(facts: ProjectFacts, report: Reporter) -> None:
    """TC308: two files must not declare the same module."""
    for parsed in facts.modules:
        if parsed.name is None:
            continue
        first = facts.by_name[parsed.name]
        if first is not parsed:
            where = _module_span(first)
            report("TC308", f"module '{parsed.name}' is already declared in "
                   f"{where.path}:{where.line}", _module_span(parsed))
