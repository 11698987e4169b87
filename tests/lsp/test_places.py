"""Spans as the editor counts: lines from 0, columns in the negotiated code units."""

from __future__ import annotations

from lsprotocol import types as lsp
from pygls.workspace.position_codec import PositionCodec
from toolc.diagnostics import Span
from toolc.lsp.places import Lines, path_of, uri_of

UTF16, UTF8 = PositionCodec(lsp.PositionEncodingKind.Utf16), PositionCodec(lsp.PositionEncodingKind.Utf8)


def test_a_span_after_wide_characters_is_counted_in_the_clients_units() -> None:
    text = "toolc: 1\ndescription: 😀é descripton\n"
    span = Span("a.toolc.yaml", 2, 17, 10)  # `descripton`, after an emoji and an accent
    assert Lines(text, UTF16).range(span) == lsp.Range(lsp.Position(1, 17), lsp.Position(1, 27))
    assert Lines(text, UTF8).range(span) == lsp.Range(lsp.Position(1, 20), lsp.Position(1, 30))


def test_a_position_comes_back_as_the_same_place() -> None:
    text = "a: 😀x\r\nb: y\n"
    lines = Lines(text, UTF16)
    assert lines.place(lsp.Position(0, 5)) == (1, 5)   # the x, after a 2-unit emoji
    assert lines.place(lsp.Position(1, 3)) == (2, 4)   # \r\n is one break, as YAML says
    assert text[lines.offset(lsp.Position(1, 3))] == "y"


def test_files_and_uris() -> None:
    path = path_of(uri_of(__import__("pathlib").Path("/tmp/a b/x.toolc.yaml")))
    assert str(path) == "/tmp/a b/x.toolc.yaml"
    assert path_of("untitled:Untitled-1") is None
