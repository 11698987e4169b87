"""Confinement: a checkout under attack makes toolc write, move or delete nothing outside
its output folder, and makes validate, diff and build --check write nothing at all.

Each project lives in ``tmp_path/project`` beside ``tmp_path/outside``, which holds
sentinel files; every test compares the whole of ``tmp_path`` before and after.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import sys
from pathlib import Path

import pytest
from project_support import NOTES_SPEC, enter, make_project, wrapped_notes_project
from toolc.commands.build import run_build
from toolc.commands.diff import run_diff
from toolc.commands.validate import validate
from toolc.output.confine import entry_problem
from toolc.output.journal import JOURNAL
from toolc.output.plan import MANIFEST

SPEC = NOTES_SPEC


def tree(root: Path) -> dict[str, object]:
    """Every entry below ``root``: a link's target, a file's bytes and mtime, a folder."""
    found: dict[str, object] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_symlink():
            found[rel] = ("link", os.readlink(path))
        elif path.is_file():
            found[rel] = (path.read_bytes(), path.stat().st_mtime_ns)
        else:
            found[rel] = "folder"
    return found


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "sentinel.txt").write_text("keep me\n")
    (outside / "victim.txt").write_text("do not delete\n")
    (outside / "empty").mkdir()
    root = enter(make_project(tmp_path / "project", {"notes": SPEC}), monkeypatch)
    code, _, err = build(check=False)
    assert code == 0, err
    return root


def build(*, check: bool) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_build(check=check, write=not check, certify=False, fmt="text", strict=False,
                     out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def plant_old_journal(root: Path) -> None:
    """The journal of the issue: a staged file moved over a file outside, another removed."""
    staging = root / "generated" / ".toolc-staging-evil"
    staging.mkdir()
    (staging / "0").write_text("overwritten\n")
    (root / "generated" / JOURNAL).write_text(json.dumps({
        "staging": ".toolc-staging-evil",
        "moves": [["0", "../../outside/sentinel.txt"]],
        "remove": ["../../outside/victim.txt", "../../outside/empty/x"],
    }))


def journal_with(root: Path, moves: list[object], remove: list[object],
                 owned: list[str] | None = None) -> None:
    """A journal of this format with a staged file "0", and a staged manifest "9" that
    owns ``owned`` (default: every path moved to)."""
    staging = root / "generated" / ".toolc-staging-evil"
    staging.mkdir(exist_ok=True)
    (staging / "0").write_text("overwritten\n")
    if owned is None:
        owned = [m[1] for m in moves if isinstance(m, list) and isinstance(m[1], str)]
    manifest = {"version": 1, "files": dict.fromkeys(owned, "0" * 64)}
    (staging / "9").write_text(json.dumps(manifest))
    (root / "generated" / JOURNAL).write_text(json.dumps(
        {"version": 2, "staging": ".toolc-staging-evil",
         "moves": [*moves, ["9", MANIFEST]], "remove": remove}))


def test_a_planted_journal_is_not_replayed_by_a_checking_build(project: Path) -> None:
    plant_old_journal(project)
    before = tree(project.parent)
    code, out, _ = build(check=True)
    assert code == 1
    assert "generated/.toolc-journal.json:1:1: error[TC505]" in out
    assert tree(project.parent) == before


def test_a_planted_journal_is_refused_by_a_writing_build(project: Path) -> None:
    plant_old_journal(project)
    before = tree(project.parent / "outside")
    code, out, _ = build(check=False)
    assert code == 1
    assert "generated/.toolc-journal.json:1:1: error[TC505]: refused" in out
    assert "Traceback" not in out
    assert tree(project.parent / "outside") == before


@pytest.mark.parametrize(("moves", "remove"), [
    ([["0", "../../outside/sentinel.txt"]], []),
    ([["0", str(Path("/").resolve() / "tmp" / "x")]], []),
    ([["0", "schemas/../../../outside/sentinel.txt"]], []),
    ([["../../../outside/sentinel.txt", "notes.py"]], []),
    ([], [["../../outside/victim.txt", "0" * 64]]),
    ([], [["./notes.py", "0" * 64]]),
    ([["0", "x" * 300 + ".py"]], []),  # what a 300-character module name made before
])
def test_a_journal_entry_outside_the_output_is_refused(project: Path, moves: list[object],
                                                      remove: list[object]) -> None:
    victim = project.parent / "outside" / "victim.txt"
    for entry in remove:
        assert isinstance(entry, list)
        entry[1] = sha(victim)  # even with the right hash
    journal_with(project, moves, remove)
    before = tree(project.parent / "outside")
    code, out, _ = build(check=False)
    assert code == 1 and "error[TC505]" in out and ".toolc-journal.json" in out
    assert tree(project.parent / "outside") == before
    code, out, _ = build(check=False)  # the next build says the same, without a traceback
    assert code == 1 and "error[TC505]" in out


def test_a_journal_moving_through_a_linked_folder_is_refused(project: Path) -> None:
    schemas = project / "generated" / "schemas"
    (schemas / "elsewhere").symlink_to(project.parent / "outside")
    journal_with(project, [["0", "schemas/elsewhere/sentinel.txt"]], [])
    before = tree(project.parent / "outside")
    code, out, _ = build(check=False)
    assert code == 1 and "generated/schemas/elsewhere:1:1: error[TC505]" in out
    assert "symbolic link" in out
    assert tree(project.parent / "outside") == before


def test_a_journal_whose_staging_folder_is_a_link_is_refused(project: Path) -> None:
    outside = project.parent / "outside"
    (outside / "0").write_text("from outside\n")
    (outside / "9").write_text(json.dumps({"version": 1, "files": {"notes.py": "0" * 64}}))
    (project / "generated" / ".toolc-staging-evil").symlink_to(outside)
    (project / "generated" / JOURNAL).write_text(json.dumps(
        {"version": 2, "staging": ".toolc-staging-evil",
         "moves": [["0", "notes.py"], ["9", MANIFEST]], "remove": []}))
    before = tree(outside)
    code, out, _ = build(check=False)
    assert code == 1 and "staging folder is a link" in out
    assert tree(outside) == before


def test_a_journal_cannot_put_a_file_over_one_its_manifest_does_not_own(
        project: Path) -> None:
    mine = project / "generated" / "mine.txt"
    mine.write_text("the user's own file\n")
    journal_with(project, [["0", "mine.txt"]], [], owned=["notes.py"])
    code, out, _ = build(check=False)
    assert code == 1 and "does not own" in out and ".toolc-journal.json" in out
    assert mine.read_text() == "the user's own file\n"


@pytest.mark.parametrize("entry", ["../../outside/victim.txt", "/abs/victim.txt",
                                   "schemas/../../../outside/victim.txt", ".toolc-journal.json"])
def test_a_manifest_entry_outside_the_output_is_refused(project: Path, entry: str) -> None:
    manifest = project / "generated" / MANIFEST
    data = json.loads(manifest.read_text())
    data["files"][entry] = sha(project.parent / "outside" / "victim.txt")
    manifest.write_text(json.dumps(data))
    before = tree(project.parent / "outside")
    for check in (True, False):
        code, out, _ = build(check=check)
        assert code == 1, out
        assert "generated/.toolc-manifest.json:1:1: error[TC505]: refused" in out
        assert repr(entry) in out
    assert tree(project.parent / "outside") == before


def test_an_owned_file_is_removed_only_while_it_has_its_recorded_hash(project: Path) -> None:
    generated = project / "generated"
    (generated / "mine.py").write_text("# the user's own file\n")
    (generated / "gone.py").write_text("# written by toolc\n")
    manifest = generated / MANIFEST
    data = json.loads(manifest.read_text())
    data["files"]["mine.py"] = "0" * 64       # listed, but not with its content's hash
    data["files"]["gone.py"] = sha(generated / "gone.py")
    manifest.write_text(json.dumps(data))
    code, out, _ = build(check=False)
    assert code == 0, out
    assert (generated / "mine.py").read_text() == "# the user's own file\n"
    assert not (generated / "gone.py").exists()


def test_a_linked_folder_in_the_output_is_not_written_through(project: Path) -> None:
    schemas = project / "generated" / "schemas"
    for path in sorted((schemas / "notes").iterdir()):
        path.unlink()
    (schemas / "notes").rmdir()
    (schemas / "notes").symlink_to(project.parent / "outside")
    before = tree(project.parent / "outside")
    for check in (True, False):
        code, out, _ = build(check=check)
        assert code == 1
        assert out.startswith("generated/schemas/notes:1:1: error[TC505]: is a symbolic link")
    assert tree(project.parent / "outside") == before
    assert not list((project / "generated").glob(".toolc-*staging*"))
    assert not (project / "generated" / JOURNAL).exists()


def test_a_linked_cache_folder_is_not_written_through(project: Path) -> None:
    cache = project / ".toolc-cache"
    for path in cache.iterdir():
        path.unlink()
    cache.rmdir()
    cache.symlink_to(project.parent / "outside")
    before = tree(project.parent / "outside")
    code, out, _ = build(check=False)
    assert code == 1 and ".toolc-cache:1:1: error[TC505]" in out
    assert tree(project.parent / "outside") == before


def test_a_link_planted_as_the_cache_file_is_replaced_not_written_through(
        project: Path) -> None:
    (project / ".toolc-cache" / "build.tmp").symlink_to(project.parent / "outside" /
                                                        "sentinel.txt")
    (project / "specs" / "notes.toolc.yaml").write_text(SPEC.replace("Add a", "Add one"))
    before = tree(project.parent / "outside")
    assert build(check=False)[0] == 0
    assert tree(project.parent / "outside") == before


def test_validate_diff_and_check_write_nothing(project: Path) -> None:
    """Not even a journal's recovery, a staging sweep or the cache."""
    plant_old_journal(project)
    (project / "generated" / ".toolc-staging-left").mkdir()
    (project / "specs" / "notes.toolc.yaml").write_text(SPEC.replace("Add a", "Add one"))
    before = tree(project.parent)
    assert validate([], out=io.StringIO(), err=io.StringIO()) == 0
    assert run_diff(None, None, against=None, fmt="text", fail_on="never",
                    out=io.StringIO(), err=io.StringIO()) == 0
    assert build(check=True)[0] == 1
    assert tree(project.parent) == before


