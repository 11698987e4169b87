"""The README's promises: two set-up commands (which .ci/run reads and runs, then the
``perf`` tests they leave out), and a spec example that validates."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

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


def test_ci_runs_the_set_up_commands_then_the_perf_tests() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "/^## Set up/" in ci and '"${#commands[@]}" -ne 2' in ci and "set -euo pipefail" in ci
    assert ci.rstrip().endswith("\n.venv/bin/python -m pytest -m perf")
    pytest_options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "tool"]["pytest"]["ini_options"]
    assert "-m 'not perf'" in pytest_options["addopts"]  # the README's command leaves them out
    assert any(marker.startswith("perf:") for marker in pytest_options["markers"])
