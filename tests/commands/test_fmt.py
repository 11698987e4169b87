"""``toolc fmt``: check, diff and write; exit codes; only the project's specs, never
through a link, atomically; a spec that does not parse said at its line."""

from __future__ import annotations

import io
import os
import stat
import subprocess
from pathlib import Path

import pytest
from forkserver_support import python_cmd
from project_support import make_project
from toolc.commands.fmt import run_fmt

UNFORMATTED = """\
module: notes
toolc: 1
tools:
  addNote:
    params:
      text:   {type: string, description: The note.}  # toolc: ignore[TC999]
    handler: notes_app:add
    description: Add a note.
"""
FORMATTED = """\
toolc: 1
module: notes

tools:
  addNote:
    description: Add a note.
    handler: notes_app:add
    params:
      text: {type: string, description: The note.}  # toolc: ignore[TC999]
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    make_project(tmp_path, {"notes": UNFORMATTED, "done": FORMATTED.replace("notes", "done")})
    monkeypatch.chdir(tmp_path)
    return tmp_path


def fmt(*paths: str, check: bool = False, diff: bool = False) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_fmt(paths, check=check, diff=diff, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def spec(project: Path, name: str = "notes") -> str:
    return (project / "specs" / f"{name}.toolc.yaml").read_text()


def test_check_lists_what_would_change_writes_nothing_and_exits_1(project: Path) -> None:
    code, out, err = fmt(check=True)
    assert code == 1 and err == ""
    assert out == ("would reformat specs/notes.toolc.yaml\n"
                   "1 spec(s) would be reformatted, 1 already formatted\n")
    assert spec(project) == UNFORMATTED


def test_diff_shows_the_change_as_a_unified_diff_and_writes_nothing(project: Path) -> None:
    code, out, _ = fmt(diff=True)
    assert code == 1 and spec(project) == UNFORMATTED
    assert "--- specs/notes.toolc.yaml\n+++ specs/notes.toolc.yaml (formatted)\n" in out
    assert "@@ -1,8 +1,9 @@\n+toolc: 1\n module: notes\n-toolc: 1\n+\n tools:\n" in out
    assert "+      text: {type: string, description: The note.}  # toolc: ignore[TC999]\n" in out


def test_writing_formats_in_place_keeping_the_mode_and_then_there_is_nothing_to_do(
        project: Path) -> None:
    path = project / "specs" / "notes.toolc.yaml"
    path.chmod(0o640)
    code, out, _ = fmt()
    assert code == 0 and spec(project) == FORMATTED
    assert out == "reformatted specs/notes.toolc.yaml\n1 spec(s) reformatted, 1 already formatted\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(p.name for p in (project / "specs").iterdir()) == [
        "done.toolc.yaml", "notes.toolc.yaml"]  # no temporary file left behind
    assert fmt(check=True)[0] == 0


def test_named_files_and_folders_are_the_only_ones_formatted(project: Path) -> None:
    (project / "other").mkdir()
    (project / "other" / "x.toolc.yaml").write_text(UNFORMATTED)
    code, out, _ = fmt("other", check=True)
    assert code == 1 and out.startswith("would reformat other/x.toolc.yaml\n")
    assert "notes" not in out
    assert fmt("specs/done.toolc.yaml", check=True)[0] == 0


def test_a_spec_that_does_not_parse_is_said_at_its_line_and_the_others_formatted(
        project: Path) -> None:
    (project / "specs" / "broken.toolc.yaml").write_text("toolc: 1\ntools:\n  t: {a: [b}\n")
    code, out, err = fmt()
    assert code == 2
    assert "specs/broken.toolc.yaml:3:" in err and "error[TC003]" in err
    assert "3 |   t: {a: [b}" in err  # the source line, quoted
    assert "Traceback" not in err and "was not formatted: it does not parse" in err
    assert spec(project) == FORMATTED and "reformatted specs/notes.toolc.yaml" in out


def test_a_duplicate_key_is_said_at_the_second_one(project: Path) -> None:
    (project / "specs" / "twice.toolc.yaml").write_text("toolc: 1\nmodule: a\nmodule: b\n")
    code, _, err = fmt("specs/twice.toolc.yaml")
    assert code == 2 and "specs/twice.toolc.yaml:3:1: error[TC006]" in err


@pytest.mark.parametrize("bad", ["../elsewhere.toolc.yaml", "pyproject.toml", "nothing.yaml"])
def test_only_specs_of_the_project_can_be_named(project: Path, bad: str) -> None:
    (project.parent / "elsewhere.toolc.yaml").write_text(UNFORMATTED)
    code, out, err = fmt(bad)
    assert code == 2 and out == "" and err.startswith("error: ")
    assert (project.parent / "elsewhere.toolc.yaml").read_text() == UNFORMATTED


def test_a_spec_that_is_a_link_is_passed_over_never_written_through(project: Path,
                                                                    tmp_path: Path) -> None:
    outside = tmp_path.parent / f"{tmp_path.name}-target.toolc.yaml"
    outside.write_text(UNFORMATTED)
    (project / "specs" / "linked.toolc.yaml").symlink_to(outside)
    code, out, err = fmt()
    assert code == 0, err
    assert "note: specs/linked.toolc.yaml skipped: linked.toolc.yaml is a symbolic link" \
        not in err  # named by its path in the project
    assert "specs/linked.toolc.yaml skipped: specs/linked.toolc.yaml is a symbolic link" in err
    assert outside.read_text() == UNFORMATTED and "linked" not in out


def test_a_folder_on_the_way_that_is_a_link_is_not_written_through(project: Path,
                                                                   tmp_path: Path) -> None:
    elsewhere = tmp_path.parent / f"{tmp_path.name}-folder"
    elsewhere.mkdir()
    (elsewhere / "far.toolc.yaml").write_text(UNFORMATTED)
    (project / "specs" / "far").symlink_to(elsewhere, target_is_directory=True)
    code, _, err = fmt("specs/far/far.toolc.yaml")
    assert code == 0 and "specs/far is a symbolic link" in err
    assert (elsewhere / "far.toolc.yaml").read_text() == UNFORMATTED


def test_a_fifo_named_like_a_spec_is_refused_without_waiting(project: Path) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    os.mkfifo(project / "specs" / "pipe.toolc.yaml")
    code, _, err = fmt("specs/pipe.toolc.yaml", check=True)
    assert code == 2 and "error[TC010]" in err and "not a regular file" in err


def test_a_formatter_bug_writes_nothing_and_says_so(project: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from toolc.formatting import layout

    monkeypatch.setattr(layout.Layout, "render", lambda self: "toolc: 2\n")
    code, _, err = fmt()
    assert code == 2 and spec(project) == UNFORMATTED
    assert "formatting would change what specs/notes.toolc.yaml means at /;" in err
    assert "was left as it is (a bug of toolc fmt: please report it)" in err


def test_the_command_line(project: Path) -> None:
    run = subprocess.run(python_cmd("-m", "toolc", "fmt", "--check"), cwd=project,
                         capture_output=True, text=True, check=False)
    assert run.returncode == 1 and "would reformat specs/notes.toolc.yaml" in run.stdout
    run = subprocess.run(python_cmd("-m", "toolc", "fmt"), cwd=project,
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0 and spec(project) == FORMATTED


ROOT = Path(__file__).resolve().parents[2]


def test_the_bundled_specs_are_formatted() -> None:
    """`toolc fmt --check` passes on the repository itself (as CI runs it)."""
    run = subprocess.run(python_cmd("-m", "toolc", "fmt", "--check"), cwd=ROOT,
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
