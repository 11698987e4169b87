"""Render diagnostics as text (with the source line and a caret), JSON or GitHub commands."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping

from ..diagnostics import Diagnostic, Severity

FORMATS = ("text", "json", "github")


def render(
    diagnostics: Iterable[Diagnostic],
    fmt: str,
    sources: Mapping[str, str],
    *,
    color: bool = False,
) -> str:
    """Render in ``fmt``; ``sources`` maps a path to its text, for the quoted lines."""
    items = list(diagnostics)
    if fmt == "json":
        return render_json(items)
    if fmt == "github":
        return render_github(items)
    return render_text(items, sources, color=color)


# The terminal colour of each severity's word (an "off" one is never shown).
SEVERITY_COLORS = {Severity.ERROR: "\x1b[1;31m", Severity.WARNING: "\x1b[1;33m",
                   Severity.INFO: "\x1b[1;36m"}
_BOLD, _BLUE, _RESET = "\x1b[1m", "\x1b[1;34m", "\x1b[0m"


def render_text(
    diagnostics: Iterable[Diagnostic], sources: Mapping[str, str], *, color: bool = False
) -> str:
    """``path:line:col: error[CODE]: message``, then the source line and a caret under it."""
    lines_of = _SourceLines(sources)
    blocks = [_text_block(d, lines_of, color) for d in diagnostics]
    return "\n".join(blocks)


# At most this many characters of a source line are shown, around the column: a spec
# may hold a 9 MB line, and a diagnostic quotes a place, not a file.
EXCERPT_CHARS = 200
ELLIPSIS = "\u2026"

# What a terminal would act on rather than show: C0 and C1 controls, DEL, and the Unicode
# marks that reorder or split text (bidi overrides, line and paragraph separators); and
# a lone surrogate (a golden file's "\ud800"), which no encoder writes as UTF-8.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069"
                      "\ud800-\udfff]")


# A message quotes names and values from the spec, and a name may be 9 MB long too.
MESSAGE_CHARS = 500


def bounded(text: str, limit: int = MESSAGE_CHARS) -> str:
    """``text``, or its start and end around an ellipsis when it is longer than ``limit``."""
    if len(text) <= limit:
        return text
    half = (limit - 1) // 2
    return f"{text[:half]}{ELLIPSIS}{text[-half:]}"


def escape_controls(text: str) -> str:
    """``text`` with every control character written as an escape (``\\x1b``): what
    reaches a terminal or a CI log is shown, never obeyed."""
    if _CONTROL.search(text) is None:
        return text
    return _CONTROL.sub(_escaped, text)


# What JSON leaves as it is of those (it escapes C0 itself; its own line breaks stay).
_JSON_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def json_text(document: object) -> str:
    """``document`` as indented JSON for a terminal or a log: UTF-8 kept, and besides the
    controls JSON itself escapes, DEL, the C1 controls and the bidi and separator marks
    written as ``\\u`` escapes too, and so are lone surrogates (valid JSON, read back
    the same, and always encodable as UTF-8)."""
    text = json.dumps(document, indent=2, ensure_ascii=False)
    return _JSON_UNSAFE.sub(_json_escaped, text) if _JSON_UNSAFE.search(text) else text


def _json_escaped(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


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


def render_json(diagnostics: Iterable[Diagnostic], **more: object) -> str:
    """``{"diagnostics": [{code, name, severity, message, path, line, col, notes}]}``,
    and the keys of ``more`` after it (``vendor``: :mod:`toolc.report.vendored`)."""
    rows = []
    for d in diagnostics:
        s = d.span
        rows.append({
            "code": d.code,
            "name": d.rule.name,
            "severity": str(d.severity),
            "message": bounded(d.message),
            "path": s.path if s else None,
            "line": s.line if s else None,
            "col": s.col if s else None,
            "notes": [bounded(n) for n in d.notes],
        })
    return json_text({"diagnostics": rows, **more})


def escape_github_data(text: str) -> str:
    """A workflow command's data: its own escapes for ``%``, CR and LF, and the other
    controls written out (an ESC would colour the log, a BEL ring)."""
    lines = text.replace("%", "%25").split("\n")
    return "%0A".join("%0D".join(escape_controls(part) for part in line.split("\r"))
                      for line in lines)


def escape_github_property(text: str) -> str:
    return escape_github_data(text).replace(":", "%3A").replace(",", "%2C")


def github_command(severity: Severity) -> str:
    """The workflow command a finding of ``severity`` is shown with: info is a notice."""
    return str(severity) if severity in (Severity.ERROR, Severity.WARNING) else "notice"


def render_github(diagnostics: Iterable[Diagnostic]) -> str:
    """GitHub Actions workflow commands: ``::error file=..,line=..,col=..::message``."""
    out = []
    for d in diagnostics:
        kind = github_command(d.severity)
        props = [f"title={escape_github_property(f'{d.code} {d.rule.name}')}"]
        if d.span:
            props[:0] = [f"file={escape_github_property(d.span.path)}", f"line={d.span.line}",
                         f"col={d.span.col}"]
        message = bounded(d.message) + "".join(f"\n{bounded(n)}" for n in d.notes)
        out.append(f"::{kind} {','.join(props)}::{escape_github_data(message)}")
    return "\n".join(out)
