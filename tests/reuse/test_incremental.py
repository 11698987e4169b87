"""Incremental builds (toolc.reuse.modules): after random edit sequences, what a build that
reuses its record made equals, byte for byte, what a clean build makes of the same
inputs (no record, the same output folder to start from), and says the same things.

Each step edits the project (a description, a tool added or removed, a spec broken and
mended, the named type other modules use, the configuration, a module deleted or put
back, the predicate certification imports, a module joined to or split from the others'
component, a module renamed onto another's name, a suppression used or left unused, a
schema file a `$ref` inlines, a golden file edited by hand), copies it without its
cache, and builds both copies, certifying. The reusing build takes over the analysis of
the components nothing changed (``toolc.reuse.components``)."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import mcp  # noqa: F401  # the certifying processes forked by the builds inherit it
import pytest
from incremental_support import WORDS, State, output_of, returns_of, shown, write
from toolc.config import load_config
from toolc.pipeline import build
from toolc.report.text import diagnostics_text
from toolc.reuse import components
from toolc.reuse import modules as incremental
from toolc.reuse.memory import MEMORY


def describe(state: State, rng: random.Random) -> None:
    tools = state.tools[rng.choice(list(state.tools))]
    rng.choice(tools)[1] = f"{rng.choice(WORDS).title()} {rng.choice(WORDS)}."


def add_tool(state: State, rng: random.Random) -> None:
    state.made += 1
    # Sometimes a dotted name: a warning (TC302), which a reusing build must say too.
    name = f"made{state.made}" + (".x" if rng.random() < 0.4 else "")
    state.tools[rng.choice(list(state.tools))].append([name, "A made tool."])


def remove_tool(state: State, rng: random.Random) -> None:
    tools = state.tools[rng.choice(list(state.tools))]
    if len(tools) > 1:
        tools.pop(rng.randrange(len(tools)))


def break_spec(state: State, rng: random.Random) -> None:
    state.broken = rng.choice(["base", "mid", "top"])  # mended by the next step


def change_type(state: State, rng: random.Random) -> None:
    if rng.random() < 0.3:
        state.address_description = ""
    elif rng.random() < 0.5:
        state.address_description = f"An address, {rng.choice(WORDS)}."
    elif len(state.address) > 1 and rng.random() < 0.5:
        state.address.pop()
    else:
        state.address.append(rng.choice(["zip", "country", "region"]) + str(state.made))
        state.made += 1


def touch_config(state: State, rng: random.Random) -> None:
    state.config = rng.choice(['format = "assert"', 'TC302 = "off"', 'token-budget = 50', ""])


def toggle_module(state: State, rng: random.Random) -> None:
    state.solo = not state.solo


def touch_user_code(state: State, rng: random.Random) -> None:
    state.version += 1
    state.keeping = rng.random() < 0.5


def link_solo(state: State, rng: random.Random) -> None:
    state.solo_links = not state.solo_links


def rename_lone(state: State, rng: random.Random) -> None:
    state.lone_name = rng.choice(["lone", "lone", "solo", "Solo", "lone2"])


def touch_lone(state: State, rng: random.Random) -> None:
    state.lone_dotted = not state.lone_dotted


def edit_point(state: State, rng: random.Random) -> None:
    state.point = f"A point, {rng.choice(WORDS)}."


def touch_lone_handler(state: State, rng: random.Random) -> None:
    # Only the handler check reads this module (certification imports no handler).
    state.lone_handler = rng.randrange(4)


def tamper_golden(state: State, rng: random.Random) -> None:
    state.tamper = True  # once: `write` edits the file, the build puts it right


EDITS = [describe, add_tool, remove_tool, break_spec, change_type, touch_config,
         toggle_module, touch_user_code, link_solo, rename_lone, touch_lone, edit_point,
         tamper_golden, touch_lone_handler]


STEPS = 14


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_random_edits_build_what_a_clean_build_builds(
        tmp_path: Path, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    taken: list[components.Taken | None] = returns_of(monkeypatch, components, "take_over")
    reused: list[incremental.ModuleReuse] = returns_of(monkeypatch, incremental, "prepare")
    # As in `toolc build --watch`: loaded specs remembered between the builds (of both
    # copies: each by its own paths).
    monkeypatch.setattr(MEMORY, "enabled", True)
    monkeypatch.setattr(MEMORY, "loaded", {})
    state = State()
    project = tmp_path / "project"
    project.mkdir()
    write(project, state)
    assert build(load_config(project)).ok
    for step in range(STEPS):
        was_broken = state.broken
        state.broken = None  # a broken spec is mended at the next step
        edit = rng.choice(EDITS)
        edit(state, rng)
        if was_broken and state.broken == was_broken:
            state.broken = None
        write(project, state)
        clean = tmp_path / f"clean{step}"
        shutil.copytree(project, clean, ignore=shutil.ignore_patterns(".toolc-cache"))
        ours = build(load_config(project))
        theirs = build(load_config(clean), use_cache=False)
        context = f"seed {seed}, step {step}: {edit.__name__}, broken {state.broken}"
        assert shown(ours) == shown(theirs), context
        assert output_of(project) == output_of(clean), context
        shutil.rmtree(clean)
    # Something was reused on the way: the comparison was not between two clean builds;
    # and certification's warnings were among what was said again.
    assert any(r.texts for r in reused) and any(r.verdicts for r in reused)
    assert any(t is not None for t in taken)  # some analysis was taken over
    assert any(d.code == "TC502" for r in reused for v in r.verdicts.values()
               for d in v.diagnostics)


def test_an_edit_to_one_module_regenerates_and_recertifies_only_what_needs_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = State()
    write(tmp_path, state)
    assert build(load_config(tmp_path)).ok
    seen: list[incremental.ModuleReuse] = returns_of(monkeypatch, incremental, "prepare")
    state.tools["mid"][0][1] = "Locate an address, again."
    write(tmp_path, state)
    result = build(load_config(tmp_path))
    assert result.ok and result.plan is not None
    # mid changed; top imports mid: both are made and certified again, the rest reused;
    # lone is not connected to them (solo is, through base): its analysis is taken over.
    assert sorted(seen[0].texts) == sorted(seen[0].verdicts) == ["base", "lone", "solo"]
    assert sorted(seen[0].fresh) == ["mid", "top"]
    assert result.compiled.taken is not None
    assert sorted(result.compiled.taken.modules) == ["lone"]
    assert result.compiled.project is not None
    assert sorted(result.compiled.project.modules) == ["base", "mid", "solo", "top"]


def test_an_edit_to_a_predicate_recertifies_only_the_modules_that_use_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each module's key has the user code certifying it imports, not the project's:
    app.py holds top's predicate and prepare function, and nobody else's."""
    state = State()
    write(tmp_path, state)
    assert build(load_config(tmp_path)).ok
    seen: list[incremental.ModuleReuse] = returns_of(monkeypatch, incremental, "prepare")
    state.version += 1
    state.keeping = True  # `blank` keeps the descriptions now: TC502 is gone
    write(tmp_path, state)
    result = build(load_config(tmp_path))
    assert result.ok and not any(d.code == "TC502" for d in result.compiled.bag)
    assert sorted(seen[0].fresh) == ["top"]
    assert sorted(seen[0].verdicts) == ["base", "lone", "mid", "solo"]