@pytest.mark.parametrize(("rel", "fine"), [
    ("notes.py", True), ("schemas/notes/addNote.json", True), ("schemas/m/.hidden.json", True),
    ("", False), ("/etc/passwd", False), ("C:/x", False), ("a\\b", False), ("a//b", False),
    ("./a", False), ("a/..", False), ("../a", False), (".toolc-manifest.json", False),
    ("x" * 256, False), (3, False),
])
def test_entry_problem(rel: object, fine: bool) -> None:
    assert (entry_problem(rel) is None) == fine


def test_golden_files_are_not_read_through_a_link_out_of_the_output(project: Path) -> None:
    outside = project.parent / "outside" / "schemas" / "notes"
    outside.mkdir(parents=True)
    (outside / "addNote.json").write_text('{"name": "addNote", "description": "leaked"}\n')
    schemas = project / "generated" / "schemas"
    for path in sorted(schemas.rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    schemas.rmdir()
    schemas.symlink_to(project.parent / "outside" / "schemas")
    before = tree(project.parent / "outside")
    code, out, _ = build(check=True)
    assert code == 1 and "error[TC503]: cannot read the golden files" in out
    assert "leaked" not in out
    assert build(check=False)[0] == 1
    assert tree(project.parent / "outside") == before


def test_a_generated_file_replaced_by_a_link_is_replaced_not_written_through(
        project: Path) -> None:
    module = project / "generated" / "notes.py"
    copy = project.parent / "outside" / "notes.py"
    copy.write_bytes(module.read_bytes())
    module.unlink()
    module.symlink_to(copy)
    before = tree(project.parent / "outside")
    code, out, _ = build(check=True)
    assert code == 1 and "would write generated/notes.py" in out  # even with the same text
    assert build(check=False)[0] == 0
    assert not module.is_symlink() and module.read_bytes() == copy.read_bytes()
    assert tree(project.parent / "outside") == before


def test_a_certifying_check_leaves_no_bytecode_beside_the_users_code(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    wrapped_notes_project(tmp_path)
    enter(tmp_path, monkeypatch)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)  # as without PYTHONDONTWRITEBYTECODE
    assert run_build(check=False, write=True, certify=False, fmt="text", strict=False,
                     out=io.StringIO(), err=io.StringIO()) == 0
    before = tree(tmp_path)
    out = io.StringIO()
    code = run_build(check=True, write=False, certify=True, fmt="text", strict=False,
                     out=out, err=io.StringIO())
    assert code == 0, out.getvalue()
    assert tree(tmp_path) == before
