"""Builds that fail well: one writing build at a time, and a real write limit met by the
`toolc` command as one line naming the file, the old output kept and no journal left."""

from __future__ import annotations

import os
import resource
import subprocess
from pathlib import Path

import pytest
from forkserver_support import python_cmd
from project_support import NOTES_SPEC, make_project
from toolc.output.lock import build_lock

SPEC = NOTES_SPEC


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path, {"notes": SPEC})


def toolc(root: Path, *args: str, **popen: object) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    return subprocess.Popen(python_cmd("-m", "toolc", *args), cwd=root, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            **popen)  # type: ignore[call-overload]


def output(root: Path) -> dict[str, bytes]:
    generated = root / "generated"
    return {p.relative_to(generated).as_posix(): p.read_bytes()
            for p in sorted(generated.rglob("*")) if p.is_file()}


def test_a_second_build_says_another_is_running_and_waits_for_it(project: Path) -> None:
    with build_lock(project):
        second = toolc(project, "build", "--write", "--no-certify")
        assert second.stderr is not None
        line = second.stderr.readline()  # said before it waits: no timing involved
        assert line == (f"toolc: another toolc build of this project is running (process "
                        f"{os.getpid()}); waiting for it to finish\n")
        assert second.poll() is None and not (project / "generated").exists()
    out, err = second.communicate(timeout=300)
    assert second.returncode == 0, err
    assert "wrote 3, removed 0" in out and "Traceback" not in err


def test_a_file_size_limit_is_one_error_naming_the_file(project: Path) -> None:
    first = toolc(project, "build", "--write", "--no-certify")
    assert first.communicate(timeout=300) and first.returncode == 0
    before = output(project)
    spec = project / "specs" / "notes.toolc.yaml"
    spec.write_text(SPEC.replace("Add a note.", "Add a note. " + "Really. " * 300))

    def limited() -> None:  # `ulimit -f`: a write past 4 KiB fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    limited_build = toolc(project, "build", "--write", "--no-certify", preexec_fn=limited)
    out, err = limited_build.communicate(timeout=300)
    assert limited_build.returncode == 1 and "Traceback" not in out + err
    [line] = [ln for ln in out.splitlines() if "error[" in ln]
    assert "error[TC506]: cannot write: File too large (EFBIG)" in line
    assert line.startswith(("generated/notes.py:1:1:", "generated/schemas/notes/addNote.json"))
    assert output(project) == before
    assert not list((project / "generated").glob(".toolc-*staging*"))
    again = toolc(project, "build", "--write", "--no-certify")  # no journal to wedge it
    assert again.communicate(timeout=300) and again.returncode == 0


def test_two_builds_started_together_both_end_well(project: Path) -> None:
    builds = [toolc(project, "build", "--write", "--no-certify") for _ in range(2)]
    results = [b.communicate(timeout=300) for b in builds]
    assert [b.returncode for b in builds] == [0, 0], results
    assert all("Traceback" not in err for _, err in results)
    assert not (project / "generated" / ".toolc-journal.json").exists()
    assert sorted(output(project)) == [".toolc-manifest.json", "__init__.py", "notes.py",
                                       "schemas/notes/addNote.json"]


def test_a_process_forked_during_a_build_does_not_keep_the_lock(project: Path) -> None:
    import fcntl

    child_end, release_child = os.pipe()
    child_started, started = os.pipe()
    with build_lock(project):
        pid = os.fork()
        if pid == 0:  # a certifier or writer: alive after the build ends
            os.write(started, b"x")  # the fork's own hooks have run by now
            os.read(child_end, 1)
            os._exit(0)
        os.read(child_started, 1)
    try:
        fd = os.open(project / ".toolc-cache" / "build.lock", os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # free although the child lives
        finally:
            os.close(fd)
    finally:
        os.write(release_child, b"x")
        os.waitpid(pid, 0)
        for end in (release_child, child_end, child_started, started):
            os.close(end)
