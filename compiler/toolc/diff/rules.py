"""The catalogue of schema-change rules, and one small function per rule family.

Input schemas describe what callers send: a change is breaking when arguments that were
valid become invalid (narrowing). Output schemas describe what consumers receive: a
change is breaking when results can take a shape consumers did not expect (widening).
So most rules carry two severities, one per side. Changes outside both schemas (the
tool's description, title, annotations, ``_meta``) use the input column.

The functions here look at one schema node (or one tool) and yield changes for that
node only; :mod:`toolc.diff.classify` walks the tree and calls them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from ..diagnostics import Severity
from ..runtime.metakeys import REQUIRES_APPROVAL
from .result import At, Change, Json, SchemaKind, compact, same

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO


@dataclass(frozen=True, slots=True)
class DiffRule:
    id: str
    purpose: str
    input: Severity
    output: Severity
    input_open: Severity | None = None
    """PROPERTY_REMOVED only: the input severity when the object admits other properties."""

    def severity(self, kind: SchemaKind, *, open_object: bool = False) -> Severity:
        if kind == "output":
            return self.output
        if open_object and self.input_open is not None:
            return self.input_open
        return self.input


def _catalogue(*rows: DiffRule) -> dict[str, DiffRule]:
    return {r.id: r for r in rows}


# IDs are stable: tests, CI logs and policies name them. Only ever add.
RULES: dict[str, DiffRule] = _catalogue(
    DiffRule("TOOL_REMOVED", "A published tool is gone: every caller of it breaks.", E, E),
    DiffRule("TOOL_ADDED", "A new tool is published.", I, I),
    DiffRule("TOOL_RENAMED", "A published tool has a new name (its spec's `renamed_from`, or "
             "the same tool under another name): calls by the old name fail.", E, E),
    DiffRule("PROPERTY_REMOVED", "A property is gone: callers that send it are rejected "
             "when the object admits no other properties (else it is ignored); consumers "
             "that read it break.", E, E, input_open=W),
    DiffRule("PROPERTY_ADDED_REQUIRED", "A new property that must be given: old calls "
             "lack it. In output, consumers simply receive more.", E, I),
    DiffRule("PROPERTY_ADDED_OPTIONAL", "A new property that may be left out.", I, I),
    DiffRule("REQUIRED_ADDED", "An existing property became required: calls that "
             "left it out are rejected.", E, I),
    DiffRule("REQUIRED_REMOVED", "A property is no longer required: consumers that "
             "relied on it being present may not get it.", I, E),
    DiffRule("TYPE_NARROWED", "The schema admits fewer types (a type, an anyOf/oneOf "
             "branch or null dropped, number became integer).", E, I),
    DiffRule("TYPE_WIDENED", "The schema admits more types (a type, an anyOf/oneOf "
             "branch or null added, integer became number).", I, E),
    DiffRule("ENUM_VALUE_REMOVED", "An enum value is no longer admitted.", E, I),
    DiffRule("ENUM_VALUE_ADDED", "An enum value is newly admitted.", I, E),
    DiffRule("CONSTRAINT_TIGHTENED", "A bound, length, count, pattern, uniqueItems, "
             "multipleOf, const, enum or allOf branch now rejects values that passed; a "
             "changed pattern or const cannot be compared, so in input it counts as this.", E, I),
    DiffRule("CONSTRAINT_LOOSENED", "A constraint was relaxed or dropped, so values that "
             "were rejected pass; a removed format, and in output a changed pattern or "
             "const, count as this.", I, E),
    DiffRule("FORMAT_ADDED", "A `format` was added or changed; validators may start "
             "rejecting values that passed.", W, W),
    DiffRule("DEFAULT_CHANGED", "A `default` was added, removed or changed: the "
             "behaviour of calls that leave the value out changes.", W, W),
    DiffRule("DESCRIPTION_REMOVED", "A description is gone (or moved from the property "
             "into an anyOf/oneOf branch only, where many clients never show it): the "
             "model loses what it read.", E, E),
    DiffRule("DESCRIPTION_CHANGED", "A description's text changed: the model reads "
             "something else.", I, I),
    DiffRule("DESCRIPTION_ADDED", "A description appeared.", I, I),
    DiffRule("PINNED_DESCRIPTION_CHANGED", "A description of a tool pinned from a "
             "third-party MCP server changed or appeared: the server tells the model "
             "something else than was reviewed (a rug pull shows here).", W, W),
    DiffRule("ANNOTATION_CHANGED", "A behaviour hint (readOnlyHint, destructiveHint, "
             "idempotentHint, openWorldHint) changed: clients decide approvals on it.", W, W),
    DiffRule("TITLE_CHANGED", "A title (the tool's, annotations.title or a schema's) "
             "was added, removed or changed.", I, I),
    DiffRule("OUTPUT_SCHEMA_ADDED", "The tool now declares an outputSchema: results "
             "gain a checked shape.", I, I),
    DiffRule("OUTPUT_SCHEMA_REMOVED", "The outputSchema is gone: consumers lose the "
             "result shape they relied on.", E, E),
    DiffRule("META_CHANGED", "A `_meta` entry was added, removed or changed; the model "
             "never sees it, some clients read it.", I, I),
    DiffRule("APPROVAL_REMOVED", "Calls of the tool no longer pause for approval "
             "(`_meta` `toolc/requiresApproval` gone): they now run unattended.", E, E),
    DiffRule("APPROVAL_ADDED", "Calls of the tool now pause for approval: callers that "
             "cannot approve (no elicitation, no deferred-call handling) can no longer "
             "run it.", W, W),
    DiffRule("OTHER_CHANGED", "A change no other rule classifies (an unknown keyword, "
             "`not`, `if`, `examples`, a remote `$ref`): review it by hand.", W, W),
    # The gate's own rules (toolc.diff.gate): about the pull request's pyproject.toml,
    # compared with the base's, not about a schema.
    DiffRule("POLICY_WEAKENED", "The pull request weakens the gate's rules (a rule "
             "lowered or off, a higher `fail_on`, a per-file severity that newly covers "
             "files): the base's rules still judge it.", E, E),
    DiffRule("POLICY_TIGHTENED", "The pull request tightens the gate's rules: the base's "
             "still judge it, its own from the merge on.", I, I),
    DiffRule("ACCEPTANCE_ADDED", "The pull request accepts a change the base's rules do "
             "not: shown with its reason as accepted in this pull request.", I, I),
)

POLICY_RULES = frozenset({"POLICY_WEAKENED", "POLICY_TIGHTENED", "ACCEPTANCE_ADDED"})
"""The rules of a pull request's changes to the gate itself, never of a schema change."""

