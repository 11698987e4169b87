"""What each model provider takes of a published tool: one table per target, one rule set.

A *target* is a provider's model API as an agent framework reaches it, which reads a
dialect of JSON Schema: ``openai-strict`` (OpenAI function calling, ``strict: true``),
``anthropic-strict`` (Claude tool use, ``strict: true``), ``gemini`` (a Gemini
``FunctionDeclaration``'s ``parameters``). Each has a table, a module of its own with
its sources and the date it was checked (:mod:`.table` says what a row holds), and
:func:`check_tool` / :func:`check_request` apply one to published tools.

The build reports the findings at the spec lines (``toolc.checks.targets``); the OpenAI
Agents adapter's ``strict_problems`` says the same findings as text; a target's view of
a tool (a lowering) reads the same rows. Plain data and plain JSON: nothing here imports
the compiler, a framework or a provider's SDK.
"""

from __future__ import annotations

from . import anthropic_strict, gemini, openai_strict
from .rules import Finding, check_request, check_tool
from .table import Fate, Limit, Lowering, Row, Target

TARGETS: dict[str, Target] = {
    table.name: table
    for table in (openai_strict.TABLE, anthropic_strict.TABLE, gemini.TABLE)
}

__all__ = [
    "TARGETS",
    "Fate",
    "Finding",
    "Limit",
    "Lowering",
    "Row",
    "Target",
    "check_request",
    "check_tool",
]
