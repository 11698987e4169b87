"""Render diagnostics as text (with the source line and a caret), JSON or GitHub commands."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

from ..diagnostics import Diagnostic

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


_COLORS = {"error": "\x1b[1;31m", "warning": "\x1b[1;33m", "info": "\x1b[1;36m"}
_BOLD, _BLUE, _RESET = "\x1b[1m", "\x1b[1;34m", "\x1b[0m"


def render_text(
    diagnostics: Iterable[Diagnostic], sources: Mapping[str, str], *, color: bool = False
) -> str:
    """``path:line:col: error[CODE]: message``, then the source line and a caret under it."""
    blocks = [_text_block(d, sources, color) for d in diagnostics]
    return "\n".join(blocks)


def _text_block(d: Diagnostic, sources: Mapping[str, str], color: bool) -> str:
    sev = str(d.severity)
    head = f"{sev}[{d.code}]"
    if color:
        head = f"{_COLORS.get(sev, '')}{head}{_RESET}"
    where = f"{d.span}: " if d.span else ""
    lines = [f"{_BOLD if color else ''}{where}{_RESET if color else ''}{head}: {d.message}"]
    if d.span is not None:
        source_line = _line(sources.get(d.span.path), d.span.line)
        if source_line is not None:
            gutter = str(d.span.line)
            pad = " " * len(gutter)
            # Tabs are shown as one space below, so the caret counts them as one column too.
            caret_at = d.span.col - 1
            width = max(1, min(d.span.length, max(1, len(source_line) - d.span.col + 1)))
            bar = f"{_BLUE}|{_RESET}" if color else "|"
            lines.append(f"{gutter} {bar} {source_line.expandtabs(1)}")
            lines.append(f"{pad} {bar} {' ' * caret_at}{'^' * width}")
    lines.extend(f"  = note: {n}" for n in d.notes)
    return "\n".join(lines)


def _line(text: str | None, number: int) -> str | None:
    if text is None:
        return None
    lines = text.splitlines()
    return lines[number - 1] if 0 < number <= len(lines) else None


def render_json(diagnostics: Iterable[Diagnostic]) -> str:
    """``{"diagnostics": [{code, name, severity, message, path, line, col, notes}]}``."""
    rows = []
    for d in diagnostics:
        s = d.span
        rows.append({
            "code": d.code,
            "name": d.rule.name,
            "severity": str(d.severity),
            "message": d.message,
            "path": s.path if s else None,
            "line": s.line if s else None,
            "col": s.col if s else None,
            "notes": list(d.notes),
        })
    return json.dumps({"diagnostics": rows}, indent=2, ensure_ascii=False)


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_prop(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(diagnostics: Iterable[Diagnostic]) -> str:
    """GitHub Actions workflow commands: ``::error file=..,line=..,col=..::message``."""
    out = []
    for d in diagnostics:
        kind = {"error": "error", "warning": "warning"}.get(str(d.severity), "notice")
        props = [f"title={_escape_prop(f'{d.code} {d.rule.name}')}"]
        if d.span:
            props[:0] = [f"file={_escape_prop(d.span.path)}", f"line={d.span.line}",
                         f"col={d.span.col}"]
        message = d.message + "".join(f"\n{n}" for n in d.notes)
        out.append(f"::{kind} {','.join(props)}::{_escape_data(message)}")
    return "\n".join(out)