del E, W, I


def emit(at: At, rule: str, message: str, old: Json = None, new: Json = None,
         *, open_object: bool = False) -> Change:
    """Build the change for ``rule`` at ``at``, with the severity of its side."""
    kind = at.kind
    severity = RULES[rule].severity(kind, open_object=open_object)
    return Change(at.tool, at.pointer, rule, severity, message, old, new, kind)


def breaking(at: At, narrower: str, wider: str) -> str:
    """For a change that is both narrower and wider: the rule that breaks on this side."""
    return wider if at.kind == "output" else narrower


# -- tool level -------------------------------------------------------------------------

def tool_removed(at: At, old: Json) -> Change:
    return emit(at, "TOOL_REMOVED", f"tool '{at.tool}' was removed", old, None)


def tool_added(at: At, new: Json) -> Change:
    return emit(at, "TOOL_ADDED", f"tool '{at.tool}' was added", None, new)


def tool_renamed(at: At, old_name: str, new_name: str) -> Change:
    """At the tool's ``name``, which is all that changed of it here."""
    return emit(at.child("name"), "TOOL_RENAMED", f"tool '{at.tool}' was renamed from "
                f"'{old_name}': calls to '{old_name}' now fail", old_name, new_name)


def output_schema_presence(at: At, old: Json, new: Json) -> Change:
    if new is None:
        return emit(at, "OUTPUT_SCHEMA_REMOVED", "the outputSchema was removed", old, None)
    return emit(at, "OUTPUT_SCHEMA_ADDED", "an outputSchema was added", None, new)


# MCP's defaults, for saying when a hint now spells out what clients assumed anyway.
HINT_DEFAULTS = {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False,
                 "openWorldHint": True}


def tool_annotations(old: Json, new: Json, at: At) -> Iterator[Change]:
    old = old if isinstance(old, dict) else {}
    new = new if isinstance(new, dict) else {}
    for key in sorted(set(old) | set(new)):
        had, has = key in old, key in new
        before, after = old.get(key), new.get(key)
        if had == has and same(before, after):
            continue
        if key == "title":
            yield from title({"title": before} if had else {}, {"title": after} if has else {},
                             at, what="annotations.title")
            continue
        message = f"{key} {what_happened(before, after, had, has)}"
        if key in HINT_DEFAULTS:
            fallback = HINT_DEFAULTS[key]
            if same(before if had else fallback, after if has else fallback):
                message += " (the MCP default, so clients see no difference)"
        yield emit(at.child(key), "ANNOTATION_CHANGED", message, before, after)


