"""The base decides: a pull request is judged by the rules of the branch it goes into.

A comparison with a base (``toolc diff --against REF``; ``toolc diff`` and ``toolc build``,
whose base is HEAD) reads REF's ``pyproject.toml`` from git and judges by its rules: the
diagnostics' severities (per rule and per spec file), ``[tool.toolc.diff]``'s severities
and ``fail_on``, and its ``output`` folder for the old golden files. The pull request
keeps what is its own to write: its specs, its output folder for the new side, and its
acceptances (each one the base does not have is listed as accepted in this pull request).

Where the pull request's pyproject.toml changes a rule, that is a finding of its own,
first in every report (:func:`rule_changes`): ``POLICY_WEAKENED`` (an error) when the gate
gets weaker, ``POLICY_TIGHTENED`` (info) when it gets stricter, ``ACCEPTANCE_ADDED`` (info)
per new acceptance. They are changes of the tool ``pyproject.toml`` at a JSON pointer into
its data (``/tool/toolc/diff/severity/TOOL_REMOVED``), judged like any change: an entry
``{tool = "pyproject.toml", rule = "POLICY_WEAKENED", reason = "..."}`` accepts them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..config import PYPROJECT_BYTES, Config, GateRules, gate_rules_of
from ..diagnostics import RULES as DIAGNOSTICS
from ..diagnostics import Severity, glob_matches
from ..publish import SCHEMAS_DIR
from ..untrusted import FileRefused, read_untrusted
from .policy import Acceptance, Policy
from .result import Change, DiffInputError, Json, SpecPlace, parts_of, pointer_of
from .rules import RULES
from .sources import blob_id, git_blob, git_entry

PYPROJECT = "pyproject.toml"
"""The base's rules are read from this file beside the project's specs, at the ref."""
LIMIT = 1 << 20  # a pyproject.toml is a few kB: a larger one in the base is not read
_REGULAR = ("100644", "100755")  # git's modes of a plain file (a link is 120000)
_THRESHOLDS = ("info", "warning", "error", "never")  # fail_on, from strictest


@dataclass(frozen=True, slots=True)
class Base:
    """A base's rules: read from ``ref``'s pyproject.toml, or the defaults and why."""

    ref: str
    rules: GateRules
    policy: Policy
    note: str | None = None  # one line, when the defaults stand in for the ref's rules

    @property
    def golden_root(self) -> str:
        """Where the base keeps its golden files, relative to the project."""
        return f"{self.rules.output}/{SCHEMAS_DIR}"

    def judging(self, pr: Policy) -> Policy:
        """The base's severities and threshold, with the pull request's acceptances."""
        return Policy(self.policy.severities, pr.accept, self.policy.fail_on)


def read_base(ref: str, root: Path) -> Base:
    """The rules of ``ref`` for the project at ``root``; DiffInputError when ``ref`` is
    no commit there. A pyproject.toml that is missing, not a file, over :data:`LIMIT`
    or not valid gives the default rules, and :attr:`Base.note` says so."""
    return _from_entry(ref, root, git_entry(ref, PYPROJECT, root))


def head_base(config: Config) -> Base | None:
    """HEAD's rules, for a build: None outside git or before the first commit. A
    pyproject.toml that is the committed one is not read again."""
    try:
        entry = git_entry("HEAD", PYPROJECT, config.root)
    except DiffInputError:  # no repository, no commit yet, or no git
        return None
    if entry is not None and config.source is not None and \
            entry[1] == blob_id(_bounded(config.source)):
        return Base("HEAD", config.gate_rules(), Policy.from_config(config.diff))
    return _from_entry("HEAD", config.root, entry)


def own_text(config: Config) -> str:
    """The project's own pyproject.toml (where its changes to the rules are placed)."""
    return "" if config.source is None else _bounded(config.source).decode(errors="replace")


def _bounded(path: Path) -> bytes:
    """The project's pyproject.toml as the configuration read it (bounded, regular)."""
    try:
        return read_untrusted(path, PYPROJECT_BYTES, follow=True)
    except (OSError, FileRefused):
        return b""


def _from_entry(ref: str, root: Path, entry: tuple[str, str, int] | None) -> Base:
    shown = f"{ref}:{PYPROJECT}"
    if entry is None:
        return _defaults(ref, f"{ref} has no {PYPROJECT}")
    mode, sha, size = entry
    if mode not in _REGULAR:
        return _defaults(ref, f"{shown} is not a regular file")
    if size > LIMIT:
        return _defaults(ref, f"{shown} is larger than {LIMIT} bytes")
    try:
        rules = gate_rules_of(git_blob(sha, root).decode("utf-8"), shown)
        return Base(ref, rules, Policy.from_config(rules.diff, where=f"{shown} [tool.toolc.diff]"))
    except (ValueError, DiffInputError) as exc:  # UnicodeDecodeError is a ValueError
        return _defaults(ref, f"{shown} cannot be read ({exc})")


