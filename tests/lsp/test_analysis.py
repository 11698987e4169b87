"""An analysis as the editor holds the project says what a full analysis says.

After a clean writing build has recorded its components, the server analyses only the
specs an edit can reach and takes the others over (``components.take_over``), even
while the edited specs have errors. Random sequences of edits to unsaved buffers (typos,
references to other modules' types and toolsets, near misses of module names, broken
YAML, a lost or a taken module name, a type others use removed) are analysed both ways
after each step, and must give the same diagnostics (removing either safeguard of the
front end, the names looked up in vain or the findings on resolved tools held back,
fails it); one typo is shown to be analysed alone.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from project_support import make_project
from toolc.config import load_config
from toolc.frontend import compile_specs
from toolc.lsp.analysis import Snapshot, analyse
from toolc.pipeline import build
from toolc.reuse.memory import MEMORY

TOOL = ("  t{n}:\n    description: Tool {n}.\n    handler: app.tools:run\n    params:\n"
        "      x: {{type: string, description: An x.}}\n")
SPECS = {
    "a": "types:\n  Level: {description: How much., enum: [low, high]}\ntools:\n" + TOOL.format(n=1)
         + "toolsets:\n  main: {kind: function, tools: [t1]}\nexport: main\n",
    "b": "tools:\n" + TOOL.format(n=2).replace("type: string", "type: a.Level")
         + "toolsets:\n  own: {kind: function, tools: [t2]}\n"
           "  all: {kind: combined, toolsets: [own, a.main]}\nexport: all\n",
    "c": "tools:\n" + TOOL.format(n=3) + "toolsets:\n  main: {kind: function, tools: [t3]}\n",
    "d": "toolsets:\n  pre: {kind: prefixed, inner: c.main, prefix: d_}\nexport: pre\n",
    "e": "tools:\n  e.t4:  # toolc: ignore[TC302]\n    description: Tool 4.\n"
         "    handler: app.tools:run\n  e.t5:\n    description: Tool 5.\n"
         "    handler: app.tools:run\n",
    "f": "tools:\n" + TOOL.format(n=6) + TOOL.format(n=7),
}
TOKEN_BUDGET = "token-budget = 60\n"


def edits(rng: random.Random, name: str, text: str) -> str:
    other = rng.choice(sorted(SPECS))
    choices = [
        lambda t: t.replace("description:", "descripton:", 1),
        lambda t: t.replace("type: string", f"type: {other}.Level", 1),
        lambda t: t.replace("type: string", "type: zz.Level", 1),
        lambda t: t.replace("type: string", f"type: {other}x.Level", 1),
        lambda t: t.replace("type: a.Level", "type: a.Levl", 1),
        lambda t: t.replace("inner: c.main", f"inner: {other}.main", 1),
        lambda t: t + "\n  broken: [\n",
        lambda t: t.replace(f"module: {name}\n", "", 1),
        lambda t: t.replace(f"module: {name}\n", f"module: {other}\n", 1),
        lambda t: t.replace("  Level: {description: How much., enum: [low, high]}\n", "", 1),
        lambda t: t.replace("Tool", "A tool", 1),
        lambda t: t.replace("tools: [t", "tools: [tt", 1),
    ]
    return str(rng.choice(choices)(text))


def diagnostics(compiled: object) -> list[tuple[object, ...]]:
    bag = compiled.bag  # type: ignore[attr-defined]
    return [(d.code, d.severity, d.message, d.span, d.notes) for d in bag.sorted()]


@pytest.mark.parametrize("seed", range(int(os.environ.get("TOOLC_LSP_SEEDS", "4"))))
def test_random_edits_are_analysed_as_a_full_analysis_would(
        tmp_path: Path, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(MEMORY, "enabled", False)
    monkeypatch.setattr(MEMORY, "loaded", {})
    monkeypatch.setattr(MEMORY, "components", None)
    rng = random.Random(seed)
    texts = _project(tmp_path)
    config = load_config(tmp_path)
    assert build(config, certify=False).ok
    clean = dict(texts)
    for step in range(16):
        if rng.random() < 0.6:
            texts = dict(clean)  # the edits undone (most steps: one edit from a clean state)
        path = rng.choice(sorted(texts))
        texts[path] = edits(rng, path.name.split(".")[0], texts[path])
        overlay = {p: t.encode() for p, t in texts.items()}
        found = analyse(tmp_path, Snapshot(step + 1, overlay))
        full = compile_specs(config, overlay=overlay)
        assert found.compiled is not None
        assert diagnostics(found.compiled) == diagnostics(full), (seed, step)
        assert (found.compiled.project is None) == (full.project is None)


def test_a_typo_is_analysed_alone_and_said_as_a_full_analysis_says_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(MEMORY, "enabled", False)
    monkeypatch.setattr(MEMORY, "loaded", {})
    monkeypatch.setattr(MEMORY, "components", None)
    texts = _project(tmp_path)
    config = load_config(tmp_path)
    assert build(config, certify=False).ok
    typo = tmp_path / "specs" / "c.toolc.yaml"
    overlay = {p: t.encode() for p, t in texts.items()}
    overlay[typo] = texts[typo].replace("description:", "descripton:", 1).encode()
    found = analyse(tmp_path, Snapshot(1, overlay))
    full = compile_specs(config, overlay=overlay)
    assert found.compiled is not None and found.compiled.bag.has_errors
    assert found.reused == 3  # all but the component of c and d: (a, b), e, f
    assert diagnostics(found.compiled) == diagnostics(full)
    assert "TC512" not in {d[0] for d in diagnostics(full)}  # no budget with errors


def _project(root: Path) -> dict[Path, str]:
    texts = {name: f"toolc: 1\nmodule: {name}\n{body}" for name, body in SPECS.items()}
    make_project(root, texts, extra=TOKEN_BUDGET)
    return {root / "specs" / f"{name}.toolc.yaml": text for name, text in texts.items()}
