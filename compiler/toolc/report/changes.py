"""Render classified schema changes as text, markdown, json or GitHub annotations.

- ``text``: grouped per tool, a summary line at the end; ANSI colours when ``color``
  (decide with :func:`want_color`, which honours ``NO_COLOR``).
- ``markdown``: a pull-request comment: summary counts, then a table per tool, each row
  linked to its spec line (relative to the repository root, or under ``link_base``).
- ``json``: ``{"changes": [{tool, pointer, rule, severity, message, old, new, accepted,
  reason, spec}]}``, documented in docs/diff.md.
- ``github``: one workflow command per change, on the golden file's line.

Where a change has a spec place (the new side is a fresh build: :mod:`toolc.diff.places`),
text and github show it beside the pointer (``specs/desk.toolc.yaml:14:7``).

Compared with a base (:mod:`toolc.diff.gate`), the pull request's changes to the gate's
rules come first in every format: counted in a line and grouped apart in text and
markdown, as ``"policy"`` before ``"changes"`` in json, as the first annotations (on
``pyproject.toml``) in github. They are rows like the others, escaped by the same code.

For ``github`` (and the file names in ``text``), the caller says where each tool's golden
file is: ``paths`` maps a tool to its file relative to ``golden_root`` (a ToolSet's
``paths``), and ``new_texts`` / ``old_texts`` map a tool to its file's text, new and old
(a ToolSet's ``texts``, or :func:`toolc.diff.golden_text` of a tool not yet written). A
change is annotated at its pointer's line in the new text; a removal at the line of what
held the removed thing there (annotations land on the pull request's version of the
file, where the old pointer may name a neighbour or nothing); a removed tool at the
first line of its old file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from itertools import groupby
from typing import TextIO
from urllib.parse import quote

from ..diagnostics import Severity
from ..diff.policy import fails
from ..diff.result import Change, Json, SchemaDiff, SpecPlace
from ..diff.rules import POLICY_RULES
from ..diff.sources import line_of, pointer_lines
from .diagnostic_formats import (
    SEVERITY_COLORS,
    escape_controls,
    escape_github_data,
    github_command,
    json_text,
)

FORMATS = ("text", "markdown", "json", "github")

_BOLD, _DIM, _RED, _GREEN, _RESET = "\x1b[1m", "\x1b[2m", "\x1b[31m", "\x1b[32m", "\x1b[0m"
_LONG = 120  # objects and arrays longer than this are shortened outside json
WHOLE_TOOL = "(whole tool)"  # how the empty pointer (a tool added or removed) is shown


def want_color(stream: TextIO) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set (https://no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def render_diff(diff: SchemaDiff, fmt: str, *, color: bool = False, golden_root: str,
                closing: str | None = None, compared: str | None = None,
                link_base: str = "", spec_prefix: str = "") -> str:
    """A build's (or ``toolc diff``'s) classified changes in ``fmt``, the tools' files
    and texts taken from both sides."""
    return render(diff.changes, fmt, color=color, golden_root=golden_root,
                  paths={**diff.old.paths, **diff.new.paths},
                  new_texts=diff.new.texts, old_texts=diff.old.texts, closing=closing,
                  compared=compared, link_base=link_base, spec_prefix=spec_prefix,
                  policy=diff.policy)


def render(changes: Iterable[Change], fmt: str, *, color: bool = False,
           golden_root: str = "generated/schemas", paths: Mapping[str, str] | None = None,
           new_texts: Mapping[str, str] | None = None,
           old_texts: Mapping[str, str] | None = None, closing: str | None = None,
           compared: str | None = None, link_base: str = "", spec_prefix: str = "",
           policy: Sequence[Change] | None = None) -> str:
    """Render ``changes`` in ``fmt`` (one of :data:`FORMATS`); no trailing newline.
    ``policy``: the changes to the gate's rules of a comparison with a base
    (``toolc.diff.gate``), shown first in every format.
    ``closing`` replaces the summary that ends ``text``; ``compared`` (``X with Y``) says
    in ``markdown`` which sets were compared, for the reviewer who reads only that.
    ``spec_prefix`` (the project's folder in its repository, ``app/``) and ``link_base``
    (``https://github.com/ORG/REPO/blob/SHA/``) make markdown's links to spec lines."""
    items, rules = list(changes), None if policy is None else list(policy)
    locate = Locator(golden_root, paths or {}, new_texts or {}, old_texts or {})
    if fmt == "text":
        return render_text(items, color=color, locate=locate, closing=closing,
                           policy=rules or ())
    if fmt == "markdown":
        return render_markdown(items, compared, SpecLinks(link_base, spec_prefix), rules or ())
    if fmt == "json":
        return render_json(items, rules)
    if fmt == "github":
        return render_github([*(rules or ()), *items], locate)
    raise ValueError(f"unknown format {fmt!r} (expected {', '.join(FORMATS)})")


class Locator:
    """Finds a tool's golden file and the line of a change's pointer in it."""

    def __init__(self, golden_root: str, paths: Mapping[str, str],
                 new_texts: Mapping[str, str], old_texts: Mapping[str, str]):
        self.golden_root = golden_root.rstrip("/")
        self.paths, self.new_texts, self.old_texts = paths, new_texts, old_texts
        self._lines: dict[tuple[str, bool], dict[str, int]] = {}

    def file(self, tool: str) -> str | None:
        relative = self.paths.get(tool)
        if relative is None:
            return None
        return f"{self.golden_root}/{relative}" if self.golden_root else relative

    def line(self, change: Change) -> int | None:
        is_new = change.tool in self.new_texts
        text = self.new_texts.get(change.tool) if is_new else self.old_texts.get(change.tool)
        if text is None:
            return None
        key = (change.tool, is_new)
        if key not in self._lines:
            self._lines[key] = pointer_lines(text)
        pointer = change.pointer
        if is_new and change.new is None and change.old is not None and pointer:
            # Something went away: in the new file its old pointer may name a neighbour
            # (enum/0 is now another value), so point at what held it.
            pointer = pointer[:pointer.rindex("/")]
        return line_of(text, pointer, self._lines[key])


def _value(value: Json, *, shorten: bool) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(", ", ": "))
    if shorten and isinstance(value, dict | list) and len(text) > _LONG:
        return text[:_LONG - 1] + "…"
    return text


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _of_severity(count: int, severity: Severity) -> str:
    """``2 warnings``; ``info`` has no plural."""
    return f"{count} {severity}" if severity is Severity.INFO else _plural(count, str(severity))


def summary(changes: Sequence[Change]) -> str:
    """``5 changes in 2 tools: 1 error, 2 warnings, 2 info; 1 accepted``."""
    if not changes:
        return "No changes in the published tools."
    tools = len({c.tool for c in changes})
    counts = [_of_severity(sum(1 for c in changes if c.severity is sev and not c.accepted), sev)
              for sev in (Severity.ERROR, Severity.WARNING, Severity.INFO)]
    accepted = sum(1 for c in changes if c.accepted)
    text = (f"{_plural(len(changes), 'change')} in {_plural(tools, 'tool')}: "
            f"{', '.join(counts)}")
    return text + (f"; {accepted} accepted" if accepted else "")


def rules_summary(policy: Sequence[Change]) -> str:
    """``The pull request changes the gate's rules: 1 weakens them, 1 acceptance added;
    the base's rules judge it``."""
    def count(rule: str, one: str, many: str) -> str:
        n = sum(1 for c in policy if c.rule == rule and not c.accepted)
        return f"{n} {one if n == 1 else many}" if n else ""

    accepted = sum(1 for c in policy if c.accepted)
    parts = [count("POLICY_WEAKENED", "weakens them", "weaken them"),
             count("POLICY_TIGHTENED", "tightens them", "tighten them"),
             count("ACCEPTANCE_ADDED", "acceptance added", "acceptances added"),
             f"{accepted} accepted" if accepted else ""]
    return (f"The pull request changes the gate's rules: {', '.join(p for p in parts if p)}; "
            "the base's rules judge it.")


RULES_HEADING = "the gate's rules (pyproject.toml), as this pull request changes them"


def review_summary(changes: Sequence[Change], ci_fail_on: str = "error",
                   policy: Sequence[Change] = ()) -> str:
    """What a build's changes mean for review, in words that are not a diagnostic's:
    ``3 breaking, 1 description lost: CI will fail on them unless accepted in
    [tool.toolc.diff]``. ``ci_fail_on`` is the gate's threshold (``toolc diff``'s);
    ``policy``: the changes to the gate's rules, which the verdict counts too."""

    if not changes and not policy:
        return "No changes in the published tools."
    live = [c for c in changes if not c.accepted]
    errors = [c for c in live if c.severity is Severity.ERROR]
    lost = sum(1 for c in errors if c.rule == "DESCRIPTION_REMOVED")
    weakened = sum(1 for c in policy if c.rule == "POLICY_WEAKENED" and not c.accepted)
    parts = [f"{weakened} weakening{'s' * (weakened > 1)} of the gate's rules"
             if weakened else "",
             f"{len(errors) - lost} breaking" if len(errors) > lost else "",
             f"{lost} description{'s' if lost > 1 else ''} lost" if lost else "",
             _count(live, Severity.WARNING, "risky"), _count(live, Severity.INFO, "compatible"),
             f"{len(changes) - len(live)} accepted" if len(live) < len(changes) else ""]
    text = ", ".join(p for p in parts if p) or "no change to the published tools"
    if fails([*policy, *changes], ci_fail_on):
        return text + ": CI will fail on them unless accepted in [tool.toolc.diff]"
    return text + ": none fails CI"


def _count(changes: Sequence[Change], severity: Severity, word: str) -> str:
    count = sum(1 for c in changes if c.severity is severity)
    return f"{count} {word}" if count else ""


def _by_tool(changes: list[Change]) -> list[tuple[str, list[Change]]]:
    ordered = sorted(changes, key=Change.sort_key)
    return [(tool, list(group)) for tool, group in groupby(ordered, key=lambda c: c.tool)]


def _groups(policy: Sequence[Change], changes: list[Change]
            ) -> list[tuple[str | None, list[Change]]]:
    """The changes to the gate's rules first (the group of no tool), then per tool."""
    first: list[tuple[str | None, list[Change]]] = [(None, list(policy))] if policy else []
    return first + list(_by_tool(changes))


def render_text(changes: list[Change], *, color: bool = False,
                locate: Locator | None = None, closing: str | None = None,
                policy: Sequence[Change] = ()) -> str:
    def paint(code: str, text: str) -> str:
        return f"{code}{text}{_RESET}" if color else text

    blocks = [rules_summary(policy)] if policy else []
    for tool, group in _groups(policy, changes):
        where = locate.file(tool) if locate and tool is not None else None
        # Names, pointers and values come from the golden files (a pull request's):
        # their control characters are shown, never sent to the terminal.
        heading = RULES_HEADING if tool is None else f"tool {escape_controls(tool)}"
        lines = [paint(_BOLD, heading) + (f" ({escape_controls(where)})" if where else "")]
        for c in group:
            # An accepted change is dimmed: it is shown, but it does not fail anything.
            head = paint(_DIM if c.accepted else SEVERITY_COLORS.get(c.severity, ""),
                         f"{c.severity}[{c.rule}]")
            tail = paint(_DIM, " (accepted)") if c.accepted else ""
            spec = f"  {escape_controls(str(c.spec))}" if c.spec is not None else ""
            lines.append(f"  {head} {escape_controls(c.pointer or WHOLE_TOOL)}{spec}{tail}")
            lines.append(f"    {escape_controls(c.message)}")
            if c.accepted:
                lines.append(f"    accepted: {escape_controls(str(c.reason))}")
            if c.old is not None:
                old = escape_controls(_value(c.old, shorten=True))
                lines.append("    " + paint(_RED, f"- {old}"))
            if c.new is not None:
                new = escape_controls(_value(c.new, shorten=True))
                lines.append("    " + paint(_GREEN, f"+ {new}"))
        blocks.append("\n".join(lines))
    blocks.append(summary(changes) if closing is None else closing)
    return "\n\n".join(blocks)


def render_json(changes: list[Change], policy: Sequence[Change] | None = None) -> str:
    """``{"changes": [...]}``; compared with a base, ``"policy"`` comes first."""
    rows = {"changes": [c.to_json() for c in changes]}
    return json_text(rows if policy is None else
                     {"policy": [c.to_json() for c in policy], **rows})


MARKER = "<!-- toolc-schema-diff -->"
"""First line of the markdown report, so a CI job can find and update its own comment."""


def _cell(text: str) -> str:
    text = text.replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;")
    return escape_controls(text.replace("\r\n", "\n").replace("\n", "<br>"))


def _code_span(text: str) -> str:
    # Entities mean nothing inside code; only the table's pipe needs escaping there.
    text = escape_controls(text).replace("|", "\\|")
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def _code(value: Json) -> str:
    return "" if value is None else _code_span(_value(value, shorten=True))


class SpecLinks:
    """Markdown links to spec lines: ``[`specs/desk.toolc.yaml:14`](specs/desk.toolc.yaml#L14)``.

    A spec's path is relative to the project; ``prefix`` places the project in its
    repository. Without ``base`` the link is relative to the repository root, which is
    what GitHub resolves in a committed file; a pull-request comment resolves it against
    the pull request's page instead, so CI passes ``--link-base`` with the commit's
    ``blob`` URL.
    """

    def __init__(self, base: str = "", prefix: str = ""):
        # The base is the user's own option; spaces or a ')' would end the link early.
        self.base = base.replace(" ", "%20").replace(")", "%29")
        if self.base and not self.base.endswith("/"):
            self.base += "/"
        self.prefix = prefix

    def cell(self, place: SpecPlace | None) -> str:
        if place is None:
            return "(removed)"
        path = f"{self.prefix}{place.path}"
        label = _code_span(f"{path}:{place.line}")
        note = f" ({_cell(place.note)})" if place.note else ""
        if place.path.startswith(("/", "../")) or ":" in place.path:  # outside the repo
            return label + note
        # The path comes from a pull request's file names: quoted, it cannot end the link.
        return f"[{label}]({self.base}{quote(path, safe='/')}#L{place.line}){note}"


def render_markdown(changes: list[Change], compared: str | None = None,
                    links: SpecLinks | None = None, policy: Sequence[Change] = ()) -> str:
    links = links or SpecLinks()
    lines = [MARKER, "### Schema changes", ""]
    if compared:
        lines += [f"Compared {_cell(compared)}.", ""]
    if policy:
        lines += [f"**{rules_summary(policy)}**", ""]
    if not changes and not policy:
        return "\n".join([*lines, summary(changes)])
    lines.append(f"**{summary(changes)}**")
    for tool, group in _groups(policy, changes):
        spec_column = tool is None or any(c.spec is not None for c in changes)
        heading = "The gate's rules: `pyproject.toml`" if tool is None else _code_span(tool)
        lines += ["", f"#### {heading}", "",
                  "| severity | rule | " + ("spec | " if spec_column else "")
                  + "pointer | change | old | new |",
                  "| --- | --- | --- | --- | --- | --- |" + (" --- |" if spec_column else "")]
        for c in group:
            sev = str(c.severity)
            severity = f"~~{sev}~~ accepted" if c.accepted else (
                f"**{sev}**" if c.severity is Severity.ERROR else sev)
            message = _cell(c.message)
            if c.accepted:
                message += f"<br>**accepted:** {_cell(c.reason or '')}"
            pointer = _code_span(c.pointer) if c.pointer else WHOLE_TOOL
            spec = f"{links.cell(c.spec)} | " if spec_column else ""
            lines.append(f"| {severity} | `{c.rule}` | {spec}{pointer} | {message} "
                         f"| {_code(c.old)} | {_code(c.new)} |")
    return "\n".join(lines)


def _escape_data(text: str) -> str:
    return escape_github_data(text)


def _escape_prop(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(changes: list[Change], locate: Locator) -> str:
    """``::error file=..,line=..,title=..::message`` per change; info and accepted: notice."""
    out = []
    for c in changes:
        kind = "notice" if c.accepted else github_command(c.severity)
        props = []
        rules = c.rule in POLICY_RULES and c.spec is not None  # pyproject.toml's own line
        where = c.spec.path if rules and c.spec else locate.file(c.tool)
        if where is not None:
            props.append(f"file={_escape_prop(where)}")
            line = c.spec.line if rules and c.spec else locate.line(c)
            if line is not None:
                props.append(f"line={line}")
        props.append(f"title={_escape_prop(f'{c.rule} in {c.tool} ({c.severity})')}")
        message = c.message if not c.accepted else f"accepted ({c.reason}): {c.message}"
        message += f"\npointer: {c.pointer or WHOLE_TOOL}"
        if c.spec is not None:
            message += f"\nspec: {c.spec}"
        if c.old is not None:
            message += f"\nold: {_value(c.old, shorten=True)}"
        if c.new is not None:
            message += f"\nnew: {_value(c.new, shorten=True)}"
        out.append(f"::{kind} {','.join(props)}::{_escape_data(message)}")
    return "\n".join(out)
