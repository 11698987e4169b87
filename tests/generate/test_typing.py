"""The generated code passes ruff and mypy --strict, and mypy rejects wrong user code.

mypy runs once over every case's staged package and the handler package together (with
the session's mypy cache, which the other mypy runs of the suite share). Every case must be
clean except ``wrong_handler``, which must fail exactly at its ``_check_...`` lines: one
per deliberately wrong handler, predicate and wrapper class.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from generate_support import CASES, ROOT, TYPING

ERROR = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+): error: (?P<message>.*)$")


def _ruff(staged: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "--config",
         str(ROOT / "pyproject.toml"), *extra, str(staged)],
        capture_output=True, text=True, check=False)


def test_ruff_passes_with_the_project_configuration(staged: Path) -> None:
    done = _ruff(staged)
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_passes_with_whitespace_and_pyupgrade_rules_too(staged: Path) -> None:
    # Long lines are allowed only where one string literal must stay whole (a docstring
    # that needs escapes); everything else is wrapped, which the golden files show.
    done = _ruff(staged, "--extend-select", "E,W,UP,RUF", "--ignore", "E501")
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture(scope="module")
def mypy_errors(staged: Path, mypy_cache: Path) -> list[tuple[str, int, str]]:
    packages = [arg for case in CASES for arg in ("-p", f"generated_{case}")]
    env = {**os.environ, "MYPYPATH": os.pathsep.join([str(staged), str(TYPING)])}
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(mypy_cache),
         "--no-error-summary", "--hide-error-context", "--show-traceback",
         *packages, "-p", "fixture_handlers"],
        capture_output=True, text=True, env=env, cwd=staged, timeout=600, check=False)
    assert done.returncode in (0, 1), done.stdout + done.stderr  # 2 would be a crash
    found = []
    for line in done.stdout.splitlines():
        match = ERROR.match(line)
        if match:
            found.append((Path(match["path"]).as_posix(), int(match["line"]),
                          match["message"]))
    return found


def test_mypy_strict_accepts_every_correct_case(mypy_errors: list[tuple[str, int, str]]
                                                ) -> None:
    elsewhere = [e for e in mypy_errors if not e[0].startswith("generated_wrong_handler/")]
    assert elsewhere == []


def test_mypy_rejects_each_wrong_handler_predicate_and_wrapper(
        staged: Path, mypy_errors: list[tuple[str, int, str]]) -> None:
    text = (staged / "generated_wrong_handler" / "wrong.py").read_text(encoding="utf-8")
    checks = {n: line.strip().split(":")[0] for n, line in enumerate(text.splitlines(), 1)
              if line.strip().startswith("_check_")}
    assert sorted(checks.values()) == [
        "_check_Count", "_check_Missing", "_check_Structured", "_check_shown_predicate",
        "_check_wrapped_wrapper"]
    rejected = {line for path, line, _ in mypy_errors
                if path == "generated_wrong_handler/wrong.py"}
    assert rejected == set(checks)
    messages = " ".join(message for *_, message in mypy_errors)
    assert '"def count(ctx: RunContext[Any], *, n: str) -> str"' in messages
    assert '"CountHandler"' in messages and '"type[NotAWrapper]"' in messages
