"""A check as data (what it runs, the rule codes it reports, what it is for) and the
reporter it is handed, which takes only those codes.

Every rule code belongs to one check (``tests/checks/test_registry.py``): a rule is
reported from one place, so its wording and its suppression live in one place too. A
code a check did not declare is a bug in toolc, never a user's problem: the reporter
raises AssertionError (on purpose not ``assert``, which ``python -O`` would drop).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..diagnostics import DiagnosticBag, Fix, Related, Severity, Span
from .facts import ProjectFacts, StepFinding


class Reporter:
    """What a check reports through: the bag, for the codes the check declares."""

    __slots__ = ("bag", "check", "codes", "relayed")

    def __init__(self, bag: DiagnosticBag, check: Check):
        self.bag = bag
        self.check = check
        self.codes = frozenset(check.codes)
        self.relayed = 0   # the analysis' findings this check reported

    def __call__(self, code: str, message: str, span: Span | None, *,
                 notes: tuple[str, ...] = (), severity: Severity | None = None,
                 fixes: tuple[Fix, ...] = (), related: tuple[Related, ...] = ()) -> None:
        if code not in self.codes:
            raise AssertionError(f"check {self.check.name} reported {code}, which it does "
                                 f"not declare (it declares {', '.join(self.check.codes)})")
        self.bag.report(code, message, span, notes=notes, severity=severity, fixes=fixes,
                        related=related)

    def relay(self, found: Iterable[StepFinding]) -> None:
        """Report, in order, those of the analysis' findings whose code this check declares."""
        for f in found:
            if f.code in self.codes:
                self(f.code, f.message, f.span, notes=f.notes, severity=f.severity,
                     fixes=f.fixes, related=f.related)
                self.relayed += 1


@dataclass(frozen=True, slots=True)
class Check:
    """One check: ``run`` reads the facts and reports ``codes`` (and nothing else)."""

    run: Callable[[ProjectFacts, Reporter], None]
    codes: tuple[str, ...]
    purpose: str

    @property
    def name(self) -> str:
        return f"{self.run.__module__}.{self.run.__qualname__}"

    def __call__(self, facts: ProjectFacts, bag: DiagnosticBag) -> int:
        """Run the check into ``bag``; how many of the analysis' findings it reported."""
        report = Reporter(bag, self)
        self.run(facts, report)
        return report.relayed
