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
are counted apart, whatever their severity.
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


def summary(changes: Sequence[Change], fail_on: str = "error") -> str:
    """What the changes are and whether the gate at ``fail_on`` refuses them."""
    if not changes:
        return NO_CHANGES
    live = [c for c in changes if not c.accepted]
    errors = [c for c in live if c.severity is Severity.ERROR]
    lost = sum(1 for c in errors if c.rule == "DESCRIPTION_REMOVED")
    parts = [_count(len(errors) - lost, "breaking"),
             _count(lost, "description lost", "descriptions lost"),
             _count(sum(1 for c in live if c.severity is Severity.WARNING), "risky"),
             _count(sum(1 for c in live if c.severity is Severity.INFO), "compatible"),
             _count(len(changes) - len(live), "accepted")]
    tools = len({c.tools for c in changes})
    head = (f"{_count(len(changes), 'change', 'changes')} in {_count(tools, 'tool', 'tools')}: "
            + ", ".join(p for p in parts if p))
    refused = len(failing(changes, fail_on))
    if not refused:
        return f"{head}; none fails CI"
    which = ("it" if len(changes) == 1 else
             "them" if refused == len(changes) else f"{refused} of them")
    return f"{head}; CI fails on {which} unless accepted in [tool.toolc.diff]"
