"""The atomic writer: as before or as after at every interruption point; owned files only."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from output_support import write_tree
from toolc.output import journal as write
from toolc.output.journal import JOURNAL, recover
from toolc.output.plan import MANIFEST, plan, read_manifest

OLD = {"a.py": "old a\n", "schemas/m/t1.json": "{}\n", "schemas/m/gone.json": "{}\n"}
NEW = {"a.py": "new a\n", "schemas/m/t1.json": "{}\n", "schemas/m/t2.json": "{\"n\": 2}\n"}


def snapshot(root: Path) -> dict[str, str]:
    """The visible output: toolc's bookkeeping (manifest, journal, staging) left out."""
    return {p.relative_to(root).as_posix(): p.read_text() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name not in (MANIFEST, JOURNAL)
            and not p.relative_to(root).as_posix().startswith(".toolc-staging-")}


def test_writes_files_and_manifest(tmp_path: Path) -> None:
    p = write_tree(tmp_path, OLD)
    assert snapshot(tmp_path) == OLD
    assert set(read_manifest(tmp_path)) == set(OLD)
    assert p.written == tuple(sorted(OLD))


def test_removes_only_owned_files(tmp_path: Path) -> None:
    write_tree(tmp_path, OLD)
    (tmp_path / "schemas" / "m" / "mine.json").write_text("user's\n")
    p = write_tree(tmp_path, NEW)
    assert p.removed == ("schemas/m/gone.json",)
    assert snapshot(tmp_path) == {**NEW, "schemas/m/mine.json": "user's\n"}


def test_empty_folders_left_by_removals_are_pruned(tmp_path: Path) -> None:
    write_tree(tmp_path, {"schemas/x/t.json": "{}\n", "a.py": ""})
    write_tree(tmp_path, {"a.py": ""})
    assert not (tmp_path / "schemas").exists()


def test_plan_reports_without_writing(tmp_path: Path) -> None:
    write_tree(tmp_path, OLD)
    p = plan(tmp_path, NEW)
    assert p.written == ("a.py", "schemas/m/t2.json")
    assert p.removed == ("schemas/m/gone.json",)
    assert p.unchanged == ("schemas/m/t1.json",)
    assert snapshot(tmp_path) == OLD


def test_no_change_rewrites_nothing(tmp_path: Path) -> None:
    write_tree(tmp_path, OLD)
    before = {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*") if p.is_file()}
    assert not write_tree(tmp_path, OLD).changes
    assert before == {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*") if p.is_file()}


class Killed(BaseException):
    """Stands for the process dying: nothing after it runs."""


def count_replaces(tmp_path: Path) -> int:
    """How many renames writing NEW over OLD takes: every point a kill could land."""
    write_tree(tmp_path, OLD)
    calls = 0
    real = os.replace

    def counting(a: object, b: object) -> None:
        nonlocal calls
        calls += 1
        real(a, b)  # type: ignore[arg-type]

    write.os.replace = counting  # type: ignore[assignment]
    try:
        write_tree(tmp_path, NEW)
    finally:
        write.os.replace = real
    return calls


def test_interrupted_at_every_point_is_before_or_after(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    total = count_replaces(tmp_path / "probe")
    assert total >= 3
    real = os.replace
    for kill_at in range(total):
        root = tmp_path / f"run{kill_at}"
        write_tree(root, OLD)
        calls = 0

        def dying(a: object, b: object, kill_at: int = kill_at) -> None:
            nonlocal calls
            calls += 1
            if calls > kill_at:
                raise Killed
            real(a, b)  # type: ignore[arg-type]

        monkeypatch.setattr(write.os, "replace", dying)
        with pytest.raises(Killed):
            write_tree(root, NEW)
        monkeypatch.setattr(write.os, "replace", real)
        committing = (root / JOURNAL).exists()
        if not committing:
            assert snapshot(root) == OLD, kill_at
        recover(root)  # what the next toolc command does first
        assert snapshot(root) == (NEW if committing else OLD), kill_at
        assert not list(root.glob(".toolc-*"))[1:], kill_at  # only the manifest is left
        assert set(read_manifest(root)) == set(NEW if committing else OLD), kill_at


def test_plan_leaves_an_interrupted_commit_for_a_writing_build(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_tree(tmp_path, OLD)
    real = os.replace
    calls = 0

    def dying(a: object, b: object) -> None:
        nonlocal calls
        calls += 1
        if calls == 3:  # after the journal and one file
            raise Killed
        real(a, b)  # type: ignore[arg-type]

    monkeypatch.setattr(write.os, "replace", dying)
    with pytest.raises(Killed):
        write_tree(tmp_path, NEW)
    monkeypatch.setattr(write.os, "replace", real)
    before = snapshot(tmp_path)
    assert plan(tmp_path, NEW).changes  # a checking build reads; it finishes nothing
    assert snapshot(tmp_path) == before and (tmp_path / JOURNAL).exists()
    assert not write_tree(tmp_path, NEW).changes  # the writing build finished it first
    assert snapshot(tmp_path) == NEW

