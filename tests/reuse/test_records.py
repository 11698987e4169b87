"""The records a build reads back (``.toolc-cache/*``, the manifest, the journal, the golden
files) are untrusted files: a link to /dev/zero, a FIFO or a file of gigabytes is never
read, and a record naming a path outside the project has nothing read through it. A bad
record of ``.toolc-cache/`` is ignored with one line on stderr, and written anew.

Each hostile build runs in a child process under a memory limit (a read without bound
fails there with MemoryError instead of eating the machine) and a generous timeout (a
read that waits on a FIFO fails instead of hanging the suite). Builds whose records can
do neither (small regular files, at worst outside the project) run in the test's process."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from project_support import build_in_process, make_project

SPEC = """toolc: 1
module: {module}
description: Module {module}.
tools:
  t:
    description: Tool of {module}{edit}.
    handler: app:handle
    params:
      x: {{type: string, description: X.}}
"""
RECORDS = ("build.json", "modules.json", "components.json")
MEMORY_LIMIT = 2 << 30  # bytes of address space; a normal build of this project uses a third
CHILD = ("import resource, runpy, sys; "
         f"resource.setrlimit(resource.RLIMIT_AS, ({MEMORY_LIMIT}, {MEMORY_LIMIT})); "
         "sys.argv = ['toolc', *sys.argv[1:]]; runpy.run_module('toolc', run_name='__main__')")


def two_components(root: Path) -> Path:
    """Two specs, two components (no imports between them)."""
    return make_project(root, {module: SPEC.format(module=module, edit="") for module in "ab"},
                        output="generated", python_path=["."],
                        files={"app.py": "async def handle(ctx, x):\n    return x\n"})


def edit(root: Path, module: str, text: str = "") -> None:
    (root / "specs" / f"{module}.toolc.yaml").write_text(SPEC.format(module=module, edit=text))


def toolc(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``toolc ARGS`` in ``root``, in a child under the memory limit."""
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    return subprocess.run([sys.executable, "-c", CHILD, *args], cwd=root, env=env,
                          capture_output=True, text=True, timeout=240, check=False)


