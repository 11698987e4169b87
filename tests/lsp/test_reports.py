"""The editor is told exactly what ``toolc validate`` says, at the same places.

For every case of ``tests/fixtures/invalid/`` (each made a project of its own), one
``toolc lsp`` session, driven by a real LSP client, opens the case's specs (their text
as an editor holds it, unsaved) and compares what it publishes with ``toolc validate
--format json`` of the same project: the same files, and per file the same diagnostics
in the same order, each with its code, severity, message and notes (as the text
format says them, controls escaped), line and column (in the client's UTF-16 units);
the folded findings about imported MCP servers as one information each.
"""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types as lsp
from project_support import pyproject
from toolc.commands.validate import validate
from toolc.report.escaping import bounded, escape_controls

from .lsp_support import diagnostics_of, open_spec, session, switch

INVALID = Path(__file__).resolve().parents[1] / "fixtures" / "invalid"
CASES = sorted(p.name for p in INVALID.iterdir() if p.is_dir())
_YAML_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")  # the line breaks YAML counts
_SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning,
             "info": lsp.DiagnosticSeverity.Information}


def project_of(case: str, into: Path) -> Path:
    """The case as a project: its files (links kept), a pyproject.toml naming them."""
    root = into / case
    shutil.copytree(INVALID / case, root, symlinks=True)
    handlers = ["handlers"] if (root / "handlers").is_dir() else []
    (root / "pyproject.toml").write_text(pyproject(".", python_path=handlers), encoding="utf-8")
    return root


def validated(root: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    out = io.StringIO()
    with monkeypatch.context() as m:
        m.chdir(root)
        validate((), fmt="json", out=out, err=io.StringIO())
    return dict(json.loads(out.getvalue()))


def expected_by_file(report: dict[str, Any]) -> dict[str, list[tuple[Any, ...]]]:
    found: dict[str, list[tuple[Any, ...]]] = {}
    for d in report["diagnostics"]:
        text = "\n".join(escape_controls(bounded(t)) for t in (d["message"], *d["notes"]))
        found.setdefault(d["path"], []).append(
            (d["code"], _SEVERITY[d["severity"]], text, d["line"] - 1, d["col"]))
    for server in report["vendor"]:
        found.setdefault(server["path"], []).append(
            (None, lsp.DiagnosticSeverity.Information, None, server["line"] - 1, None))
    return found


def utf16_column(text: str | None, line: int, col: int | None) -> int | None:
    """toolc's column (characters, from 1) on ``line`` (from 0) as the client counts it:
    UTF-16 code units from 0 (the columns as they are where the text is unknown)."""
    if col is None:
        return None
    if text is None:
        return col - 1
    lines = _YAML_BREAK.split(text)
    before = lines[line][:col - 1] if line < len(lines) else ""
    return len(before.encode("utf-16-le")) // 2


def openable(path: Path) -> str | None:
    """A spec's text as an editor would open it (None: a link, not text)."""
    if path.is_symlink():
        return None
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        return None


@pytest.mark.asyncio
async def test_every_invalid_case_is_published_as_validate_reports_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    roots = {case: project_of(case, tmp_path) for case in CASES}
    expected = {case: expected_by_file(validated(root, monkeypatch))
                for case, root in roots.items()}
    first = roots[CASES[0]]
    compared = 0
    async with session(first) as client:
        previous = first
        for case, root in roots.items():
            if root != previous:
                switch(client, previous, root)
                previous = root
            opened = {}
            for spec in sorted(root.glob("*.toolc.yaml")):
                text = openable(spec)
                if text is not None and "\x00" not in text:
                    open_spec(client, spec, text)
                    opened[spec] = text
            for spec in sorted(root.glob("*.toolc.yaml")):
                wanted = expected[case].get(spec.name, [])
                if spec not in opened and not wanted:
                    continue  # nothing to say of it, and no buffer to hear so
                got = await diagnostics_of(client, spec, version=1 if spec in opened else None)
                said = [(d.code, d.severity, d.message if d.code else None, d.range.start.line,
                         d.range.start.character if d.code else None) for d in got]
                assert said == [(*w[:4], utf16_column(opened.get(spec), w[3], w[4]))
                                for w in wanted], f"{case}/{spec.name}"
                for d in got:
                    assert d.range.end.line == d.range.start.line
                    assert d.range.end.character >= d.range.start.character
                compared += len(wanted)
    assert compared >= len(CASES)  # every case says something
