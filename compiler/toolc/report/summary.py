"""The one summary of classified changes that ``toolc build`` and ``toolc diff`` end with.

Both say the same thing in the same words, so what an author reads after a build is
what the reviewer reads in the pull request. It speaks of changes, not errors (a
breaking change is no mistake in the specs), counts rows (a change in five modules'
golden files is one), and says what the gate makes of them at its threshold and how to
take one::

    5 changes in 3 tools: 3 breaking, 1 description lost, 1 compatible; CI fails on 4
    of them unless accepted in [tool.toolc.diff]

The words follow the severities: error is ``breaking`` (a lost description is said
apart, ``description lost``), warning ``risky``, info ``compatible``; accepted changes
are counted apart, whatever their severity. Compared with a base, a weakening of the
gate's rules (``toolc.diff.gate``) comes first, and counts in the verdict; the changes
to the rules have a line of their own too, :func:`rules_summary`.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..diagnostics import Severity
from ..diff.policy import failing
from ..diff.result import Change

NO_CHANGES = "No changes in the published tools."


def _count(count: int, one: str, many: str | None = None) -> str:
    if not count:
        return ""
    return f"{count} {one if count == 1 else (many or one)}"


def summary(changes: Sequence[Change], fail_on: str = "error",
            policy: Sequence[Change] = ()) -> str:
    """What the changes are and whether the gate at ``fail_on`` refuses them, or the
    changes to its rules (``policy``, toolc.diff.gate: a weakening is counted first)."""
    if not changes and not policy:
        return NO_CHANGES
    live = [c for c in changes if not c.accepted]
    errors = [c for c in live if c.severity is Severity.ERROR]
    lost = sum(1 for c in errors if c.rule == "DESCRIPTION_REMOVED")
    weakened = sum(1 for c in policy if c.rule == "POLICY_WEAKENED" and not c.accepted)
    parts = [_count(weakened, "weakening of the gate's rules", "weakenings of the gate's rules"),
             _count(len(errors) - lost, "breaking"),
             _count(lost, "description lost", "descriptions lost"),
             _count(sum(1 for c in live if c.severity is Severity.WARNING), "risky"),
             _count(sum(1 for c in live if c.severity is Severity.INFO), "compatible"),
             _count(len(changes) - len(live), "accepted")]
    tools = len({c.tools for c in changes})
    head = (f"{_count(len(changes), 'change', 'changes')} in {_count(tools, 'tool', 'tools')}"
            if changes else "No change to the published tools")
    said = ", ".join(p for p in parts if p)
    head += f": {said}" if said else ""
    refused, listed = len(failing([*policy, *changes], fail_on)), len(policy) + len(changes)
    if not refused:
        return f"{head}; none fails CI"
    which = ("it" if listed == 1 else
             "them" if refused == listed else f"{refused} of them")
    return f"{head}; CI fails on {which} unless accepted in [tool.toolc.diff]"


def rules_summary(policy: Sequence[Change]) -> str:
    """``The pull request changes the gate's rules: 1 weakens them, 1 acceptance added;
    the base's rules judge it.``"""
    def count(rule: str, one: str, many: str) -> str:
        return _count(sum(1 for c in policy if c.rule == rule and not c.accepted), one, many)

    parts = [count("POLICY_WEAKENED", "weakens them", "weaken them"),
             count("POLICY_TIGHTENED", "tightens them", "tighten them"),
             count("ACCEPTANCE_ADDED", "acceptance added", "acceptances added"),
             _count(sum(1 for c in policy if c.accepted), "accepted")]
    return (f"The pull request changes the gate's rules: {', '.join(p for p in parts if p)}; "
            "the base's rules judge it.")
