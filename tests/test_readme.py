"""The README's promises: two set-up commands (which .ci/run reads and runs, then the
``perf`` tests they leave out), a spec example that validates, and a "Start your own
project" section whose every command, run in a fresh project, prints what it shows."""

from __future__ import annotations

import itertools
import os
import re
import shlex
import signal
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import pytest
from net_support import start_on_free_port
from toolc.diagnostics import DiagnosticBag
from toolc.frontend import analyse
from toolc.loader import load_text

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def block_after(heading: str, lang: str) -> str:
    section = README.split(heading, 1)[1]
    match = re.search(rf"```{lang}\n(.*?)```", section, re.DOTALL)
    assert match, f"no {lang} block after {heading}"
    return match.group(1)


def test_set_up_is_exactly_two_commands() -> None:
    commands = block_after("## Set up", "sh").strip().splitlines()
    assert len(commands) == 2
    assert "pip install -e '.[test]'" in commands[0] and "toolc build" in commands[0]
    assert "pytest" in commands[1]


def test_the_spec_example_validates() -> None:
    bag = DiagnosticBag()
    project = analyse([load_text(block_after("## A spec", "yaml"), "README.md")], bag)
    assert project is not None and list(bag) == []


def test_the_adapter_example_is_five_lines_of_real_names() -> None:
    """The README's adapter example compiles and imports what exists (it needs a model
    and its API key to run; docs/python.md's examples run in the suite)."""
    import importlib

    code = block_after("## From Python and agent frameworks", "python")
    assert len(code.strip().splitlines()) == 5
    compile(code, "README.md", "exec")
    for module, name in re.findall(r"^from ([\w.]+) import (\w+)$", code, re.MULTILINE):
        assert hasattr(importlib.import_module(module), name), (module, name)


def test_ci_runs_the_set_up_commands_then_the_perf_and_network_tests() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "/^## Set up/" in ci and '"${#commands[@]}" -ne 2' in ci and "set -euo pipefail" in ci
    assert ci.rstrip().endswith("\n.venv/bin/python -m pytest -m perf\n"
                                'echo "+ .venv/bin/python -m pytest -m network"\n'
                                ".venv/bin/python -m pytest -m network")
    pytest_options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "tool"]["pytest"]["ini_options"]
    # the README's command leaves both out
    assert "-m 'not perf and not network'" in pytest_options["addopts"]
    assert {m.split(":")[0] for m in pytest_options["markers"]} >= {"perf", "network"}


# -- "Start your own project": every command run in a fresh project, every line checked --

SECTION = README.split("## Start your own project\n", 1)[1].split("\n## ", 1)[0]
_DURATION = re.compile(r"\b\d+\.\d+s\b")


@dataclass
class Block:
    before: str     # the paragraph just above the block
    lang: str
    body: str


def section_blocks() -> list[Block]:
    """The fenced blocks of the section, in order, each with the paragraph above it."""
    blocks: list[Block] = []
    para: list[str] = []
    lines, after_blank = iter(SECTION.splitlines()), False
    for line in lines:
        if line.startswith("```"):
            body = list(itertools.takewhile(lambda x: not x.startswith("```"), lines))
            blocks.append(Block(" ".join(para), line[3:], "\n".join(body) + "\n"))
            para = []
        elif line.strip():
            para = [*([] if after_blank else para), line]
        after_blank = not line.strip()
    return blocks


def console(block: Block) -> list[tuple[str, list[str]]]:
    """A console block's commands (``$ ...``), each with the lines it printed."""
    steps: list[tuple[str, list[str]]] = []
    for line in block.body.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            steps[-1][1].append(line)
    return steps


def target(block: Block) -> tuple[str, bool] | None:
    """The file a yaml or python block is for (the last `path` above it) and whether it
    is appended ("at the end of"), or None."""
    paths = re.findall(r"`([\w/.]+\.\w+)`", block.before)
    if block.lang not in ("yaml", "python") or not paths:
        return None
    return paths[-1], "at the end of" in block.before


