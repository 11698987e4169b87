"""Every published schema resolves on its own, offline, and compiles in the runtime's engine.

References are rewritten as the schemas are written out (:mod:`toolc.publish.schema_refs`); what
could not be rewritten so that it resolves is reported here, at the ``$ref``: a URL
(TC210), a local file that cannot be inlined (TC211), a ``#``-reference to nothing
(TC212). Then every published ``inputSchema`` and ``outputSchema`` is compiled with
jsonschema-rs, the validator that checks each call, with retrieval refused: what it
cannot compile (TC213) would otherwise be a tool that fails at every call.
"""

from __future__ import annotations

import json
from typing import Any

from ..diagnostics import Severity, Span
from ..loader import YList, YMap
from ..publish.json_documents import REFERENCES, to_json
from .facts import PINNED_NOTE, ProjectFacts, SchemaRoot
from .reporting import Reporter

_PUBLISHED = ("params", "returns", "external", "pinned", "pinned_output")


def check_references(facts: ProjectFacts, report: Reporter) -> None:
    """TC210/TC211/TC212 at each reference that cannot be published so that it resolves."""
    seen: set[tuple[str, Span]] = set()
    for root in facts.roots:
        if root.raw or not facts.clean(root):
            continue
        for problem in facts.write(root).problems:
            key = (problem.code, problem.span)
            if key in seen:  # a named type's reference, once however often it is used
                continue
            seen.add(key)
            report(problem.code, problem.message, problem.span, notes=_notes(problem.code))


def _notes(code: str) -> tuple[str, ...]:
    if code == "TC210":
        return (("save the schema in the project and `$ref` it by its relative path "
                "(e.g. `schemas/common.json#/$defs/Point`): toolc inlines it"),)
    if code == "TC212":
        return (("`#` names the schema the reference is written in (a parameter, "
                "`returns`, a named type), wherever it is published"),)
    return ()


def check_compiles(facts: ProjectFacts, report: Reporter) -> None:
    """TC213: jsonschema-rs compiles every published schema, nothing retrieved."""
    # lazy: loads jsonschema_rs
    from ..model import engine

    done: dict[str, str | None] = {}
    for root in facts.roots:
        if root.kind not in _PUBLISHED or not facts.clean(root) or _unresolved(facts, root):
            continue
        if root.raw:
            schema, references = to_json(root.node), _raw_references(root.node)
        else:
            written = facts.write(root)
            schema, references = written.schema, written.references
        problem = _problem(engine, schema, done)
        if problem is None:
            continue
        span = next((at for ref, at in references.items() if ref in problem
                     or ref.lstrip("#") in problem), root.span)
        what = "output schema" if root.kind in ("returns", "pinned_output") else "input schema"
        message = (f"the published {what} of {root.describe()} cannot be compiled by "
                   f"jsonschema-rs, which checks every call: {problem}")
        if root.pinned:
            report("TC213", message, span, severity=Severity.WARNING,
                   notes=(PINNED_NOTE,))
        else:
            report("TC213", message, span)


def _unresolved(facts: ProjectFacts, root: SchemaRoot) -> bool:
    """A document whose references cannot resolve (TC210-TC212 say why): nothing more to
    say about it."""
    return not root.raw and bool(facts.write(root).problems)


def _problem(engine: Any, schema: Any, done: dict[str, str | None]) -> str | None:
    """Why the schema cannot be compiled; equal schemas are compiled once."""

    try:
        key = json.dumps(schema, sort_keys=True)
    except (TypeError, ValueError, RecursionError):
        return engine.compile_problem(schema)  # type: ignore[no-any-return]
    if key not in done:
        done[key] = engine.compile_problem(schema)
    return done[key]


def _raw_references(node: Any) -> dict[str, Span]:
    """Every ``$ref`` of a raw schema and where it is written (to say which one failed)."""
    found: dict[str, Span] = {}
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, YMap):
            for key, value in item.items():
                if key in REFERENCES and isinstance(value, str):
                    found.setdefault(value, item.value_spans[key])
                else:
                    stack.append(value)
        elif isinstance(item, YList):
            stack.extend(item)
    return found
