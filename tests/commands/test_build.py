"""`toolc build` as a command: its changes report, --fail-on, exit codes, the GC policy."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from commands_support import BREAKING, cli, diff, edit, relax_missing_descriptions
from forkserver_support import python_cmd
from toolc.commands.build import run_build


def test_build_prints_changes_as_changes_apart_from_diagnostics(repo: Path) -> None:
    relax_missing_descriptions(repo)
    for old, new in BREAKING:
        edit(repo, old, new)
    code, out, _ = cli("build", "--no-certify")
    assert code == 0  # a writing build takes the changes; CI's gate refuses them
    diagnostics, _, changes = out.partition(
        "Schema changes against the golden files this build replaces in generated/schemas/:")
    assert "warning[TC201]" in diagnostics and "REQUIRED_ADDED" not in diagnostics
    assert "REQUIRED_ADDED" in changes and "DESCRIPTION_REMOVED" in changes
    # relax_missing_descriptions lowers TC201 below HEAD's rules: a weakening, said first.
    assert ("2 changes in 1 tool: 1 weakening of the gate's rules, 1 breaking, 1 description "
            "lost; CI fails on them unless accepted in [tool.toolc.diff]") in changes
    assert "errors" not in changes.splitlines()[-1]


def test_build_fail_on_exits_1_after_writing(repo: Path) -> None:
    edit(repo, *BREAKING[0])
    code, out, _ = cli("build", "--no-certify", "--fail-on", "error")
    assert code == 1 and "at or above --fail-on error" in out
    assert '"tags"' in (repo / "generated/schemas/notes/addNote.json").read_text().split(
        '"required"')[1]  # written: tags is now required
    edit(repo, "Add a note.", "Add a note to the notebook.")
    assert cli("build", "--no-certify", "--fail-on", "error")[0] == 0  # info only
    edit(repo, "Add a note to the notebook.", "Add a note.")
    assert cli("build", "--no-certify", "--fail-on", "info", "--format", "json")[0] == 1


def test_exit_codes_of_a_real_subprocess(repo: Path) -> None:
    """0 clean, 1 findings, 2 what is not a finding, from the installed program."""
    import os

    env = {k: v for k, v in os.environ.items() if k != "CI"}

    def toolc(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(python_cmd("-m", "toolc", *args), cwd=repo, env=env,
                              capture_output=True, text=True, timeout=120, check=False)

    assert toolc("diff").returncode == 0
    edit(repo, *BREAKING[0])
    assert toolc("build", "--no-certify").returncode == 0
    breaking = toolc("diff", "--format", "markdown")
    assert breaking.returncode == 1 and "REQUIRED_ADDED" in breaking.stdout
    assert "HEAD:generated/schemas" in breaking.stderr
    bad_ref = toolc("diff", "--against", "no-such-ref")
    assert bad_ref.returncode == 2 and "unknown git ref" in bad_ref.stderr
    assert toolc("diff", "--fail-on", "sometimes").returncode == 2


def test_the_commands_that_build_run_with_the_collector_paused(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gc

    from toolc import generate, resolve
    from toolc.commands.validate import validate

    seen: list[tuple[str, bool]] = []

    def watched(module: object, name: str) -> None:
        stage = getattr(module, name)

        def watching(*args: object, **kwargs: object) -> object:
            seen.append((name, gc.isenabled()))
            return stage(*args, **kwargs)

        monkeypatch.setattr(module, name, watching)

    watched(resolve, "resolve")        # the front end (validate, build, diff)
    watched(generate, "generate_project")  # generation (build, diff)
    assert gc.isenabled()
    edit(repo, "description: ", "description: Now ")
    assert run_build(check=False, write=True, certify=True, fmt="text", strict=False,
                     out=io.StringIO(), err=io.StringIO()) == 0
    assert diff()[0] in (0, 1)
    assert validate([], out=io.StringIO(), err=io.StringIO()) == 0
    assert [name for name, _ in seen] == ["resolve", "generate_project"] * 2 + ["resolve"]
    assert not any(enabled for _, enabled in seen)
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_a_no_op_build_imports_neither_pydantic_nor_the_runtime(repo: Path) -> None:
    # An unchanged project is answered from the cache: the spec models, the runtime and
    # pydantic (0.1-0.2 s of imports) are for builds that do work.
    command = [sys.executable, "-X", "importtime", "-m", "toolc", "build", "--no-certify"]
    subprocess.run(command, cwd=repo, check=True, capture_output=True, text=True)
    again = subprocess.run(command, cwd=repo, check=True, capture_output=True, text=True)
    assert "nothing changed since the last build" in again.stdout
    imported = {line.rsplit("|", 1)[-1].strip() for line in again.stderr.splitlines()
                if line.startswith("import time:")}
    assert "toolc.pipeline" in imported  # the report of the imports is there
    assert not {"pydantic", "toolc.runtime", "toolc.model", "toolc.diff"} & imported