def same_lines(printed: str, shown: list[str], port: int) -> None:
    def norm(text: str) -> str:
        text = text.replace(":8000/", ":PORT/")
        return _DURATION.sub("N.NNs", text.replace(f":{port}/", ":PORT/") if port else text)

    assert norm(printed).rstrip("\n").split("\n") == [norm(s) for s in shown]


@pytest.fixture
def user_env(mypy_cache: Path) -> dict[str, str]:
    """A user's shell: toolc, pytest and python of this environment first on PATH, no CI
    (which makes `toolc build` check instead of write), a terminal of 80 columns, and
    pytest without the plugins of toolc's own test extra that `toolc[dev]` does not
    bring (pytest-lsp and its pytest-asyncio, for the language server's tests)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("CI", "PYTHONPATH", "PYTEST_ADDOPTS", "MYPYPATH")}
    env.update(PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
               COLUMNS="80", MYPY_CACHE_DIR=str(mypy_cache), NO_COLOR="1",
               PYTEST_ADDOPTS="-p no:pytest-lsp -p no:asyncio")
    return env


def run_shown(command: str, project: Path, env: dict[str, str], port: int) -> str:
    done = subprocess.run(shlex.split(command.replace("8000", str(port))), cwd=project,
                          env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=600, check=False)
    return done.stdout


def test_the_install_step_names_an_extra_with_what_the_loop_runs() -> None:
    [install] = [b for b in section_blocks() if b.lang == "console"][:1]
    commands = [c for c, _ in console(install)]
    assert commands[-1] == "pip install '/path/to/toolc[dev]'"
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"]["optional-dependencies"]
    assert {re.split(r"[<>=]", d)[0] for d in extras["dev"]} == {"mypy", "pytest"}


def test_start_your_own_project_runs_as_shown(tmp_path: Path, user_env: dict[str, str]
                                              ) -> None:
    """Init, a first spec, build, check-handlers, serve (a real MCP client over HTTP),
    pytest: each command's printed lines are the README's, in a fresh folder `clinic`."""
    project = tmp_path / "clinic"
    project.mkdir()
    blocks = section_blocks()
    server: subprocess.Popen[str] | None = None
    port = 0
    try:
        for block in blocks[1:]:   # the first installs toolc: this environment has it
            written = target(block)
            if written is not None:
                path, append = written
                old = (project / path).read_text() if append else ""
                body = block.body.replace(":8000/", f":{port}/")  # the server's port
                (project / path).write_text(old + body)
            for command, shown in console(block) if block.lang == "console" else ():
                if command.startswith("toolc serve "):
                    server, port = start_on_free_port(partial(serve, command, project, user_env))
                    continue
                same_lines(run_shown(command, project, user_env, port), shown, port)
        assert server is not None, "the section serves the toolset"
        server.send_signal(signal.SIGINT)
        _, err = server.communicate(timeout=120)
        [serving] = [b for b in blocks if "$ toolc serve " in b.body and b.lang == "console"]
        [(_, shown)] = console(serving)
        same_lines("\n".join(err.splitlines()[:len(shown)]), shown, port)
    finally:
        if server is not None and server.poll() is None:
            server.kill()
            server.wait(timeout=60)
    wrong_handler_is_reported_as_shown(project, user_env, blocks)


def serve(command: str, project: Path, env: dict[str, str], port: int
          ) -> subprocess.Popen[str]:
    return subprocess.Popen(shlex.split(command.replace("8000", str(port))), cwd=project,
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)


def wrong_handler_is_reported_as_shown(project: Path, env: dict[str, str],
                                       blocks: list[Block]) -> None:
    """The README's wrong handler (`since` for the spec's `after`): reported at its def."""
    [shown] = [b for b in blocks if b.lang == "text" and b.body.startswith("$ toolc check")]
    [(command, lines)] = console(shown)
    handlers = project / "clinic_tools.py"
    text = handlers.read_text()
    head, _, tail = text.partition("def next_free_slot")
    handlers.write_text(head + ("def next_free_slot" + tail).replace("after", "since"))
    same_lines(run_shown(command, project, env, 0), lines, 0)
