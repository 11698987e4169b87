"""A project's decisions about schema changes, read from ``[tool.toolc.diff]``.

- ``severity = {RULE_ID = "error" | "warning" | "info" | "off"}`` replaces a rule's
  severity on both sides; ``off`` drops its changes from the report.
- ``accept = [{tool, rule, pointer?, reason}]`` marks matching changes as accepted: they
  are still listed, with the reason, but never fail a check. ``tool`` is a tool's key
  (``workbench/readLog``: that module's tool only) or a bare name (``readLog``: the tool
  of that name in any folder). Without ``pointer`` every change of that rule in that
  tool matches; with it, the change at the pointer or below.
- ``fail_on = "error" | "warning" | "info" | "never"``: the project's default threshold.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..diagnostics import Severity
from .result import Change, DiffInputError
from .rules import RULES

FAIL_ON = ("error", "warning", "info", "never")

_POLICY_KEYS = ("accept", "fail_on", "severity")
_ACCEPT_KEYS = ("pointer", "reason", "rule", "tool")


@dataclass(frozen=True, slots=True)
class Acceptance:
    """One reviewed change: which tool, which rule, optionally where, and why."""

    tool: str  # a tool's key (``workbench/readLog``) or a bare name (``readLog``)
    rule: str
    reason: str
    pointer: str | None = None

    def matches_tool(self, key: str) -> bool:
        """The key itself; a bare name (tool names hold no ``/``) matches in any folder."""
        if key == self.tool:
            return True
        return "/" not in self.tool and key.rsplit("/", 1)[-1] == self.tool

    def matches(self, change: Change) -> bool:
        if change.rule != self.rule or not self.matches_tool(change.tool):
            return False
        if self.pointer is None:
            return True
        return change.pointer == self.pointer or change.pointer.startswith(self.pointer + "/")


@dataclass(frozen=True, slots=True)
class Policy:
    severities: Mapping[str, Severity] = field(default_factory=dict)
    accept: tuple[Acceptance, ...] = ()
    fail_on: str | None = None

    @classmethod
    def from_config(cls, table: Mapping[str, Any], *, where: str = "[tool.toolc.diff]"
                    ) -> Policy:
        """Read a ``[tool.toolc.diff]`` table; a bad entry raises DiffInputError naming it."""
        if not isinstance(table, Mapping):
            raise DiffInputError(f"{where}: expected a table, found {_kind(table)}")
        for key in table:
            if key not in _POLICY_KEYS:
                raise DiffInputError(f"{where}: unknown key {key!r}{_hint(key, _POLICY_KEYS)}")
        fail_on = table.get("fail_on")
        if fail_on is not None and fail_on not in FAIL_ON:
            raise DiffInputError(f"{where}.fail_on: {fail_on!r} is not one of "
                                 f"{', '.join(FAIL_ON)}")
        return cls(_severities(table.get("severity", {}), f"{where}.severity"),
                   _acceptances(table.get("accept", []), f"{where}.accept"), fail_on)

    def apply(self, changes: Iterable[Change]) -> list[Change]:
        """Changed severities first (``off`` drops the change), then acceptances."""
        result = []
        for change in changes:
            severity = self.severities.get(change.rule, change.severity)
            if severity is Severity.OFF:
                continue
            change = replace(change, severity=severity)
            for acceptance in self.accept:
                if acceptance.matches(change):
                    change = replace(change, accepted=True, reason=acceptance.reason)
                    break
            result.append(change)
        return result

    def unused(self, changes: Iterable[Change]) -> list[Acceptance]:
        """Acceptances that match none of ``changes``: stale entries worth deleting."""
        listed = list(changes)
        return [a for a in self.accept if not any(a.matches(c) for c in listed)]


def _severities(table: Any, where: str) -> dict[str, Severity]:
    if not isinstance(table, Mapping):
        raise DiffInputError(f"{where}: expected a table of RULE_ID = severity, "
                             f"found {_kind(table)}")
    result = {}
    for rule, value in table.items():
        if rule not in RULES:
            raise DiffInputError(f"{where}: unknown rule {rule!r}{_hint(rule, RULES)}")
        if not isinstance(value, str):
            raise DiffInputError(f"{where}.{rule}: expected a string, found {_kind(value)}")
        try:
            result[rule] = Severity.parse(value)
        except ValueError as exc:
            raise DiffInputError(f"{where}.{rule}: {exc}") from None
    return result


def _acceptances(entries: Any, where: str) -> tuple[Acceptance, ...]:
    if not isinstance(entries, list):
        raise DiffInputError(f"{where}: expected a list of tables, found {_kind(entries)}")
    result = []
    for index, entry in enumerate(entries):
        here = f"{where}[{index}]"
        if not isinstance(entry, Mapping):
            raise DiffInputError(f"{here}: expected a table, found {_kind(entry)}")
        for key in entry:
            if key not in _ACCEPT_KEYS:
                raise DiffInputError(f"{here}: unknown key {key!r}{_hint(key, _ACCEPT_KEYS)}")
        for key in ("tool", "rule", "reason"):
            if key not in entry:
                why = " (every accepted change says why)" if key == "reason" else ""
                raise DiffInputError(f"{here}: missing {key!r}{why}")
        for key in _ACCEPT_KEYS:
            if key in entry and not isinstance(entry[key], str):
                raise DiffInputError(f"{here}.{key}: expected a string, "
                                     f"found {_kind(entry[key])}")
        if not entry["reason"].strip():
            raise DiffInputError(f"{here}.reason: must not be empty")
        tool = entry["tool"]
        if not tool or tool.startswith("/") or tool.endswith("/") or "//" in tool:
            raise DiffInputError(f"{here}.tool: {tool!r} is neither a tool name ('readLog') "
                                 f"nor a folder and a name ('workbench/readLog')")
        if entry["rule"] not in RULES:
            raise DiffInputError(f"{here}.rule: unknown rule {entry['rule']!r}"
                                 f"{_hint(entry['rule'], RULES)}")
        pointer = entry.get("pointer")
        if pointer is not None and pointer and not pointer.startswith("/"):
            raise DiffInputError(f"{here}.pointer: a JSON pointer starts with '/', "
                                 f"got {pointer!r}")
        result.append(Acceptance(entry["tool"], entry["rule"], entry["reason"], pointer))
    return tuple(result)


def _hint(word: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(str(word), list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _kind(value: Any) -> str:
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
             list: "a list", dict: "a table", type(None): "nothing"}
    return names.get(type(value), type(value).__name__)


def _threshold(fail_on: str) -> Severity | None:
    if fail_on not in FAIL_ON:
        raise DiffInputError(f"fail_on must be one of {', '.join(FAIL_ON)}, got {fail_on!r}")
    return None if fail_on == "never" else Severity.parse(fail_on)


def worst(changes: Iterable[Change]) -> Severity | None:
    """The highest severity among changes not accepted; None when there is none."""
    return max((c.severity for c in changes if not c.accepted and c.severity > Severity.OFF),
               default=None)


def failing(changes: Iterable[Change], fail_on: str = "error") -> list[Change]:
    """The changes not accepted at or above ``fail_on`` (``never``: none): what the gate
    refuses."""
    threshold = _threshold(fail_on)
    if threshold is None:
        return []
    return [c for c in changes if not c.accepted and c.severity >= threshold]


def fails(changes: Iterable[Change], fail_on: str = "error") -> bool:
    """Whether a change not accepted is at or above ``fail_on`` (``never``: never fails)."""
    return bool(failing(changes, fail_on))
