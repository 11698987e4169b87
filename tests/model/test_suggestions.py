"""Every suggestion a diagnostic makes comes with the fix that makes it, and applying the
fix to the spec's text makes the diagnostic go away (no message is read to do so)."""

from __future__ import annotations

from pathlib import Path

import pytest
from toolc.diagnostics import Diagnostic, DiagnosticBag, Fix, Span, part_span, replacement
from toolc.frontend import analyse
from toolc.loader import load_text

HEAD = "toolc: 1\nmodule: m\n"
TOOL = "  read:\n    description: Read it.\n    handler: app.tools:read\n"


def diagnose(texts: dict[str, str], python_path: tuple[Path, ...] = ()) -> list[Diagnostic]:
    bag = DiagnosticBag()
    analyse([load_text(t, p) for p, t in texts.items()], bag, python_path=python_path)
    return bag.sorted()


def applied(text: str, fix: Fix) -> str:
    lines = text.split("\n")
    line, at = lines[fix.span.line - 1], fix.span.col - 1
    lines[fix.span.line - 1] = line[:at] + fix.text + line[at + fix.span.length:]
    return "\n".join(lines)


CASES = {
    "misspelt tool key": HEAD + "tools:\n  read:\n    descripton: Read it.\n"
                         "    handler: app.tools:read\n",
    "misspelt kind": HEAD + "tools:\n" + TOOL + "toolsets:\n  main: {kind: functon, tools: [read]}\n",
    "misspelt keyword": HEAD + "tools:\n" + TOOL + "    params:\n"
                        "      n: {type: integer, description: N., minimun: 1}\n",
    "misspelt local type": HEAD + "types:\n  Level: {description: L., enum: [a, b]}\ntools:\n"
                           + TOOL + "    params:\n      n: {type: Levle, description: N.}\n",
    "misspelt type of a module": {"o.toolc.yaml": "toolc: 1\nmodule: other\ntypes:\n"
                                  "  Level: {description: L., enum: [a, b]}\ntools: {}\n",
                                  "m.toolc.yaml": HEAD + "tools:\n" + TOOL + "    params:\n"
                                  "      n: {type: other.Levl, description: N.}\n"},
    "misspelt module of a type": {"o.toolc.yaml": "toolc: 1\nmodule: other\ntypes:\n"
                                  "  Level: {description: L., enum: [a, b]}\ntools: {}\n",
                                  "m.toolc.yaml": HEAD + "tools:\n" + TOOL + "    params:\n"
                                  "      n: {type: othr.Level, description: N.}\n"},
    "misspelt required": HEAD + "tools:\n" + TOOL + "    params:\n      o:\n        type: object\n"
                         "        description: O.\n        properties:\n"
                         "          name: {type: string, description: N.}\n"
                         "        required: [nmae]\n",
    "misspelt tool in a toolset": HEAD + "tools:\n" + TOOL + "toolsets:\n"
                                  "  main: {kind: function, tools: [raed]}\n",
    "misspelt inner": HEAD + "tools:\n" + TOOL + "toolsets:\n  main: {kind: function, tools: [read]}\n"
                      "  pre: {kind: prefixed, inner: mian, prefix: p_}\n",
    "misspelt export": HEAD + "tools:\n" + TOOL + "toolsets:\n  main: {kind: function, tools: [read]}\n"
                       "export: mian\n",
    "misspelt rename": HEAD + "tools:\n" + TOOL + "toolsets:\n  main: {kind: function, tools: [read]}\n"
                       "  short:\n    kind: renamed\n    inner: main\n    names: {raed: r}\n",
    "misspelt search key": HEAD + "tools:\n" + TOOL + "    meta: {anthropic/alwaysLaod: true}\n",
    "approval_required on a tool": HEAD + "tools:\n" + TOOL + "    approval_required: true\n",
    "a comma in a one-line mapping": HEAD + "tools:\n" + TOOL + "    params:\n"
                                     "      at: {type: string, description: Start time, ISO 8601.}\n",
    "no description, block": HEAD + "tools:\n  read:\n    handler: app.tools:read\n",
    "no description, flow": HEAD + "tools:\n" + TOOL + "    params:\n      n: {type: integer}\n",
    "unused suppression": HEAD + "tools:\n  read:  # toolc: ignore[TC201]\n"
                          "    description: Read it.\n    handler: app.tools:read\n",
}


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
