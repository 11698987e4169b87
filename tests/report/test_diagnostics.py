"""Diagnostic formatters: text with source and caret, json, github commands."""

from __future__ import annotations

import json

from toolc.diagnostics import Diagnostic, Severity, Span
from toolc.report.diagnostics import render

SOURCE = {"specs/a.toolc.yaml": "tools:\n  readLog:\n    descripton: Read.\n"}
DIAG = Diagnostic("TC101", Severity.ERROR,
                  "unknown key 'descripton' (did you mean 'description'?)",
                  Span("specs/a.toolc.yaml", 3, 5, 10), ("known keys: description, title",))


def test_text_shows_location_source_line_and_caret() -> None:
    assert render([DIAG], "text", SOURCE) == (
        "specs/a.toolc.yaml:3:5: error[TC101]: unknown key 'descripton' "
        "(did you mean 'description'?)\n"
        "3 |     descripton: Read.\n"
        "  |     ^^^^^^^^^^\n"
        "  = note: known keys: description, title"
    )


def test_text_without_source_or_span() -> None:
    d = Diagnostic("TC901", Severity.WARNING, "odd", None)
    assert render([d], "text", {}) == "warning[TC901]: odd"


def test_text_colour_only_when_asked() -> None:
    assert "\x1b[" not in render([DIAG], "text", SOURCE)
    assert "\x1b[1;31merror[TC101]" in render([DIAG], "text", SOURCE, color=True)


def test_json_has_every_field() -> None:
    [row] = json.loads(render([DIAG], "json", SOURCE))["diagnostics"]
    assert row == {
        "code": "TC101", "name": "unknown-key", "severity": "error",
        "message": "unknown key 'descripton' (did you mean 'description'?)",
        "path": "specs/a.toolc.yaml", "line": 3, "col": 5,
        "notes": ["known keys: description, title"],
    }


def test_github_workflow_command_escapes_data_and_properties() -> None:
    d = Diagnostic("TC204", Severity.WARNING, "50% off,\nreally", Span("a,b:c.yaml", 2, 7))
    assert render([d], "github", {}) == (
        "::warning file=a%2Cb%3Ac.yaml,line=2,col=7,title=TC204 bad-default::50%25 off,%0Areally"
    )
