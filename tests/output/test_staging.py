"""Staging a build's files while it goes on: nothing reaches the output before commit."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from fork_support import wait_until_single_threaded
from output_support import stage_tree, write_tree
from toolc.output import files, staging
from toolc.output import journal as write
from toolc.output.confine import OutputError
from toolc.output.journal import JOURNAL
from toolc.output.plan import read_manifest
from toolc.output.staging import StagedTree

OLD = {"a.py": "old a\n", "schemas/m/t1.json": "{}\n", "schemas/m/gone.json": "{}\n"}
NEW = {"a.py": "new a\n", "schemas/m/t1.json": "{}\n", "schemas/m/t2.json": "{\"n\": 2}\n"}
FORK = hasattr(os, "fork")


def snapshot(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): p.read_text() for p in sorted(root.rglob("*"))
            if p.is_file() and not p.name.startswith(".toolc")
            and not p.relative_to(root).as_posix().startswith(".toolc-staging-")}


def staging_folders(root: Path) -> list[Path]:
    return sorted(root.glob(".toolc-staging-*"))


def no_process_left() -> None:
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


@pytest.mark.parametrize("meanwhile", [False, True])
def test_batches_reach_the_output_only_at_commit(tmp_path: Path, meanwhile: bool) -> None:
    write_tree(tmp_path, OLD)
    staged = StagedTree(tmp_path)
    staged.add({"schemas/m/t1.json": NEW["schemas/m/t1.json"],
                "schemas/m/t2.json": NEW["schemas/m/t2.json"]}, meanwhile=meanwhile)
    staged.add({"a.py": NEW["a.py"]}, meanwhile=meanwhile)
    assert [b.writer is not None for b in staged.batches] == [meanwhile and FORK] * 2
    assert snapshot(tmp_path) == OLD and not (tmp_path / JOURNAL).exists()
    plan = staged.commit(NEW)
    assert (plan.written, plan.removed, plan.unchanged) == (
        ("a.py", "schemas/m/t2.json"), ("schemas/m/gone.json",), ("schemas/m/t1.json",))
    assert snapshot(tmp_path) == NEW and set(read_manifest(tmp_path)) == set(NEW)
    assert staging_folders(tmp_path) == []
    no_process_left()


def test_nothing_changed_writes_nothing(tmp_path: Path) -> None:
    write_tree(tmp_path, OLD)
    before = {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*") if p.is_file()}
    staged = stage_tree(tmp_path, OLD, meanwhile=True)
    assert staged.batches == [] and not staged.commit(OLD).changes
    assert before == {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*") if p.is_file()}
    assert staging_folders(tmp_path) == []


def test_files_kept_are_unchanged_in_the_plan_and_listed_in_the_manifest(
        tmp_path: Path) -> None:
    """``keep``: files the build has just found in the output as it would write them (a
    taken component's golden files): not read or written again, still the build's."""
    write_tree(tmp_path, OLD)
    staged = StagedTree(tmp_path)
    staged.keep(["schemas/m/t1.json"])
    staged.add({"a.py": NEW["a.py"], "schemas/m/t2.json": NEW["schemas/m/t2.json"]})
    plan = staged.commit(NEW)
    assert plan.unchanged == ("schemas/m/t1.json",)
    assert plan.written == ("a.py", "schemas/m/t2.json")
    assert snapshot(tmp_path) == NEW and set(read_manifest(tmp_path)) == set(NEW)


def test_discard_leaves_the_output_as_it_was(tmp_path: Path) -> None:
    write_tree(tmp_path, OLD)
    staged = stage_tree(tmp_path, NEW, meanwhile=True)
    staged.discard()
    staged.discard()  # again: nothing happens
    assert snapshot(tmp_path) == OLD and set(read_manifest(tmp_path)) == set(OLD)
    assert staging_folders(tmp_path) == []
    no_process_left()


def test_discard_removes_an_output_folder_made_for_it(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    stage_tree(out, NEW, meanwhile=True).discard()
    assert not out.exists()


@pytest.mark.skipif(not FORK, reason="the writers are forked processes")
def test_a_failed_writer_is_made_up_for_at_commit(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    parent = os.getpid()
    real = files.write_new_file

    def fail_in_the_writer(path: Path, data: bytes) -> None:
        real(path, data)
        if os.getpid() != parent:
            raise OSError("disk full")  # after one file: the staging is partial

    monkeypatch.setattr(staging, "write_new_file", fail_in_the_writer)
    wait_until_single_threaded()
    staged = stage_tree(tmp_path, NEW, meanwhile=True)
    assert staged.batches[0].writer is not None
    staged.commit(NEW)
    assert snapshot(tmp_path) == NEW and staging_folders(tmp_path) == []
    no_process_left()


def test_a_failed_commit_leaves_the_output_as_it_was(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    write_tree(tmp_path, OLD)
    staged = stage_tree(tmp_path, NEW, meanwhile=True)

    def no_room(*args: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(staging, "write_synced", no_room)  # the journal cannot be written
    with pytest.raises(OutputError, match="disk full"):
        staged.commit(NEW)
    assert snapshot(tmp_path) == OLD and staging_folders(tmp_path) == []
    no_process_left()


def failing_at(errno_code: int, marker: bytes):  # type: ignore[no-untyped-def]
    """A ``write_new_file`` that fails like the file system would for data with ``marker``
    (the forked writers inherit it, so each batch fails in both processes)."""
    real = staging.write_new_file

    def write_new_file(path: Path, data: bytes) -> None:
        if marker in data:
            raise OSError(errno_code, os.strerror(errno_code))
        real(path, data)
    return write_new_file


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EFBIG, errno.EIO])
@pytest.mark.parametrize("meanwhile", [False, True])
def test_a_write_that_fails_names_its_file_and_keeps_the_old_output(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int, meanwhile: bool) -> None:
    write_tree(tmp_path, OLD)
    monkeypatch.setattr(staging, "write_new_file", failing_at(code, b'"n": 2'))
    with pytest.raises(OutputError) as exc:
        staged = stage_tree(tmp_path, NEW, meanwhile=meanwhile)
        staged.commit(NEW)
    assert exc.value.code == "TC506" and exc.value.path == tmp_path / "schemas/m/t2.json"
    assert errno.errorcode[code] in exc.value.message and "\n" not in exc.value.message
    assert snapshot(tmp_path) == OLD and staging_folders(tmp_path) == []
    assert not (tmp_path / JOURNAL).exists()
    no_process_left()


@pytest.mark.parametrize("code", [errno.EROFS, errno.EACCES])
def test_an_output_folder_that_cannot_be_written_is_one_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int) -> None:
    write_tree(tmp_path, OLD)

    def refuse(**_kw: object) -> str:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(staging.tempfile, "mkdtemp", refuse)
    with pytest.raises(OutputError) as exc:
        stage_tree(tmp_path, NEW)
    assert exc.value.code == "TC506" and exc.value.path == tmp_path
    assert errno.errorcode[code] in exc.value.message
    assert snapshot(tmp_path) == OLD and not (tmp_path / JOURNAL).exists()


def test_a_rename_refused_after_the_journal_is_finished_by_the_next_build(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_tree(tmp_path, OLD)
    real = os.replace

    def forbidden(a: Path, b: Path) -> None:
        if Path(b).name == "t2.json":
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
        real(a, b)

    monkeypatch.setattr(write.os, "replace", forbidden)
    with pytest.raises(OutputError) as exc:
        write_tree(tmp_path, NEW)
    assert exc.value.path == tmp_path / "schemas/m/t2.json" and "EACCES" in exc.value.message
    assert (tmp_path / JOURNAL).exists()  # the journal is the truth now
    monkeypatch.setattr(write.os, "replace", real)
    assert not write_tree(tmp_path, NEW).changes  # the next build finished it, not stuck
    assert snapshot(tmp_path) == NEW and not (tmp_path / JOURNAL).exists()


def test_a_name_no_file_system_takes_is_refused_before_the_journal(tmp_path: Path) -> None:
    write_tree(tmp_path, OLD)
    with pytest.raises(OutputError) as exc:
        write_tree(tmp_path, {**NEW, "x" * 300 + ".py": "long\n"})
    assert exc.value.code == "TC505" and "longer than 255 bytes" in exc.value.message
    assert snapshot(tmp_path) == OLD and not (tmp_path / JOURNAL).exists()
    assert write_tree(tmp_path, NEW).changes  # the next build works
    assert snapshot(tmp_path) == NEW


def test_no_writer_is_forked_while_another_thread_runs(tmp_path: Path) -> None:
    import threading

    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not staging.can_fork()
        staged = StagedTree(tmp_path)
        staged.add(NEW, meanwhile=True)
        assert [b.writer for b in staged.batches] == [None]  # written here, not forked
        staged.commit(NEW)
    finally:
        stop.set()
        thread.join()
    assert snapshot(tmp_path) == NEW
    wait_until_single_threaded()
    assert staging.can_fork() == FORK
