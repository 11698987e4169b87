"""A target's view of a published tool, and what of it could not be lowered.

:func:`lower_tool` is the one way a view is made: the build publishes it as a golden
file (``toolc.publish.views``) and an adapter asked for a provider's view lowers the
listed tool with it, so that what the framework is handed is the reviewed file. Each
target's lowering is a module of its own (``lowering_openai.py``,
``lowering_anthropic.py``, ``lowering_gemini.py``) over the shared walk of
:mod:`.lowering`.

A view's problems are the findings of the target's check (:func:`check_tool` on the
canonical tool) that no move of the lowering carries, and what the lowering itself could
not write: the build reports them at their spec lines, the adapters refuse a tool that
has any. Its changes are the findings a move carries but after which the view takes
other arguments than the canonical schema: the build says them as warnings.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .lowering import (
    LOWERED_KEY,
    TARGET_KEY,
    UNLOWERED_KEY,
    Lowerer,
    Moved,
    plain_copy,
)
from .lowering_anthropic import AnthropicLowering
from .lowering_gemini import GeminiLowering
from .lowering_openai import OpenAILowering
from .refs import shape_refs
from .rules import Finding, check_request, check_tool
from .table import Fate, Lowering, Target

LOWERINGS: dict[str, type[Lowerer]] = {
    "openai-strict": OpenAILowering,
    "anthropic-strict": AnthropicLowering,
    "gemini": GeminiLowering,
}


@dataclass(slots=True)
class View:
    """A tool as one target is sent it, with what was moved and what could not be."""

    target: str
    tool: dict[str, Any]
    moved: list[Moved] = field(default_factory=list)
    problems: list[Finding] = field(default_factory=list)
    # What the view carries but takes other arguments for (an object closed that the
    # schema leaves open, `oneOf` as `anyOf`): findings of their own, never fatal.
    changes: list[Finding] = field(default_factory=list)

    @property
    def input_schema(self) -> Any:
        return self.tool.get("inputSchema")

    def as_json(self) -> dict[str, Any]:
        """The view's golden file: the tool, its target, what moved, what could not."""
        found = {**self.tool, TARGET_KEY: self.target,
                 LOWERED_KEY: [m.as_json() for m in self.moved]}
        if self.problems:
            found[UNLOWERED_KEY] = [{"pointer": f.pointer, "keyword": f.keyword,
                                     "why": f.says()} for f in self.problems]
        return found


def lower_tool(target: Target, tool: Mapping[str, Any], refs: str = "as-written") -> View:
    """``tool`` (as published) as ``target`` is sent it: its name, its description and
    its input schema in the ``$ref`` shape ``refs`` (:mod:`.refs`), lowered (see
    :mod:`.lowering`)."""
    name = tool.get("name")
    view = View(target.name, {"name": name})
    if isinstance(tool.get("description"), str):
        view.tool["description"] = tool["description"]
    schema = plain_copy(tool.get("inputSchema", {}))
    lowerer = LOWERINGS[target.name](target, schema)
    recursive: list[str] = []
    try:
        schema, recursive = shape_refs(schema, refs)
        lowerer.canonical_root = schema
        lowered = lowerer.root(schema)
    except RecursionError:
        lowered = schema
        lowerer.moved.clear()
        lowerer.problem("/inputSchema", "", "a schema nested too deeply",
                        "the schema is nested too deeply to lower")
    view.tool["inputSchema"] = lowered
    view.moved = sorted(lowerer.moved, key=lambda m: (m.pointer, m.keyword))
    found = check_tool(target, name if isinstance(name, str) else None, schema)
    if not any(f.rule == "reference" for f in found):  # else the target's own says it
        lowerer.problems += [_not_inlined(target, ptr) for ptr in recursive]
    # What the lowering could not write is said once, as its own problem; what a lossy
    # move carries is said as what it is: a change.
    failed = {(p.pointer, p.keyword) for p in lowerer.problems}
    view.problems = [f for f in found if (f.pointer, f.keyword) not in failed
                     and not carried(f, lowerer.moved)] + lowerer.problems
    view.changes = [_as_change(f) for f in found
                    if (f.pointer, f.keyword) in lowerer.lossy and carried(f, lowerer.moved)]
    return view


# What a lossy move changes, by rule (a keyword's is its row's own words).
_LOSSY = {
    "optional-property": (
        ("it takes null already, so the view makes it required as it is: the model can "
         "no longer leave it out, and absent and null become one"),
        ("make it required, or take null out of it (the view then writes a null for "
         "absent), or leave the target out of `targets`")),
    "open-object": (
        ("the view closes it (`additionalProperties: false`): the model can no longer "
         "send the other properties the schema allows"),
        ("give the object `additionalProperties: false` if none are meant, or leave the "
         "target out of `targets`")),
}


def _as_change(finding: Finding) -> Finding:
    why, fix = _LOSSY.get(finding.rule, (finding.why, finding.fix))
    return dataclasses.replace(finding, fate=Fate.CHANGED, why=why, fix=fix)


def _not_inlined(target: Target, ptr: str) -> Finding:
    return Finding(target.name, "reference", Fate.REJECTED, ptr, "$ref",
                   'a recursive schema cannot be written out (`refs = "inline"`)',
                   'give this target `refs = "defs"` or "as-written", or bound the nesting',
                   Lowering.NO, "a recursive reference")


def request_problems(target: Target, views: list[View]) -> list[Finding]:
    """The target's bounds on one request, over the views sent in it."""
    return check_request(target, [(str(v.tool.get("name")), v.input_schema) for v in views])


def carried(finding: Finding, moved: list[Moved]) -> bool:
    """Whether a finding of the target's check is taken care of by a move: one at its
    pointer for its keyword (unless the table says it cannot be lowered), or one that
    took a whole part above it away."""
    for m in moved:
        if m.pointer == finding.pointer and m.keyword == finding.keyword \
                and finding.lowering is not Lowering.NO:
            return True
        if m.lowering in (Lowering.DESCRIBE, Lowering.DROP) and \
                finding.pointer.startswith(m.pointer + "/"):
            return True
    return False
