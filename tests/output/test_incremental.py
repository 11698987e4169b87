"""Incremental builds (toolc.output.incremental): after random edit sequences, what a build that
reuses its record made equals, byte for byte, what a clean build makes of the same
inputs (no record, the same output folder to start from), and says the same things.

Each step edits the project (a description, a tool added or removed, a spec broken and
mended, the named type other modules use, the configuration, a module deleted or put
back, the predicate certification imports), copies it without its cache, and builds
both copies, certifying."""

from __future__ import annotations

import json
import random
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import mcp  # noqa: F401  # the certifying processes forked by the builds inherit it
import pytest
from toolc.config import load_config
from toolc.output import incremental
from toolc.pipeline import BuildResult, build
from toolc.report.diagnostic_formats import render_text

HANDLERS = '''\
"""Handlers, predicate and prepare function of the incremental-build test (version {version})."""

import dataclasses


async def handle(ctx, **params):
    return "ok"


def always(ctx):
    return True


def blank(ctx, tools):  # loses the descriptions: a certification finding (TC502)
    return [dataclasses.replace(tool, description="") for tool in tools]
'''

WORDS = ["alpha", "bravo", "carbon", "delta", "echo", "fable", "gamma", "harbor", "index"]


@dataclass
class State:
    """The project, as the spec texts are made from it."""

    tools: dict[str, list[list[str]]] = field(default_factory=lambda: {
        "base": [["ping", "Answer pong."]],
        "mid": [["locate", "Locate an address."], ["route", "Route between addresses."]],
        "top": [["plan", "Plan a trip."]],
        "solo": [["alone", "Stand alone."]],
    })
    address: list[str] = field(default_factory=lambda: ["street", "city"])
    address_description: str = "A postal address."
    broken: str | None = None
    solo: bool = True
    config: str = ""
    version: int = 0
    made: int = 0

    def texts(self) -> dict[str, str]:
        texts = {"base": self._base(), "mid": self._mid(), "top": self._top()}
        if self.solo:
            texts["solo"] = self._module("solo", [], "toolsets:\n  own: {kind: function, "
                                         f"tools: [{self._names('solo')}]}}\nexport: own\n")
        if self.broken in texts:
            texts[self.broken] = texts[self.broken].replace(
                "    handler: app:handle\n", "    handler: app:handle\n    colour: red\n", 1)
        return texts

    def _names(self, module: str) -> str:
        return ", ".join(name for name, _ in self.tools[module])

    def _tools(self, module: str, params: str) -> str:
        out = "tools:\n"
        for name, description in self.tools[module]:
            out += (f"  {name}:\n    description: {description}\n    handler: app:handle\n"
                    f"    params:\n{params}")
        return out

    def _module(self, module: str, head: list[str], toolsets: str, params: str = "") -> str:
        params = params or ("      mail: {type: string, format: email, "
                            "description: Where to write.}\n")
        return "\n".join([f"toolc: 1\nmodule: {module}\ndescription: The {module} module.",
                          *head, self._tools(module, params) + toolsets])

    def _base(self) -> str:
        props = "".join(f"      {p}: {{type: string, description: The {p}.}}\n"
                        for p in self.address)
        types = (f"types:\n  Address:\n    description: {self.address_description}\n"
                 f"    type: object\n    properties:\n{props.rstrip()}")
        return self._module("base", [types], "toolsets:\n  core: {kind: function, tools: "
                            f"[{self._names('base')}]}}\nexport: core\n")

    def _mid(self) -> str:
        params = "      where: {type: base.Address, description: The address.}\n"
        return self._module("mid", [], "toolsets:\n  own: {kind: function, tools: "
                            f"[{self._names('mid')}]}}\n  all: {{kind: combined, "
                            "toolsets: [own, base.core]}\nexport: all\n", params)

    def _top(self) -> str:
        return self._module("top", [], "toolsets:\n  own: {kind: function, tools: "
                            f"[{self._names('top')}]}}\n  shown: {{kind: filtered, inner: own, "
                            "predicate: \"app:always\"}\n  tidy: {kind: prepared, inner: "
                            "shown, prepare: \"app:blank\"}\n  all: {kind: combined, "
                            "toolsets: [tidy, mid.all]}\nexport: all\n")


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
    if rng.random() < 0.5:
        state.address_description = f"An address, {rng.choice(WORDS)}."
    elif len(state.address) > 1 and rng.random() < 0.5:
        state.address.pop()
    else:
        state.address.append(rng.choice(["zip", "country", "region"]) + str(state.made))
        state.made += 1