def _record(root: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((root / ".toolc-cache" / "modules.json").read_text())
    return data


def test_a_planted_or_broken_record_only_costs_time(tmp_path: Path) -> None:
    state = State()
    write(tmp_path, state)
    assert build(load_config(tmp_path)).ok
    record = _record(tmp_path)
    entry = record["modules"]["solo"]
    # A record that claims a verdict with an error, and a code hash the file lacks.
    entry["verdict"] = {"diagnostics": [{"code": "TC501", "severity": "error",
                                         "message": "planted", "span": None, "notes": []}],
                        "marks": []}
    record["modules"]["base"]["code"] = "0" * 64
    record["modules"]["top"] = "not an entry"
    record["modules"]["../../escape"] = {"key": "0" * 64, "code": "0" * 64, "verdict": None}
    (tmp_path / ".toolc-cache" / "modules.json").write_text(json.dumps(record))
    state.tools["solo"][0][1] = "Stand alone, edited."  # so the no-op cache misses
    write(tmp_path, state)
    clean = tmp_path.parent / (tmp_path.name + "-clean")
    shutil.copytree(tmp_path, clean, ignore=shutil.ignore_patterns(".toolc-cache"))
    ours = build(load_config(tmp_path))
    (tmp_path / ".toolc-cache" / "modules.json").write_text("{not json")
    assert shown(ours) == shown(build(load_config(clean), use_cache=False))
    assert "planted" not in diagnostics_text(ours.compiled.bag, ours.compiled.sources)
    assert build(load_config(tmp_path)).ok  # an unreadable record: a full build


def test_a_hand_edited_generated_module_is_generated_again(tmp_path: Path) -> None:
    state = State()
    write(tmp_path, state)
    assert build(load_config(tmp_path)).ok
    module = tmp_path / "generated" / "base.py"
    made = module.read_bytes()
    module.write_bytes(made + b"\nimport os  # planted\n")
    state.tools["solo"][0][1] = "Stand alone, edited."
    write(tmp_path, state)
    assert build(load_config(tmp_path)).ok
    assert module.read_bytes() == made


def test_a_checking_build_never_reads_the_record(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    state = State()
    write(tmp_path, state)
    assert build(load_config(tmp_path)).ok
    monkeypatch.setattr(incremental, "prepare", lambda *a, **k: pytest.fail("read"))
    state.tools["solo"][0][1] = "Stand alone, edited."
    write(tmp_path, state)
    result = build(load_config(tmp_path), check=True)
    assert result.ok and result.diff is not None and result.diff.changes


def test_a_record_that_came_with_a_copy_reuses_nothing(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A checkout brings its own generated/ and .toolc-cache/ (a pull request can plant
    both, hashes matching): its files are not the ones the record's build wrote."""
    state = State()
    origin = tmp_path / "origin"
    origin.mkdir()
    write(origin, state)
    assert build(load_config(origin)).ok
    copy = tmp_path / "copy"
    shutil.copytree(origin, copy)  # times kept (copy2), other files all the same
    (copy / "generated" / "solo.py").write_text("planted = True\n")
    record = _record(copy)
    record["modules"]["solo"]["code"] = incremental.code_hash("planted = True\n")
    (copy / ".toolc-cache" / "modules.json").write_text(json.dumps(record))
    seen: list[incremental.ModuleReuse] = returns_of(monkeypatch, incremental, "prepare")
    state.tools["base"][0][1] = "Answer pong, edited."
    write(copy, state)
    assert build(load_config(copy)).ok
    assert seen[0].texts == {} and seen[0].verdicts == {}
    assert "planted" not in (copy / "generated" / "solo.py").read_text()
