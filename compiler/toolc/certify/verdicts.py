"""What certifying one module reported, kept as data so that a later build can say it again.

A build that is handed a module's verdict (``toolc.reuse`` hands those of the modules
whose key is unchanged since the last clean build) does not serve the module: it says
the verdict again in its place (:func:`replay`), the inline suppressions it used counted
as used. Certification gives back the verdict of every module it served
(:func:`verdict_of`), for the next build to be handed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import Diagnostic, DiagnosticBag

Mark = tuple[str, int, str]  # a suppression used: (spec path, line, code)


@dataclass(slots=True)
class Verdict:
    """What certifying one module reported, and which inline suppressions it used."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)


def used_marks(bag: DiagnosticBag) -> set[Mark]:
    """Every (path, line, code) an inline suppression has suppressed so far."""
    return {(path, line, code) for path, lines in bag.suppressions.items()
            for line, item in lines.items() for code in item.used}


def replay(bag: DiagnosticBag, verdict: Verdict) -> None:
    """Say again what certifying a module said, and count its suppressions as used."""
    for path, line, code in verdict.marks:
        found = bag.suppressions.get(path, {}).get(line)
        if found is not None and code in found.codes:
            found.used.add(code)
    bag.items.extend(verdict.diagnostics)


def verdict_of(bag: DiagnosticBag, before: set[Mark], items: list[Diagnostic]) -> Verdict:
    """What certifying a module reported (``items``), with the suppressions it used
    (``before``: the marks used until it was judged)."""
    return Verdict(list(items), sorted(used_marks(bag) - before))