def touch_config(state: State, rng: random.Random) -> None:
    state.config = rng.choice(['format = "assert"', 'TC302 = "info"', 'token-budget = 50', ""])


def toggle_module(state: State, rng: random.Random) -> None:
    state.solo = not state.solo


def touch_user_code(state: State, rng: random.Random) -> None:
    state.version += 1


EDITS = [describe, add_tool, remove_tool, break_spec, change_type, touch_config,
         toggle_module, touch_user_code]


def write(root: Path, state: State) -> None:
    # Certification's TC502 a warning: a build with certification findings succeeds, and
    # a reusing build must say them again.
    severity = ", ".join(['TC502 = "warning"', *[state.config] * state.config.startswith("TC")])
    extra = "" if state.config.startswith("TC") else state.config
    (root / "pyproject.toml").write_text(
        f'[tool.toolc]\nspecs = "specs"\npython-path = ["handlers"]\n{extra}\n'
        f"severity = {{ {severity} }}\n")
    specs = root / "specs"
    specs.mkdir(exist_ok=True)
    texts = state.texts()
    for old in specs.glob("*.toolc.yaml"):
        if old.name.removesuffix(".toolc.yaml") not in texts:
            old.unlink()
    for module, text in texts.items():
        path = specs / f"{module}.toolc.yaml"
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
    (root / "handlers").mkdir(exist_ok=True)
    (root / "handlers" / "app.py").write_text(
        HANDLERS.format(version=state.version))


def output_of(root: Path) -> dict[str, bytes]:
    out = root / "generated"
    return {p.relative_to(out).as_posix(): p.read_bytes()
            for p in sorted(out.rglob("*")) if p.is_file()} if out.is_dir() else {}


def shown(result: BuildResult) -> dict[str, Any]:
    """What a build says and decides, to compare (the plan's sets, not how it was found)."""
    plan = result.plan
    return {"ok": result.ok,
            "diagnostics": render_text(result.compiled.bag, result.compiled.sources),
            "written": plan.written if plan else None,
            "removed": plan.removed if plan else None}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_edits_build_what_a_clean_build_builds(
        tmp_path: Path, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    reused: list[incremental.Reuse] = []
    prepare = incremental.prepare

    def spy(*args: Any, **kwargs: Any) -> incremental.Reuse:
        reuse = prepare(*args, **kwargs)
        reused.append(reuse)
        return reuse

    monkeypatch.setattr(incremental, "prepare", spy)
    # As in `toolc build --watch`: loaded specs remembered between the builds (of both
    # copies: each by its own paths).
    monkeypatch.setattr(incremental.MEMORY, "enabled", True)
    monkeypatch.setattr(incremental.MEMORY, "loaded", {})
    state = State()
    project = tmp_path / "project"
    project.mkdir()
    write(project, state)
    assert build(load_config(project)).ok
    for step in range(10):
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
    assert any(d.code == "TC502" for r in reused for v in r.verdicts.values()
               for d in v.diagnostics)


def test_an_edit_to_one_module_regenerates_and_recertifies_only_what_needs_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = State()
    write(tmp_path, state)
    assert build(load_config(tmp_path)).ok
    seen: list[incremental.Reuse] = []
    prepare = incremental.prepare
    monkeypatch.setattr(incremental, "prepare",
                        lambda *a, **k: seen.append(prepare(*a, **k)) or seen[-1])
    state.tools["mid"][0][1] = "Locate an address, again."
    write(tmp_path, state)
    result = build(load_config(tmp_path))
    assert result.ok and result.plan is not None
    # mid changed; top imports mid: both are made and certified again, the rest reused.
    assert sorted(seen[0].texts) == sorted(seen[0].verdicts) == ["base", "solo"]
    assert sorted(seen[0].fresh) == ["mid", "top"]


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
    assert "planted" not in render_text(ours.compiled.bag, ours.compiled.sources)
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
    seen: list[incremental.Reuse] = []
    prepare = incremental.prepare
    monkeypatch.setattr(incremental, "prepare",
                        lambda *a, **k: seen.append(prepare(*a, **k)) or seen[-1])
    state.tools["base"][0][1] = "Answer pong, edited."
    write(copy, state)
    assert build(load_config(copy)).ok
    assert seen[0].texts == {} and seen[0].verdicts == {}
    assert "planted" not in (copy / "generated" / "solo.py").read_text()