def build(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return toolc(root, "build", "--no-certify", *args)


def build_of_harmless(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``toolc build --no-certify ARGS`` in this process, where no record the build reads
    can hang it or eat memory (a regular file, small, at worst outside the project)."""
    done = build_in_process(root, "--no-certify", *args)
    return subprocess.CompletedProcess(["toolc", "build"], done.exit_code, done.stdout,
                                       done.stderr)


def warnings_of(run: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in run.stderr.splitlines() if "warning" in line]


def record(root: Path, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((root / ".toolc-cache" / name).read_text())
    return data


def plant(root: Path, name: str, data: dict[str, Any]) -> None:
    (root / ".toolc-cache" / name).write_text(json.dumps(data))


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def built(tmp_path: Path) -> Path:
    """The project built once, in this process: nothing hostile is planted yet, so its
    first build needs no child under a limit (the builds the tests make run in one)."""
    root = two_components(tmp_path / "project")
    first = build_in_process(root, "--no-certify")
    assert first.exit_code == 0, first.output
    return root


def _dev_zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _huge(path: Path) -> None:
    with open(path, "wb") as f:  # sparse: 4 GiB of zeros that take no disk
        f.truncate(4 << 30)


HOSTILE: dict[str, tuple[Callable[[Path], None], str]] = {
    "a link to /dev/zero": (_dev_zero, "is a symbolic link"),
    "a FIFO": (_fifo, "is a FIFO, not a regular file"),
    "a file of 4 GiB": (_huge, "is larger than 64 MiB"),
}


@pytest.mark.parametrize("kind", sorted(HOSTILE))
@pytest.mark.parametrize("name", RECORDS)
def test_a_hostile_record_is_ignored_once_and_written_anew(built: Path, name: str,
                                                           kind: str) -> None:
    make, why = HOSTILE[kind]
    path = built / ".toolc-cache" / name
    path.unlink()
    make(path)
    edit(built, "a", ", edited")  # past the no-op cache: every record is read
    run = build(built)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    assert warnings_of(run) == [
        (f"toolc: warning: .toolc-cache/{name} {why}; the record is ignored (this build does "
         "without it, and a clean build writes it anew)")]
    assert path.is_file() and not path.is_symlink() and isinstance(record(built, name), dict)
    assert "wrote 2, removed 0, unchanged 3" in run.stdout  # a.py and a's golden file
    again = build_of_harmless(built)  # the record written anew
    assert again.returncode == 0 and warnings_of(again) == []
    assert "up to date" in again.stdout


def test_a_broken_record_is_said_too(built: Path) -> None:
    (built / ".toolc-cache" / "modules.json").write_text("{not json")
    edit(built, "a", ", edited")
    run = build_of_harmless(built)
    assert run.returncode == 0
    assert [w.split("; ")[0] for w in warnings_of(run)] == [
        "toolc: warning: .toolc-cache/modules.json is not JSON"]


def _outside_file(root: Path) -> Path:
    outside = root.parent / "outside.json"
    outside.write_text('{"type": "string"}\n')
    return outside


@pytest.mark.parametrize("where", ["/etc/passwd", "../outside.json", "shared/outside.json"])
def test_a_record_naming_a_file_outside_the_project_is_not_believed(built: Path,
                                                                     where: str) -> None:
    """Today's record names every schema file a `$ref` inlines, with its hash. One naming
    a file outside the project, with that file's very hash, made the build read it and
    answer "up to date"; now the record is bad, and the build runs."""
    outside = _outside_file(built)
    (built / "shared").symlink_to(built.parent)  # a link out of the project, on the way
    target = Path(where) if where.startswith("/") else built / where
    if not target.is_file():
        pytest.skip(f"{where} is not on this machine")
    data = record(built, "build.json")
    data["schemas"] = {where: sha(target)}
    plant(built, "build.json", data)
    run = build_of_harmless(built)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "up to date" not in run.stdout
    [warning] = warnings_of(run)
    assert warning.startswith(f"toolc: warning: .toolc-cache/build.json names '{where}', ")
    assert where not in json.dumps(record(built, "build.json"))
    assert outside.read_text() == '{"type": "string"}\n'


def test_user_code_named_outside_the_project_is_not_believed(built: Path) -> None:
    """What certification imported is recorded by file: the same rule (a certifying build)."""
    certified = toolc(built, "build")
    assert certified.returncode == 0, certified.stdout + certified.stderr
    data = record(built, "build.json")
    assert data["certified"] is True
    data["code"] = {"/etc/passwd": sha(Path("/etc/passwd"))}
    plant(built, "build.json", data)
    run = toolc(built, "build")
    assert run.returncode == 0 and "up to date" not in run.stdout
    assert [w.split(", ")[0] for w in warnings_of(run)] == [
        "toolc: warning: .toolc-cache/build.json names '/etc/passwd'"]


def test_a_module_looked_up_by_a_path_is_not_believed(built: Path) -> None:
    """The handler check's lookups are recorded by module name; a name that is a path made
    the next build read ``<path>.py`` wherever it was, and believe the record if its hash
    was the recorded one."""
    evil = built.parent / "evil.py"
    evil.write_text("x = 1\n")
    name = str(evil.with_suffix(""))
    if "." in name:
        pytest.skip("the temporary folder's path holds a dot")
    data = record(built, "build.json")
    data["lookups"][name] = ["file", str(evil), sha(evil)]
    plant(built, "build.json", data)
    run = build_of_harmless(built)
    assert run.returncode == 0 and "up to date" not in run.stdout
    assert [w.split(" names ")[0] for w in warnings_of(run)] == [
        "toolc: warning: .toolc-cache/build.json"]
    data = record(built, "components.json")
    [b] = [c for c in data["components"] if "b" in c["modules"]]
    b["code"][name] = ["file", str(evil), sha(evil)]
    plant(built, "components.json", data)
    edit(built, "a", ", edited")  # past the no-op cache: the components are read
    run = build_of_harmless(built)
    assert run.returncode == 0, run.stdout + run.stderr
    assert [w.split(", ")[0] for w in warnings_of(run)] == [
        f"toolc: warning: .toolc-cache/components.json names {name!r} as a module looked up"]


def test_a_component_naming_a_schema_file_through_a_link_out_is_not_taken(
        built: Path) -> None:
    """A component is taken only while its schema files hash as recorded; one named
    through a link out of the project was read there."""
    outside = _outside_file(built)
    (built / "shared").symlink_to(built.parent)
    data = record(built, "components.json")
    [b] = [c for c in data["components"] if "b" in c["modules"]]
    b["schemas"]["shared/outside.json"] = sha(outside)
    plant(built, "components.json", data)
    edit(built, "a", ", edited")
    # lazy: in this process, to see what the build took over
    from toolc.config import load_config
    from toolc.pipeline import build as build_here

    result = build_here(load_config(built), certify=False)
    assert result.ok and result.compiled.taken is None
    data["components"] = [c for c in data["components"] if c is b]
    b["schemas"] = {"../outside.json": sha(outside)}
    plant(built, "components.json", data)
    edit(built, "a", ", edited again")
    run = build_of_harmless(built)
    assert [w.split(", ")[0] for w in warnings_of(run)] == [
        "toolc: warning: .toolc-cache/components.json names '../outside.json'"]


@pytest.mark.parametrize("name", [".toolc-manifest.json", ".toolc-journal.json"])
def test_a_huge_manifest_or_journal_is_refused_unread(built: Path, name: str) -> None:
    """They decide what a build removes and renames: refused (TC505), never read whole."""
    path = built / "generated" / name
    path.unlink(missing_ok=True)
    _huge(path)
    run = build(built)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert f"generated/{name}:1:1: error[TC505]: refused: " in run.stdout
    assert "is larger than 64 MiB" in run.stdout


def test_a_huge_golden_file_is_a_clear_error(built: Path) -> None:
    golden = built / "generated" / "schemas" / "b" / "t.json"
    golden.unlink()
    _huge(golden)
    run = build(built, "--check")
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "error[TC503]: cannot read the golden files: " in run.stdout
    assert "generated/schemas/b/t.json: is larger than 256 MiB" in run.stdout
