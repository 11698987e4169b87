"""A project's decisions about schema changes, read from ``[tool.toolc.diff]``.

- ``severity = {RULE_ID = "error" | "warning" | "info" | "off"}`` replaces a rule's
  severity on both sides; ``off`` drops its changes from the report.
- ``accept = [{rule?, tool?, module?, pointer?, reason}]`` marks matching changes as
  accepted: they are still listed, with the reason, but never fail a check. An entry
  names a rule, a tool, a module, or several of them, and matches the changes that fit
  everything it names: ``rule`` a rule ID; ``tool`` a glob over a tool's key
  (``workbench/readLog``, ``workbench/*``: with a ``/``) or its name (``readLog``,
  ``read*``, ``*``: in any folder; a rename's old name too); ``module`` a glob over the
  key's folder; ``pointer`` the change's pointer or one above it.
- ``fail_on = "error" | "warning" | "info" | "never"``: the project's default threshold.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from fnmatch import fnmatchcase
from typing import Any

from ..diagnostics import Severity
from .result import Change, DiffInputError
from .rules import POLICY_RULES, RULES

FAIL_ON = ("error", "warning", "info", "never")

_POLICY_KEYS = ("accept", "fail_on", "severity")
_ACCEPT_KEYS = ("module", "pointer", "reason", "rule", "tool")
_SCOPE_KEYS = ("rule", "tool", "module")  # an entry names at least one


@dataclass(frozen=True, slots=True)
class Acceptance:
    """Reviewed changes: of which rule, tool and module (any of them left out matches
    all), optionally where, and why."""

    tool: str | None  # a glob over a key (with ``/``) or a name (``readLog``, ``*``)
    rule: str | None
    reason: str
    pointer: str | None = None
    module: str | None = None  # a glob over the key's folder

    def matches_tool(self, key: str) -> bool:
        """``tool`` with a ``/`` against the whole key, else against the name (tool names
        hold no ``/``: a name matches in any folder); ``module`` against the folder."""
        folder, _, name = key.rpartition("/")
        if self.module is not None and not (folder and fnmatchcase(folder, self.module)):
            return False
        if self.tool is None:
            return True
        return fnmatchcase(key if "/" in self.tool else name, self.tool)

    def matches(self, change: Change) -> bool:
        if self.rule is not None and change.rule != self.rule:
            return False
        if self.rule is None and change.rule in POLICY_RULES:
            return False  # a change to the gate's rules is taken only by naming its rule
        keys = list(change.tools)  # a row in several tools: any of them
        if change.rule == "TOOL_RENAMED" and isinstance(change.old, str):
            keys += [f"{key.rpartition('/')[0]}/{change.old}".lstrip("/") for key in keys]
        if not any(self.matches_tool(key) for key in keys):
            return False
        if self.pointer is None:
            return True
        return change.pointer == self.pointer or change.pointer.startswith(self.pointer + "/")

    def scope(self) -> str:
        """What it accepts, in words: ``TOOL_REMOVED in oldTool``, ``DESCRIPTION_CHANGED in
        every tool``, ``every change in module legacy``, ``... at /inputSchema``."""
        tool = None if self.tool == "*" else self.tool
        where = [tool or "", f"module {self.module}" if self.module else ""]
        place = " of ".join(w for w in where if w) or "every tool"
        at = f" at {self.pointer}" if self.pointer else ""
        return f"{self.rule or 'every change'} in {place}{at}"

    def describe(self) -> str:
        """What it names, as written: ``rule = "TOOL_REMOVED", tool = "oldTool"``."""
        said = [(k, getattr(self, k)) for k in ("rule", "tool", "module", "pointer")]
        return ", ".join(f"{k} = {json.dumps(v, ensure_ascii=False)}" for k, v in said
                         if v is not None)


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

    def unused_warnings(self, changes: Iterable[Change], compared: str,
                        where: str = "[tool.toolc.diff]") -> list[str]:
        """One line per acceptance that matches none of ``changes`` (between what
        ``compared`` names): a misspelt entry, or one whose change is in the base."""
        unused = self.unused(changes)
        return [f"{where}.accept[{self.accept.index(a)}] ({a.describe()}) matches no change "
                f"between {compared}: correct it, or delete it if its change is in the base "
                "already" for a in unused]


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
        result.append(_acceptance(entry, here))
    return tuple(result)


def _acceptance(entry: Mapping[str, Any], here: str) -> Acceptance:
    if "reason" not in entry:
        raise DiffInputError(f"{here}: missing 'reason' (every accepted change says why)")
    if not any(key in entry for key in _SCOPE_KEYS):
        raise DiffInputError(f"{here}: names no 'rule', 'tool' or 'module' (say which "
                             "changes it accepts; tool = \"*\" is every tool)")
    for key in _ACCEPT_KEYS:
        if key in entry and not isinstance(entry[key], str):
            raise DiffInputError(f"{here}.{key}: expected a string, found {_kind(entry[key])}")
    if not entry["reason"].strip():
        raise DiffInputError(f"{here}.reason: must not be empty")
    tool = entry.get("tool")
    if tool is not None and (not tool or tool.startswith("/") or tool.endswith("/")
                             or "//" in tool):
        raise DiffInputError(f"{here}.tool: {tool!r} is neither a tool name ('readLog', "
                             "'read*') nor a folder and a name ('workbench/readLog')")
    module = entry.get("module")
    if module is not None and (not module or module.startswith("/") or module.endswith("/")):
        raise DiffInputError(f"{here}.module: {module!r} is no module name ('workbench', "
                             "'work*')")
    rule = entry.get("rule")
    if rule is not None and rule not in RULES:
        raise DiffInputError(f"{here}.rule: unknown rule {rule!r}{_hint(rule, RULES)}")
    pointer = entry.get("pointer")
    if pointer is not None and pointer and not pointer.startswith("/"):
        raise DiffInputError(f"{here}.pointer: a JSON pointer starts with '/', got {pointer!r}")
    return Acceptance(tool, rule, entry["reason"], pointer, module)


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
