"""Every suggestion a diagnostic makes comes with the fix that makes it, and applying the
fix to the spec's text makes the diagnostic go away (no message is read to do so)."""

from __future__ import annotations

from pathlib import Path

import pytest
from suggestion_support import CASES, HEAD
from toolc.diagnostics import Diagnostic, DiagnosticBag, Fix, Span, part_span, replacement
from toolc.frontend import analyse
from toolc.loader import load_text


def diagnose(texts: dict[str, str], python_path: tuple[Path, ...] = ()) -> list[Diagnostic]:
    bag = DiagnosticBag()
    analyse([load_text(t, p) for p, t in texts.items()], bag, python_path=python_path)
    return bag.sorted()


def applied(text: str, fix: Fix) -> str:
    lines = text.split("\n")
    line, at = lines[fix.span.line - 1], fix.span.col - 1
    lines[fix.span.line - 1] = line[:at] + fix.text + line[at + fix.span.length:]
    return "\n".join(lines)


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_fix_makes_its_diagnostic_go_away(case: str) -> None:
    texts = CASES[case] if isinstance(CASES[case], dict) else {"m.toolc.yaml": CASES[case]}
    assert isinstance(texts, dict)
    before = diagnose(texts)
    fixed = [d for d in before if d.fixes]
    assert fixed, [(d.code, d.message) for d in before]
    target = fixed[0]
    assert target.span is not None
    fix = target.fixes[0]
    texts = {**texts, fix.span.path: applied(texts[fix.span.path], fix)}
    after = diagnose(texts)
    assert not [d for d in after if d.code == target.code], (case, fix, after)


def test_handler_near_misses_are_fixed(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "__init__.py").write_text("")
    (tmp_path / "app" / "tools.py").write_text("def read(ctx): ...\n")
    for wrong in ("app.tools:raed", "app.tool:read"):
        text = HEAD + f"tools:\n  read:\n    description: Read it.\n    handler: {wrong}\n"
        (d,) = diagnose({"m.toolc.yaml": text}, (tmp_path,))
        (fix,) = d.fixes
        assert diagnose({"m.toolc.yaml": applied(text, fix)}, (tmp_path,)) == []


def test_a_fix_is_only_made_where_the_text_is_known() -> None:
    at = Span("a", 3, 10, 9)  # `"x.Point"`: quoted, no escapes
    assert part_span(at, "x.Point", 2) == Span("a", 3, 13, 5)
    assert replacement(Span("a", 3, 10, 12), "x.Point", "y") == ()  # escapes: unknown places
