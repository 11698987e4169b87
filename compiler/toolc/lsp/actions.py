"""Code actions: the fixes the diagnostics carry, as edits the editor applies.

Each diagnostic of toolc brings its fixes as data (:class:`~toolc.diagnostics.Fix`: a
span and the text it becomes, carried in the LSP diagnostic's ``data``): a near miss
for a misspelt key, kind, type, toolset, tool or handler, the text of a one-line mapping
quoted where a ``,`` cut it, ``requires_approval`` for ``approval_required``, a
description stub to fill in, a suppression comment without the codes it names in vain.
Nothing is read back from a message. A rename is an edit of every place too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from lsprotocol import types as lsp

from ..diagnostics import Fix, Span
from .places import Lines, uri_of
from .reports import fixes_in

LinesOf = Callable[[str], Lines | None]  # a spec as diagnostics name it -> its lines


def edit(span: Span, text: str, lines: Lines) -> lsp.TextEdit:
    return lsp.TextEdit(lines.range(span), text)


def workspace_edit(changes: Iterable[tuple[Span, str]], lines_of: LinesOf,
                   path_of: Callable[[str], Path]) -> lsp.WorkspaceEdit | None:
    """One edit of every file ``changes`` touch (None if a file's text is unknown)."""
    by_uri: dict[str, list[lsp.TextEdit]] = {}
    for span, text in changes:
        lines = lines_of(span.path)
        if lines is None:
            return None
        by_uri.setdefault(uri_of(path_of(span.path)), []).append(edit(span, text, lines))
    return lsp.WorkspaceEdit(changes=by_uri)


def quick_fixes(diagnostics: Iterable[lsp.Diagnostic], lines_of: LinesOf,
                path_of: Callable[[str], Path]) -> list[lsp.CodeAction]:
    """A quick fix for each fix of each diagnostic (of toolc's) in the request."""
    actions = []
    for diagnostic in diagnostics:
        if diagnostic.source != "toolc":
            continue
        for fix in fixes_in(diagnostic.data):
            change = workspace_edit([(fix.span, fix.text)], lines_of, path_of)
            if change is not None:
                actions.append(lsp.CodeAction(
                    title=fix.title, kind=lsp.CodeActionKind.QuickFix,
                    diagnostics=[diagnostic], edit=change, is_preferred=_preferred(fix)))
    return actions


def _preferred(fix: Fix) -> bool:
    """A near miss is what was meant, most likely: the one fix to apply at a keystroke."""
    return fix.title.startswith("Replace ")


__all__ = ["edit", "quick_fixes", "workspace_edit"]