def _defaults(ref: str, why: str) -> Base:
    return Base(ref, GateRules(), Policy(), f"{why}: the default rules judge this pull request")


# -- the pull request's changes to the rules --------------------------------------------

def rule_changes(base: Base, pr: GateRules, changes: Sequence[Change], text: str,
                 spec_paths: Sequence[str] = ()) -> list[Change]:
    """Every way the pull request's rules (``pr``, its pyproject.toml's ``text``) differ
    from the base's, and every acceptance it adds (``changes``: the tools' changes, which
    the count of each acceptance is taken from), judged by the base's rules."""
    policy = Policy.from_config(pr.diff)
    found = [*_threshold(base, policy), *_diff_severities(base, policy),
             *_severities(base, pr), *_per_file(base, pr, spec_paths)]
    found += _acceptances(base, policy, [*found, *changes])
    placed = [replace(c, spec=place_of(text, parts_of(c.pointer))) for c in found]
    return base.judging(policy).apply(placed)


def _finding(base: Base, weaker: bool, parts: tuple[str, ...], setting: str, old: Json,
             new: Json, old_text: str, new_text: str, extra: str = "") -> Change:
    rule = "POLICY_WEAKENED" if weaker else "POLICY_TIGHTENED"
    effect = "weakens the gate; " if weaker else "tightens the gate once merged; until then "
    message = (f"{setting}: {new_text} in this pull request, {old_text} at {base.ref}{extra}: "
               f"this {effect}{base.ref}'s rules judge it")
    return Change(PYPROJECT, pointer_of(parts), rule, RULES[rule].input, message, old, new)


def _threshold(base: Base, pr: Policy) -> Iterator[Change]:
    old, new = base.policy.fail_on or "error", pr.fail_on or "error"
    if old != new:
        weaker = _THRESHOLDS.index(new) > _THRESHOLDS.index(old)
        yield _finding(base, weaker, ("tool", "toolc", "diff", "fail_on"),
                       "[tool.toolc.diff] fail_on", base.policy.fail_on, pr.fail_on,
                       repr(old), repr(new))


def _diff_severities(base: Base, pr: Policy) -> Iterator[Change]:
    """Per rule, on each side of a schema: lower anywhere is weaker."""
    for rule in sorted(set(base.policy.severities) | set(pr.severities)):
        old, new = base.policy.severities.get(rule), pr.severities.get(rule)
        if old == new:
            continue
        own = RULES[rule]
        sides = [s for s in (own.input, own.output, own.input_open) if s is not None]
        before, after = [old or s for s in sides], [new or s for s in sides]
        if before == after:
            continue
        weaker = any(a < b for a, b in zip(after, before, strict=True))
        yield _finding(base, weaker, ("tool", "toolc", "diff", "severity", rule),
                       f"[tool.toolc.diff] severity of {rule}", _word(old), _word(new),
                       _shown(old, _own_diff(rule)), _shown(new, _own_diff(rule)))


def _severities(base: Base, pr: GateRules) -> Iterator[Change]:
    for code in sorted(set(base.rules.severities) | set(pr.severities)):
        old, new = base.rules.severities.get(code), pr.severities.get(code)
        own = DIAGNOSTICS[code].severity
        if (old or own) == (new or own):
            continue
        yield _finding(base, (new or own) < (old or own), ("tool", "toolc", "severity", code),
                       f"[tool.toolc.severity] {code} ({DIAGNOSTICS[code].name})",
                       _word(old), _word(new), _shown(old, str(own)), _shown(new, str(own)))


def _per_file(base: Base, pr: GateRules, spec_paths: Sequence[str]) -> Iterator[Change]:
    """Per glob and rule; either side's value is measured against the base's project-wide
    severity, so a glob that is new (or now matches more) and lowers a rule is weaker."""
    before, after = dict(base.rules.per_file), dict(pr.per_file)
    pairs = {(g, c) for side in (before, after) for g, table in side.items() for c in table}
    for glob, code in sorted(pairs):
        old, new = before.get(glob, {}).get(code), after.get(glob, {}).get(code)
        project = base.rules.severities.get(code, DIAGNOSTICS[code].severity)
        if (old or project) == (new or project):
            continue
        weaker = (new or project) < (old or project)
        extra = _covered(base, glob, code, new or project, spec_paths) if weaker else ""
        yield _finding(base, weaker, ("tool", "toolc", "per-file-severity", glob, code),
                       f"[tool.toolc.per-file-severity] {glob!r}: {code} "
                       f"({DIAGNOSTICS[code].name})", _word(old), _word(new),
                       _shown(old, f"{project} for the project"),
                       _shown(new, f"{project} for the project"), extra)


