"""The shipped pre-commit hooks (.pre-commit-hooks.yaml), run by pre-commit itself on a
temporary git repository holding a multi-module project (the bundled specs).

pre-commit installs a remote hook repository (``language: python``) from the network;
here the same definitions are ``repo: local`` hooks with ``language: system`` and this
checkout's ``toolc`` on PATH, so nothing is fetched and the entries tested are the
shipped ones, read from the file.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from project_support import build_in_process, bundled_project

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
pytestmark = pytest.mark.skipif(
    not (BIN / "pre-commit").exists() or not (BIN / "toolc").exists()
    or shutil.which("git") is None,
    reason="needs pre-commit and toolc in the test environment, and git")


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), "-c", "user.email=t@t", "-c", "user.name=t",
                    *args], check=True, capture_output=True)


def local_hooks() -> dict[str, object]:
    """The shipped hooks as a ``repo: local`` entry of a .pre-commit-config.yaml."""
    shipped = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    hooks = [{**hook, "language": "system"} for hook in shipped]
    return {"repos": [{"repo": "local", "hooks": hooks}]}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    project = bundled_project(tmp_path / "project")
    # JSON is YAML: no YAML writer is needed to hand pre-commit its configuration.
    (project / ".pre-commit-config.yaml").write_text(json.dumps(local_hooks(), indent=2))
    (project / ".gitignore").write_text(".toolc-cache/\n__pycache__/\n")
    # (in this process: the hooks run by pre-commit below are the commands under test)
    built = build_in_process(project, "--no-certify")
    assert built.exit_code == 0, built.output
    git(project, "init", "-q", "-b", "main")
    git(project, "add", ".")
    git(project, "commit", "-qm", "a multi-module project")
    return project


def run(cwd: Path, *cmd: str | Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PRE_COMMIT")}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env["PRE_COMMIT_HOME"] = str(cwd.parent / "pre-commit-home")  # not the user's cache
    return subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300, check=False)


def pre_commit(repo: Path, *files: str) -> subprocess.CompletedProcess[str]:
    return run(repo, BIN / "pre-commit", "run", "--color", "never", "--files", *files)


def test_the_hooks_pass_on_one_spec_that_uses_another_module(repo: Path) -> None:
    result = pre_commit(repo, "specs/showcase.toolc.yaml")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "toolc validate" in result.stdout and "Passed" in result.stdout
    assert "toolc build --check" in result.stdout


def test_the_hooks_fail_on_a_broken_spec_and_a_stale_output(repo: Path) -> None:
    spec = repo / "specs" / "showcase.toolc.yaml"
    spec.write_text(spec.read_text().replace("workbench.main]", "workbench.mian]"))
    result = pre_commit(repo, "specs/showcase.toolc.yaml")
    assert result.returncode == 1
    assert "specs/showcase.toolc.yaml:65:" in result.stdout and "TC306" in result.stdout
    spec.write_text(spec.read_text().replace("workbench.mian]", "workbench.main]")
                    .replace("A tour of every toolset kind", "A tour of each toolset kind"))
    result = pre_commit(repo, "specs/showcase.toolc.yaml")
    assert result.returncode == 1 and "out of date" in result.stdout


def test_the_fmt_hook_formats_a_staged_spec_and_stops_the_commit(repo: Path) -> None:
    spec = repo / "specs" / "workbench.toolc.yaml"
    formatted = spec.read_text()
    spec.write_text(formatted.replace("  main: {kind: prefixed, inner: app, prefix: wb_}",
                                      "  main:\n    prefix: wb_\n    inner: app\n"
                                      "    kind: prefixed"))
    result = pre_commit(repo, "specs/workbench.toolc.yaml")
    assert result.returncode == 1
    assert "toolc fmt" in result.stdout and "files were modified by this hook" in result.stdout
    assert "reformatted specs/workbench.toolc.yaml" in result.stdout
    assert spec.read_text() == formatted
    assert pre_commit(repo, "specs/workbench.toolc.yaml").returncode == 0
