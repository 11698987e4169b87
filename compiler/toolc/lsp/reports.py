"""An analysis's diagnostics as the editor gets them: per file, at their ranges.

Each toolc diagnostic becomes one LSP diagnostic with the same words as ``toolc
validate`` (its message, then each note on a line of its own, controls escaped as in
the text format), its rule's code, its range (the span's start and length), the other
places it is about (``relatedInformation``) and its fixes (``data``, what code actions
apply). The findings about an imported MCP server, folded as ``toolc validate`` folds
them, are one information at the server's toolset.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from lsprotocol import types as lsp
from pygls.workspace.position_codec import PositionCodec

from ..diagnostics import Diagnostic, Fix, Severity, Span
from ..report.escaping import bounded, escape_controls
from .analysis import Analysis
from .places import Lines, span_range, uri_of

SOURCE = "toolc"
_SEVERITY = {Severity.ERROR: lsp.DiagnosticSeverity.Error,
             Severity.WARNING: lsp.DiagnosticSeverity.Warning,
             Severity.INFO: lsp.DiagnosticSeverity.Information}


def message_of(d: Diagnostic) -> str:
    """What the editor shows: the message and its notes, as ``toolc validate`` says them."""
    return "\n".join(escape_controls(bounded(text)) for text in (d.message, *d.notes))


@dataclass(slots=True)
class Published:
    """The diagnostics of one analysis, by the URI of the file they are in."""

    by_uri: dict[str, list[lsp.Diagnostic]] = field(default_factory=dict)
    versions: dict[str, int] = field(default_factory=dict)


def published(analysis: Analysis, codec: PositionCodec) -> Published:
    """Every diagnostic of ``analysis``, converted; a file's lines split once."""
    out = Published()
    lines: dict[str, Lines | None] = {}

    def lines_of(shown: str) -> Lines | None:
        if shown not in lines:
            text = analysis.text_of(shown)
            lines[shown] = None if text is None else Lines(text, codec)
        return lines[shown]

    def uri(shown: str) -> str:
        return uri_of(analysis.path_of(shown))

    for d in analysis.shown:
        span = d.span or _nowhere(analysis)
        if span is None:
            continue
        out.by_uri.setdefault(uri(span.path), []).append(
            _converted(d, span, lines_of(span.path), lines_of, uri, codec))
    for server in analysis.servers:
        found = lines_of(server.spec)
        out.by_uri.setdefault(uri(server.spec), []).append(lsp.Diagnostic(
            range=found.range(server.span) if found else span_range(server.span, None, codec),
            message=escape_controls(server.summary()), source=SOURCE,
            severity=lsp.DiagnosticSeverity.Information))
    for path, version in analysis.snapshot.versions.items():
        out.versions[uri_of(path)] = version
    return out


def _nowhere(analysis: Analysis) -> Span | None:
    """Where a diagnostic located nowhere is shown: the project's pyproject.toml."""
    if analysis.config is None or analysis.config.source is None:
        return None
    return Span(str(analysis.config.source), 1, 1, 0)


def _converted(d: Diagnostic, span: Span, lines: Lines | None, lines_of: Any, uri: Any,
               codec: PositionCodec) -> lsp.Diagnostic:
    related = [lsp.DiagnosticRelatedInformation(
        lsp.Location(uri(r.span.path), _range(r.span, lines_of(r.span.path), codec)),
        escape_controls(bounded(r.message))) for r in d.related]
    return lsp.Diagnostic(
        range=_range(span, lines, codec), message=message_of(d), source=SOURCE,
        severity=_SEVERITY.get(d.severity, lsp.DiagnosticSeverity.Information), code=d.code,
        related_information=related or None,
        data={"fixes": [fix_record(f) for f in d.fixes]} if d.fixes else None)


def _range(span: Span, lines: Lines | None, codec: PositionCodec) -> lsp.Range:
    return lines.range(span) if lines is not None else span_range(span, None, codec)


def fix_record(fix: Fix) -> dict[str, Any]:
    """A fix as a diagnostic's ``data`` carries it to the code action request."""
    return {"title": fix.title, "path": fix.span.path, "line": fix.span.line,
            "col": fix.span.col, "length": fix.span.length, "text": fix.text}


def fixes_in(data: object) -> list[Fix]:
    """The fixes a diagnostic's ``data`` carries back (anything else in it ignored)."""
    items = data.get("fixes") if isinstance(data, dict) else None
    found = []
    for item in items if isinstance(items, list) else ():
        if not isinstance(item, dict):
            continue
        values = [item.get(k) for k in ("title", "path", "line", "col", "length", "text")]
        title, path, line, col, length, text = values
        if isinstance(title, str) and isinstance(path, str) and isinstance(text, str) and all(
                isinstance(v, int) and v >= 0 for v in (line, col, length)):
            found.append(Fix(title, Span(path, line, col, length), text))  # type: ignore[arg-type]
    return found


def cleared(before: Iterable[str], now: Published) -> list[str]:
    """The URIs that had diagnostics and have none now (published empty)."""
    return sorted(set(before) - set(now.by_uri))


__all__ = ["Published", "cleared", "fix_record", "fixes_in", "message_of", "published"]
