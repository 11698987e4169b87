"""Places in a spec as toolc counts them and as the editor does.

toolc counts lines as YAML does (``\\n``, ``\\r\\n``, ``\\r`` and the Unicode breaks) and
columns in characters, from 1; a :class:`~toolc.diagnostics.Span` is a start and a length
on its line. An LSP position counts from 0, its column in the code units the client and
server agreed on at start (UTF-16 unless the client offers another: ``PositionCodec``).
:class:`Lines` converts between the two for one text, and ``uri``/``path`` between a
file and the editor's name for it.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types as lsp
from pygls.workspace.position_codec import PositionCodec

from ..diagnostics import Span

# The line breaks YAML counts (report.text splits its quoted lines so too).
_YAML_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")


class Lines:
    """One text's lines, and positions in it converted both ways."""

    def __init__(self, text: str, codec: PositionCodec) -> None:
        self.text = text
        self.lines = _YAML_BREAK.split(text)
        self.codec = codec

    def line(self, number: int) -> str:
        """Line ``number`` (1-based), or ``""`` past the end."""
        return self.lines[number - 1] if 0 < number <= len(self.lines) else ""

    def position(self, line: int, col: int) -> lsp.Position:
        """toolc's (line, col), both from 1, as an LSP position."""
        text = self.line(line)
        at = max(0, min(col - 1, len(text)))
        return lsp.Position(max(0, line - 1), self.codec.client_num_units(text[:at]))

    def range(self, span: Span) -> lsp.Range:
        """A span's start and end (its length, on its line)."""
        return lsp.Range(self.position(span.line, span.col),
                         self.position(span.line, span.col + max(0, span.length)))

    def place(self, position: lsp.Position) -> tuple[int, int]:
        """An LSP position as toolc's (line, col), both from 1."""
        text = self.line(position.line + 1)
        units, col = 0, 0
        while col < len(text) and units < position.character:
            units += self.codec.client_num_units(text[col])
            col += 1
        return position.line + 1, col + 1

    def offset(self, position: lsp.Position) -> int:
        """An LSP position as an index into the text."""
        line, col = self.place(position)
        starts = [m.end() for m in _YAML_BREAK.finditer(self.text)]
        start = 0 if line == 1 else starts[line - 2] if line - 2 < len(starts) else len(self.text)
        return min(len(self.text), start + col - 1)


def uri_of(path: Path) -> str:
    return path.absolute().as_uri()


def path_of(uri: str) -> Path | None:
    """The absolute file a ``file:`` URI names (None for other schemes)."""
    parts = urlparse(uri)
    if parts.scheme != "file":
        return None
    return Path(unquote(parts.path)).absolute()


def span_range(span: Span, text: str | None, codec: PositionCodec) -> lsp.Range:
    """A span's range in a text (None: the text is unknown, columns taken as they are)."""
    return Lines(text or "", codec).range(span) if text is not None else lsp.Range(
        lsp.Position(span.line - 1, span.col - 1),
        lsp.Position(span.line - 1, span.col - 1 + span.length))


__all__ = ["Lines", "path_of", "span_range", "uri_of"]
