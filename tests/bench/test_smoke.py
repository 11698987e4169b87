"""Every benchmark script runs at a tiny size, so that none can rot (issue 6).

No assertion on time: only that each script runs end to end through toolc and prints
its figure with the command that reproduces it. The runs are whole builds and servers,
slow on a busy machine, so they carry the ``perf`` marker: the README's test command
leaves them out and .ci/run runs them after it (`pytest -m perf`). Peers (datamodel-code-generator,
pydantic-ai) live only in bench/.venv; where they are missing the scripts say so and
measure toolc's side alone.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"
sys.path.insert(0, str(BENCH))

from run_all import SCRIPTS
from synth import PER_FILE, write_project


@pytest.mark.perf
@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_script_runs_at_smoke_size(script: str, tmp_path: Path) -> None:
    _, _, smoke = SCRIPTS[script]
    results = tmp_path / "figures.jsonl"
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    done = subprocess.run(
        [sys.executable, str(BENCH / f"{script}.py"), *smoke, "--workdir", str(tmp_path / "w"),
         "--json", str(results)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert f"reproduce: bench/.venv/bin/python bench/{script}.py" in done.stdout
    figures = [json.loads(line) for line in results.read_text().splitlines()]
    assert figures and all(f["ours_median"] > 0 for f in figures)
    assert all(f["machine"]["cpu"] and f["machine"]["python"] for f in figures)


def test_synthetic_projects_have_the_shape_issue_6_describes(tmp_path: Path) -> None:
    project = write_project(tmp_path / "p", 45)
    specs = sorted(project.specs.glob("*.toolc.yaml"))
    assert len(specs) == 3 and len(project.modules) == 3  # 20 + 20 + 5 tools
    first = specs[0].read_text()
    assert first.count("    handler: ") == PER_FILE and "enum: [fast, slow, auto]" in first
    schemas = json.loads((project.jsonschema / "mod0002.json").read_text())
    tools = schemas["$defs"]
    assert len(tools) == 5
    params = tools["Tool44Params"]["properties"]
    assert list(params) == ["count", "name", "mode", "ratio", "target"]
    assert all(p["description"] for p in params.values())
    assert params["target"]["type"] == "object" and params["count"]["maximum"] == 100


@pytest.mark.perf
def test_timeline_notes_every_process_of_a_build(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    done = subprocess.run(
        [sys.executable, str(BENCH / "timeline.py"), "--tools", "20", "--workdir",
         str(tmp_path / "w")], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    for line in ("build    stage analyse", "certify  import the mcp SDK",
                 "certify  serve 1 modules", "writer   write a batch of staged files",
                 "build    commit (manifest, journal, renames)", "build    done (exit 0)"):
        assert line in done.stderr, done.stderr


def test_child_environment_keeps_an_inherited_python_path(monkeypatch: pytest.MonkeyPatch) -> None:
    # versus.py runs a script against an earlier toolc by putting its source first on
    # PYTHONPATH; a child given the project's handlers must still import that toolc.
    from harness import bench_env

    monkeypatch.setenv("PYTHONPATH", "/earlier/compiler")
    monkeypatch.setenv("CI", "true")
    env = bench_env(Path("/project/handlers"))
    assert env["PYTHONPATH"].split(os.pathsep) == ["/project/handlers", "/earlier/compiler"]
    assert "CI" not in env


@pytest.mark.perf
def test_versus_compares_a_figure_before_and_after(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / "versus.py"), "HEAD", "serving", "--rounds", "1", "--",
         "--tools", "20", "--calls", "5", "--lists", "2", "--repeat", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "== serving: tools/call round trip vs bare mcp Server" in done.stdout
    # Every figure the script prints is shown once before and once after, whatever the
    # number of figures (the serving bench grows figures, e.g. the balancer's).
    lines = done.stdout[done.stdout.index("# before = HEAD"):].splitlines()[1:]
    figures = [i for i, line in enumerate(lines) if line.startswith("== ")]
    assert figures and len(lines) == 3 * len(figures)
    for i in figures:
        assert lines[i + 1].startswith("  before ") and lines[i + 2].startswith("  after ")
    call = lines.index("== serving: tools/call round trip vs bare mcp Server")
    assert "-" not in (lines[call + 1][-1], lines[call + 2][-1])