def meta(old: Json, new: Json, at: At) -> Iterator[Change]:
    old = {} if old is None else old
    new = {} if new is None else new
    if not (isinstance(old, dict) and isinstance(new, dict)):
        message = f"_meta {what_happened(old, new, True, True)}"
        yield emit(at, "META_CHANGED", message, old, new)
        return
    for key in sorted(set(old) | set(new)):
        if key in old and key in new and same(old[key], new[key]):
            continue
        if key == REQUIRES_APPROVAL:
            yield approval(old.get(key), new.get(key), at.child(key))
            continue
        change = what_happened(old.get(key), new.get(key), key in old, key in new)
        message = f"_meta entry '{key}' {change}"
        yield emit(at.child(key), "META_CHANGED", message, old.get(key), new.get(key))


def approval(old: Json, new: Json, at: At) -> Change:
    """APPROVAL_ADDED/REMOVED: anything but ``true`` (absent, ``false``) asks nothing."""
    if new is True:
        return emit(at, "APPROVAL_ADDED", f"tool '{at.tool}' now requires approval", old, new)
    if old is True:
        return emit(at, "APPROVAL_REMOVED", f"tool '{at.tool}' no longer requires approval",
                    old, new)
    change = what_happened(old, new, old is not None, new is not None)
    return emit(at, "META_CHANGED", f"_meta entry '{REQUIRES_APPROVAL}' {change}", old, new)


def what_happened(old: Json, new: Json, had: bool, has: bool) -> str:
    if not had:
        return f"was added ({compact(new)})"
    if not has:
        return f"was removed (was {compact(old)})"
    return f"changed from {compact(old)} to {compact(new)}"


def other(at: At, keyword: str, old: Json, new: Json, had: bool, has: bool) -> Change:
    where = at.describe()
    message = f"{where}: {keyword} {what_happened(old, new, had, has)}; no rule classifies it"
    return emit(at.child(keyword), "OTHER_CHANGED", message, old, new)


# -- texts -----------------------------------------------------------------------------

def _text(value: Json) -> str | None:
    # A blank description is no description: the model reads nothing.
    if value is None:
        return None
    text = value if isinstance(value, str) else compact(value)
    return text if text.strip() else None


def description(old: dict[str, Json], new: dict[str, Json], at: At, *,
                moved_into: str | None = None, hide_added: frozenset[str] = frozenset(),
                hide_removed: frozenset[str] = frozenset()) -> Iterator[Change]:
    """DESCRIPTION_REMOVED/CHANGED/ADDED; ``moved_into`` names the combinator that took it."""
    before, after = _text(old.get("description")), _text(new.get("description"))
    where, here = at.describe(), at.child("description")
    if before == after:
        return
    if after is None and before is not None and before not in hide_removed:
        message = f"{where}: description was removed"
        if moved_into:
            message += (f"; it now sits only inside an {moved_into} branch, "
                        "which many clients never show")
        yield emit(here, "DESCRIPTION_REMOVED", message, before, None)
    elif before is None and after is not None and after not in hide_added:
        yield emit(here, "DESCRIPTION_ADDED", f"{where}: description was added", None, after)
    elif before is not None and after is not None:
        yield emit(here, "DESCRIPTION_CHANGED", f"{where}: description changed", before, after)


_PINNED_TEXT = frozenset({"DESCRIPTION_CHANGED", "DESCRIPTION_ADDED"})


def pinned_description(change: Change) -> Change:
    """A description change in a pinned third-party tool, as PINNED_DESCRIPTION_CHANGED:
    the text the model reads is the server's, and it moved since review."""
    if change.rule not in _PINNED_TEXT:
        return change
    said = change.message.removesuffix("description changed").removesuffix(
        "description was added")
    how = "changed" if change.rule == "DESCRIPTION_CHANGED" else "appeared"
    message = (f"{said}the pinned server's description {how}: review what it now tells "
               "the model")
    rule = "PINNED_DESCRIPTION_CHANGED"
    return replace(change, rule=rule, severity=RULES[rule].severity(change.schema),
                   message=message)


def title(old: dict[str, Json], new: dict[str, Json], at: At, *, what: str = "title"
          ) -> Iterator[Change]:
    """TITLE_CHANGED for the tool's title, annotations.title or a schema's title."""
    had, has = "title" in old, "title" in new
    before, after = old.get("title"), new.get("title")
    if had == has and same(before, after):
        return
    owner = f"tool '{at.tool}'" if at.kind == "tool" else at.describe()
    message = f"{owner}: {what} {what_happened(before, after, had, has)}"
    yield emit(at.child("title"), "TITLE_CHANGED", message, before, after)


def default(old: dict[str, Json], new: dict[str, Json], at: At) -> Iterator[Change]:
    had, has = "default" in old, "default" in new
    if had == has and same(old.get("default"), new.get("default")):
        return
    before, after = old.get("default"), new.get("default")
    message = f"{at.describe()}: default {what_happened(before, after, had, has)}"
    yield emit(at.child("default"), "DEFAULT_CHANGED", message, before, after)
