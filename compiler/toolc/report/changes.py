"""Render classified schema changes as text, markdown, json or GitHub annotations.

- ``text``: grouped per tool (a row in several tools once, under all their keys and
  golden files), the summary (:mod:`toolc.report.summary`) at the end; ANSI colours when
  ``color`` (decide with :func:`want_color`, which honours ``NO_COLOR``).
- ``markdown``: a pull-request comment: the summary, then a table per tool, each row
  linked to its spec line (relative to the repository root, or under ``link_base``, an
  http(s) URL). Every string taken from the input goes through
  :mod:`toolc.report.markdown_escape` (``_cell`` for prose, ``_code_span`` for code), so
  the only markup in the comment is the report's own.
- ``json``: ``{"changes": [{tool, pointer, rule, severity, message, old, new, accepted,
  reason, spec, tools, files}], "warnings": [...]}``, documented in docs/diff.md.
- ``github``: one workflow command per change, on the (first) golden file's line.

``warnings`` (acceptances that matched nothing) are said in every format, before the
summary.

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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import TextIO
from urllib.parse import quote

from ..diagnostics import Severity
from ..diff.result import Change, Json, SchemaDiff, SpecPlace
from ..diff.rows import name_of
from ..diff.rules import POLICY_RULES
from ..diff.sources import line_of, pointer_lines
from .diagnostic_formats import (
    SEVERITY_COLORS,
    escape_controls,
    escape_github_data,
    github_command,
    json_text,
)
from .markdown_escape import code_span as _code_span
from .markdown_escape import escape_text as _cell
from .markdown_escape import link_base as _link_base
from .summary import rules_summary, summary

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
                fail_on: str = "error", compared: str | None = None,
                link_base: str = "", spec_prefix: str = "") -> str:
    """A build's (or ``toolc diff``'s) classified changes in ``fmt``, the tools' files
    and texts taken from both sides, its warnings said."""
    return render(diff.changes, fmt, color=color, golden_root=golden_root,
                  paths={**diff.old.paths, **diff.new.paths},
                  new_texts=diff.new.texts, old_texts=diff.old.texts, fail_on=fail_on,
                  compared=compared, link_base=link_base, spec_prefix=spec_prefix,
                  warnings=diff.warnings, policy=diff.policy)


def render(changes: Iterable[Change], fmt: str, *, color: bool = False,
           golden_root: str = "generated/schemas", paths: Mapping[str, str] | None = None,
           new_texts: Mapping[str, str] | None = None,
           old_texts: Mapping[str, str] | None = None, fail_on: str = "error",
           compared: str | None = None, link_base: str = "", spec_prefix: str = "",
           warnings: Sequence[str] = (), policy: Sequence[Change] | None = None,
           closing: str | None = None) -> str:
    """Render ``changes`` in ``fmt`` (one of :data:`FORMATS`); no trailing newline.
    ``fail_on``: the gate's threshold, which the summary says the changes meet or not;
    ``policy``: the changes to the gate's rules of a comparison with a base
    (``toolc.diff.gate``), shown first in every format; ``closing`` replaces the summary
    that ends ``text``. ``compared`` (``X with Y``) says in ``markdown`` which sets were
    compared, for the reviewer who reads only that. ``spec_prefix`` (the project's
    folder in its repository, ``app/``) and ``link_base``
    (``https://github.com/ORG/REPO/blob/SHA/``) make markdown's links to spec lines; a
    ``link_base`` that is not an http(s) URL is a ``ValueError``."""
    items, rules = list(changes), None if policy is None else list(policy)
    locate = Locator(golden_root, paths or {}, new_texts or {}, old_texts or {})
    said = _Said(fail_on, warnings, rules or ())
    if fmt == "text":
        return render_text(items, color=color, locate=locate, said=said, closing=closing)
    if fmt == "markdown":
        return render_markdown(items, compared, SpecLinks(link_base, spec_prefix),
                               locate=locate, said=said)
    if fmt == "json":
        return render_json(items, locate, warnings, rules)
    if fmt == "github":
        return render_github([*said.policy, *items], locate, warnings)
    raise ValueError(f"unknown format {fmt!r} (expected {', '.join(FORMATS)})")


@dataclass(frozen=True, slots=True)
class _Said:
    """What a report says beside the tools' changes: the gate's threshold (which its
    summary measures them by), its warnings, the changes to the gate's rules."""

    fail_on: str = "error"
    warnings: Sequence[str] = ()
    policy: Sequence[Change] = ()

    def summary(self, changes: Sequence[Change]) -> str:
        return summary(changes, self.fail_on, self.policy)


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

    def files(self, change: Change) -> list[str]:
        """The golden file of each tool the change is in, those known."""
        return [f for f in map(self.file, change.tools) if f is not None]

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


def _by_tool(changes: list[Change]) -> list[tuple[tuple[str, ...], list[Change]]]:
    """The rows per tool they are in: the same tools, one block (a row in five modules'
    tools, one block for the five)."""
    ordered = sorted(changes, key=lambda c: (c.tools, *c.sort_key()[1:]))
    return [(tools, list(group)) for tools, group in groupby(ordered, key=lambda c: c.tools)]


def _groups(policy: Sequence[Change], changes: list[Change]
            ) -> list[tuple[tuple[str, ...] | None, list[Change]]]:
    """The changes to the gate's rules first (the group of no tool), then per tool."""
    first: list[tuple[tuple[str, ...] | None, list[Change]]] = (
        [(None, list(policy))] if policy else [])
    return first + list(_by_tool(changes))


RULES_HEADING = "the gate's rules (pyproject.toml), as this pull request changes them"


def tools_label(tools: Sequence[str], code: Callable[[str], str] = str) -> str:
    """``alpha/addNote``; ``addNote in alpha, core`` for one name in several folders;
    ``code`` renders each name."""
    names = {name_of(key) for key in tools}
    if len(tools) == 1 or len(names) != 1:
        return ", ".join(map(code, tools))
    folders = (key.rpartition("/")[0] or "." for key in tools)
    return f"{code(names.pop())} in {', '.join(map(code, folders))}"


def _text_head(tools: tuple[str, ...], locate: Locator | None) -> list[str]:
    """The tool's key and golden file; for several tools, their files one a line."""
    where = [f for f in map(locate.file, tools) if f is not None] if locate else []
    if len(tools) == 1:
        return [f"tool {escape_controls(tools[0])}"
                + (f" ({escape_controls(where[0])})" if where else "")]
    return [f"tool {escape_controls(tools_label(tools))}",
            *(f"  {escape_controls(file)}" for file in where)]


def render_text(changes: list[Change], *, color: bool = False,
                locate: Locator | None = None, said: _Said | None = None,
                closing: str | None = None) -> str:
    def paint(code: str, text: str) -> str:
        return f"{code}{text}{_RESET}" if color else text

    said = said or _Said()
    blocks = [rules_summary(said.policy)] if said.policy else []
    for tools, group in _groups(said.policy, changes):
        # Names, pointers and values come from the golden files (a pull request's):
        # their control characters are shown, never sent to the terminal.
        head, *files = [RULES_HEADING] if tools is None else _text_head(tools, locate)
        lines = [paint(_BOLD, head), *files]
        for c in group:
            # An accepted change is dimmed: it is shown, but it does not fail anything.
            head = paint(_DIM if c.accepted else SEVERITY_COLORS.get(c.severity, ""),
                         f"{c.severity}[{escape_controls(c.rule)}]")
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
    if said.warnings:
        blocks.append("\n".join(f"warning: {escape_controls(w)}" for w in said.warnings))
    blocks.append(said.summary(changes) if closing is None else closing)
    return "\n\n".join(blocks)


def render_json(changes: list[Change], locate: Locator | None = None,
                warnings: Sequence[str] = (), policy: Sequence[Change] | None = None) -> str:
    """``{"changes": [...], "warnings": [...]}``; compared with a base, ``"policy"`` first."""
    def rows(items: Iterable[Change]) -> list[dict[str, Json]]:
        return [{**c.to_json(), "files": locate.files(c) if locate else []} for c in items]

    found = {"changes": rows(changes), "warnings": list(warnings)}
    return json_text(found if policy is None else {"policy": rows(policy), **found})


MARKER = "<!-- toolc-schema-diff -->"
"""First line of the markdown report, so a CI job can find and update its own comment."""


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
        # ValueError unless an http(s) URL: a link's target is the report's own, never
        # a `javascript:` or what data wrote.
        self.base = _link_base(base) if base else ""
        self.prefix = prefix

    def cell(self, place: SpecPlace | None) -> str:
        if place is None:
            return "(removed)"
        path = f"{self.prefix}{place.path}"
        label = _code_span(f"{path}:{place.line}")
        note = f" ({_cell(place.note)})" if place.note else ""
        if not _linkable(path):
            return label + note
        # The path comes from a pull request's file names: quoted, it cannot end the link.
        return f"[{label}]({self.base}{quote(path, safe='/')}#L{place.line}){note}"


def _linkable(path: str) -> bool:
    """Whether a link to ``path`` stays in the repository (and on its page): not
    absolute, no ``..`` that climbs out, no drive or scheme, no Windows separator; and
    a file name that is text (one of undecodable bytes holds lone surrogates)."""
    return not (path.startswith("/") or ":" in path or "\\" in path
                or ".." in path.split("/") or escape_controls(path) != path)


def _markdown_head(tools: tuple[str, ...], locate: Locator | None) -> list[str]:
    """The heading of a tool's table; for several tools, a line naming their files."""
    head = [f"#### {tools_label(tools, _outside_table)}"]
    where = [f for f in map(locate.file, tools) if f is not None] if locate else []
    if len(tools) > 1 and where:
        head += ["", "In " + ", ".join(_outside_table(file) for file in where) + "."]
    return head


def _outside_table(text: str) -> str:
    # Outside a table a pipe needs no escape (and its backslash would show in code).
    return _code_span(text, table=False)


def render_markdown(changes: list[Change], compared: str | None = None,
                    links: SpecLinks | None = None, *, locate: Locator | None = None,
                    said: _Said | None = None) -> str:
    links, said = links or SpecLinks(), said or _Said()
    lines = [MARKER, "### Schema changes", ""]
    if compared:
        lines += [f"Compared {_cell(compared)}.", ""]
    lines += [f"**warning:** {_cell(w)}" for w in said.warnings]
    if said.warnings:
        lines.append("")
    if said.policy:
        lines += [f"**{rules_summary(said.policy)}**", ""]
    if not changes and not said.policy:
        return "\n".join([*lines, said.summary(changes)])
    lines.append(f"**{said.summary(changes)}**")
    for tools, group in _groups(said.policy, changes):
        spec_column = tools is None or any(c.spec is not None for c in changes)
        head = (["#### The gate's rules: `pyproject.toml`"] if tools is None
                else _markdown_head(tools, locate))
        lines += ["", *head, "",
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
            lines.append(f"| {severity} | {_code_span(c.rule)} | {spec}{pointer} | {message} "
                         f"| {_code(c.old)} | {_code(c.new)} |")
    return "\n".join(lines)


def _escape_data(text: str) -> str:
    return escape_github_data(text)


def _escape_prop(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(changes: list[Change], locate: Locator, warnings: Sequence[str] = ()) -> str:
    """``::error file=..,line=..,title=..::message`` per change; info and accepted: notice.
    A row in several tools is annotated on the first's file and names the others'."""
    out = [f"::warning title={_escape_prop('toolc diff policy')}::{_escape_data(w)}"
           for w in warnings]
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
        if c.also:
            message += f"\nalso in: {', '.join(locate.file(k) or k for k in c.also)}"
        if c.spec is not None:
            message += f"\nspec: {c.spec}"
        if c.old is not None:
            message += f"\nold: {_value(c.old, shorten=True)}"
        if c.new is not None:
            message += f"\nnew: {_value(c.new, shorten=True)}"
        out.append(f"::{kind} {','.join(props)}::{_escape_data(message)}")
    return "\n".join(out)