def _covered(base: Base, glob: str, code: str, severity: Severity,
             spec_paths: Sequence[str]) -> str:
    """The spec files the glob newly lowers ``code`` for, as the base judges them."""
    files = [p for p in spec_paths
             if glob_matches(glob, p) and severity < _effective(base.rules, p, code)]
    if not files:
        return ""
    shown = ", ".join(files[:5]) + (f" and {len(files) - 5} more" if len(files) > 5 else "")
    return f" (it newly covers {len(files)} spec file{'s' * (len(files) > 1)}: {shown})"


def _effective(rules: GateRules, path: str, code: str) -> Severity:
    severity = rules.severities.get(code, DIAGNOSTICS[code].severity)
    for glob, table in rules.per_file:
        if glob_matches(glob, path):
            severity = table.get(code, severity)
    return severity


def _acceptances(base: Base, pr: Policy, judged: Sequence[Change]) -> list[Change]:
    found = []
    for index, entry in enumerate(pr.accept):
        if entry in base.policy.accept:
            continue
        count = sum(1 for c in judged if entry.matches(c))
        message = (f"accepted in this pull request: {entry.scope()} "
                   f"({count} change{'s' * (count != 1)}): {entry.reason}")
        found.append(Change(PYPROJECT, pointer_of(("tool", "toolc", "diff", "accept",
                                                   str(index))),
                            "ACCEPTANCE_ADDED", RULES["ACCEPTANCE_ADDED"].input, message,
                            None, _entry(entry)))
    return found


def _entry(entry: Acceptance) -> dict[str, Json]:
    found: dict[str, Json] = {"tool": entry.tool, "rule": entry.rule,
                              "pointer": entry.pointer, "reason": entry.reason}
    return found if entry.module is None else {**found, "module": entry.module}


def _word(severity: Severity | None) -> str | None:
    return None if severity is None else str(severity)


def _shown(value: Severity | None, own: str) -> str:
    return repr(str(value)) if value is not None else f"unset ({own})"


def _own_diff(rule: str) -> str:
    own = RULES[rule]
    if own.input == own.output:
        return f"the rule's own: {own.input}"
    return f"the rule's own: {own.input} in input, {own.output} in output"


# -- where in pyproject.toml ------------------------------------------------------------

def place_of(text: str, parts: tuple[str, ...]) -> SpecPlace:
    """The line of the setting at ``parts`` (``tool``, ``toolc``, ``diff``, ``severity``,
    ``TOOL_REMOVED``) in a pyproject.toml's text, written in any of TOML's ways (a
    ``[table]``, an inline table, dotted keys); one the text does not set is placed at
    its table, or line 1, and noted ``not set here``. tomllib keeps no positions."""
    lines = text.splitlines()
    if parts[-1].isdigit() and parts[-2:-1] == ("accept",):  # the n-th acceptance
        headers = [i for i, ln in enumerate(lines) if _ACCEPT.match(ln)]
        if int(parts[-1]) < len(headers):
            return SpecPlace(PYPROJECT, headers[int(parts[-1])] + 1, 1)
        parts = parts[:-1]
    tables = _tables(lines, parts)
    for start, rest in tables:
        line, col = start, 0
        for part in rest:
            found = _key(lines, part, line, start)
            if found is None:
                break
            line, col = found
        else:
            return SpecPlace(PYPROJECT, line + 1, col + 1)
    return SpecPlace(PYPROJECT, tables[0][0] + 1 if tables else 1, 1, "not set here")


_HEADER = re.compile(r"\s*\[\s*([A-Za-z0-9_.-]+)\s*\]\s*(#.*)?$")
_ACCEPT = re.compile(r"\s*\[\[\s*tool\.toolc\.diff\.accept\s*\]\]")


def _tables(lines: list[str], parts: tuple[str, ...]) -> list[tuple[int, tuple[str, ...]]]:
    """Each ``[a.b]`` header that ``parts`` begins with, the longest first: its line and
    the parts after it (a setting may sit in any of them, with dotted keys)."""
    headers: dict[tuple[str, ...], int] = {}
    for i, line in enumerate(lines):
        match = _HEADER.match(line)
        if match:
            headers.setdefault(tuple(match[1].split(".")), i)
    return [(headers[parts[:cut]], parts[cut:])
            for cut in range(len(parts) - 1, 0, -1) if parts[:cut] in headers]


def _key(lines: list[str], key: str, first: int, table: int) -> tuple[int, int] | None:
    """The line and column of ``key`` set (``key =``, ``"key" =``, ``key.b =``; a
    diagnostic's code or its name) at or after line ``first``, before the next table
    header after ``table``."""
    names = [key, DIAGNOSTICS[key].name] if key in DIAGNOSTICS else [key]
    spelled = "|".join(re.escape(n) for n in names)
    pattern = re.compile(rf"(?<![\w-])(?:{spelled}|\"(?:{spelled})\"|'(?:{spelled})')\s*[=.]")
    for i in range(first, len(lines)):
        if i > table and lines[i].lstrip().startswith("["):
            return None
        match = pattern.search(lines[i])
        if match:
            return i, match.start()
    return None
