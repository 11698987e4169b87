"""The text format, for a terminal or a log: diagnostics as ``path:line:col:
error[CODE]: message`` with the source line and a caret under it; classified changes
grouped per tool (a row in several tools once, under all their keys and golden files),
then the warnings and the summary (:mod:`toolc.report.summary`). ANSI colours when
``color`` (decide with :func:`want_color`, which honours ``NO_COLOR``); every string
taken from the input has its controls escaped (:mod:`toolc.report.escaping`)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, TextIO

from ..diagnostics import Diagnostic, Severity
from .change_parts import WHOLE_TOOL, Locator, Said, groups, shown_value, tools_label
from .escaping import ELLIPSIS, bounded, escape_controls

if TYPE_CHECKING:
    from ..diff.result import Change
    from .vendored import PinnedServer

# The terminal colour of each severity's word (an "off" one is never shown).
SEVERITY_COLORS = {Severity.ERROR: "\x1b[1;31m", Severity.WARNING: "\x1b[1;33m",
                   Severity.INFO: "\x1b[1;36m"}
_BOLD, _DIM, _BLUE, _RED, _GREEN, _RESET = ("\x1b[1m", "\x1b[2m", "\x1b[1;34m", "\x1b[31m",
                                            "\x1b[32m", "\x1b[0m")


def want_color(stream: TextIO) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set (https://no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def diagnostics_text(
    diagnostics: Iterable[Diagnostic], sources: Mapping[str, str], *, color: bool = False
) -> str:
    """``path:line:col: error[CODE]: message``, then the source line and a caret under it;
    ``sources`` maps a path to its text, for the quoted lines."""
    lines_of = _SourceLines(sources)
    blocks = [_text_block(d, lines_of, color) for d in diagnostics]
    return "\n".join(blocks)


# At most this many characters of a source line are shown, around the column: a spec
# may hold a 9 MB line, and a diagnostic quotes a place, not a file.
EXCERPT_CHARS = 200

# The line breaks YAML counts (str.splitlines also breaks at form feeds and other
# controls, which would number the lines differently from the parser).
_YAML_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")


class _SourceLines:
    """Each source split into lines once (not once per diagnostic: 40,000 diagnostics of
    one file re-split it 40,000 times)."""

    def __init__(self, sources: Mapping[str, str]) -> None:
        self.sources = sources
        self.split: dict[str, list[str]] = {}

    def line(self, path: str, number: int) -> str | None:
        lines = self.split.get(path)
        if lines is None:
            text = self.sources.get(path)
            if text is None:
                return None
            lines = _YAML_BREAK.split(text)
            if lines and not lines[-1]:
                lines.pop()  # the break that ends the last line starts no line
            self.split[path] = lines
        return lines[number - 1] if 0 < number <= len(lines) else None


def _text_block(d: Diagnostic, lines_of: _SourceLines, color: bool) -> str:
    head = f"{d.severity}[{d.code}]"
    if color:
        head = f"{SEVERITY_COLORS.get(d.severity, '')}{head}{_RESET}"
    where = f"{escape_controls(bounded(str(d.span)))}: " if d.span else ""
    message = escape_controls(bounded(d.message))
    lines = [f"{_BOLD if color else ''}{where}{_RESET if color else ''}{head}: {message}"]
    if d.span is not None:
        source_line = lines_of.line(d.span.path, d.span.line)
        if source_line is not None:
            shown, caret_at, width = excerpt(source_line, d.span.col, d.span.length)
            gutter = str(d.span.line)
            pad = " " * len(gutter)
            bar = f"{_BLUE}|{_RESET}" if color else "|"
            lines.append(f"{gutter} {bar} {shown}")
            lines.append(f"{pad} {bar} {' ' * caret_at}{'^' * width}")
    lines.extend(f"  = note: {escape_controls(bounded(n))}" for n in d.notes)
    return "\n".join(lines)


def excerpt(line: str, col: int, length: int) -> tuple[str, int, int]:
    """The part of ``line`` to show for a span at ``col`` (1-based) of ``length``
    characters: at most :data:`EXCERPT_CHARS` of it, around the column, cut ends marked
    with an ellipsis, controls escaped, tabs shown as one space. Returns the text, the
    caret's offset in it and the caret's width."""
    at = max(0, min(col - 1, len(line)))
    start = 0
    if len(line) > EXCERPT_CHARS:
        start = max(0, min(at - EXCERPT_CHARS // 2, len(line) - EXCERPT_CHARS))
    end = min(len(line), start + EXCERPT_CHARS)
    stop = min(end, at + max(1, length))
    before, marked, after = _shown(line[start:at]), _shown(line[at:stop]), _shown(line[stop:end])
    lead = ELLIPSIS if start > 0 else ""
    tail = ELLIPSIS if end < len(line) else ""
    return (f"{lead}{before}{marked}{after}{tail}", len(lead) + len(before),
            max(1, len(marked)))


def _shown(text: str) -> str:
    return escape_controls(text.replace("\t", " "))


def folded_servers_text(servers: Iterable[PinnedServer]) -> str:
    """``path:line:col: <summary>`` per pinned MCP server whose findings were folded."""
    return "\n".join(escape_controls(f"{bounded(str(s.span))}: {s.summary()}")
                     for s in servers)


RULES_HEADING = "the gate's rules (pyproject.toml), as this pull request changes them"


def _tools_head(tools: tuple[str, ...], locate: Locator | None) -> list[str]:
    """The tool's key and golden file; for several tools, their files one a line."""
    where = [f for f in map(locate.file, tools) if f is not None] if locate else []
    if len(tools) == 1:
        return [f"tool {escape_controls(tools[0])}"
                + (f" ({escape_controls(where[0])})" if where else "")]
    return [f"tool {escape_controls(tools_label(tools))}",
            *(f"  {escape_controls(file)}" for file in where)]


def changes_text(changes: list[Change], *, color: bool = False,
                 locate: Locator | None = None, said: Said | None = None,
                 closing: str | None = None) -> str:
    """The changes per tool, the warnings, then the summary (or ``closing``)."""
    def paint(code: str, text: str) -> str:
        return f"{code}{text}{_RESET}" if color else text

    said = said or Said()
    blocks = [said.rules_summary()] if said.policy else []
    for tools, group in groups(said.policy, changes):
        # Names, pointers and values come from the golden files (a pull request's):
        # their control characters are shown, never sent to the terminal.
        head, *files = [RULES_HEADING] if tools is None else _tools_head(tools, locate)
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
                old = escape_controls(shown_value(c.old, shorten=True))
                lines.append("    " + paint(_RED, f"- {old}"))
            if c.new is not None:
                new = escape_controls(shown_value(c.new, shorten=True))
                lines.append("    " + paint(_GREEN, f"+ {new}"))
        blocks.append("\n".join(lines))
    if said.warnings:
        blocks.append("\n".join(f"warning: {escape_controls(w)}" for w in said.warnings))
    blocks.append(said.summary(changes) if closing is None else closing)
    return "\n\n".join(blocks)
