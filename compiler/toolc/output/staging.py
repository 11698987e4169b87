"""Stage a build's files beside the output while the build goes on; commit them at once.

Creating a thousand golden files in a new folder is mostly waiting for the file system
(file creation stalls while its journal commits), not computing (bench/RESULTS.md,
"Costs behind the code"). So a build opens a ``StagedTree`` as soon as
its front end has succeeded, hands it files as they are made (``add``: the golden
schemas, then the modules), each batch written to the staging folder by a forked
process while the build generates, diffs and certifies, and ``commit`` puts everything
in place only if the build succeeded: the manifest, the journal, then the renames, as
``toolc.output.journal`` describes. A build that fails calls ``discard``: the staging folder goes
(and the output folder, if it was made for this build and is still empty).

Until the journal is written, nothing in the output has changed: a build killed before
that leaves a staging folder, which the next writing build sweeps. Every path is checked
before the journal names it (``toolc.output.confine``: no link on the way, a usable file name),
and a write that fails (a full disk, ``ulimit -f``, a read-only or forbidden folder) is
an ``OutputError`` naming the file, raised before the journal exists, so the old output
stays and nothing is left that the next build would have to replay.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import tempfile
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .confine import check_way, entry_problem, refused, write_failed
from .files import signals_held, sync_files, write_new_file, write_synced
from .journal import JOURNAL, JOURNAL_VERSION, STAGING_PREFIX, apply_journal, recover
from .plan import MANIFEST, Plan, digest, read_manifest, removable, same_on_disk


@dataclass(slots=True)
class _Batch:
    names: list[str] = field(default_factory=list)      # staged file names
    rels: list[str] = field(default_factory=list)       # where each goes in the output
    contents: list[bytes] = field(default_factory=list)
    writer: int | None = None                           # the process writing them


class StagedTree:
    """The files of one build, staged in a folder beside ``out``."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.made_out = not out.is_dir()
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise write_failed(out, exc, "cannot make the output folder") from None
        recover(out)  # a commit left half done is finished before anything is compared
        self.owned = read_manifest(out)
        try:
            self.staging: Path | None = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=out))
        except OSError as exc:
            raise write_failed(out, exc, "cannot stage files in the output folder") from None
        self.seen: set[Path] = set()       # folders of the output checked for links
        self.moves: list[list[str]] = []   # [staged name, relative path], journal order
        self.unchanged: list[str] = []
        self.batches: list[_Batch] = []

    def add(self, files: Mapping[str, str], *, meanwhile: bool = False) -> None:
        """Stage what differs from the output among ``files`` (relative path -> text).
        ``meanwhile``: a forked process writes them while this one goes on (without
        fork, or with other threads running, they are written here and now)."""
        assert self.staging is not None, "staged files were committed or discarded"
        batch = _Batch()
        for rel, text in files.items():
            self._check_target(rel)
            data = text.encode("utf-8")
            if same_on_disk(self.out / rel, data):
                self.unchanged.append(rel)
                continue
            name = str(len(self.moves))
            self.moves.append([name, rel])
            batch.names.append(name)
            batch.rels.append(rel)
            batch.contents.append(data)
        if not batch.names:
            return
        self.batches.append(batch)
        if meanwhile and can_fork():
            batch.writer = _fork_writer(self.staging, batch, self.out)
        if batch.writer is None:
            try:
                _write_batch(self.staging, batch, self.out)
            except BaseException:
                self.discard()
                raise

    def keep(self, rels: Iterable[str]) -> None:
        """Files the build found in the output moments ago as it would write them, each
        reached through no link, a plain file, with its text's hash (the golden files of
        a component taken over, ``toolc.reuse.components``): unchanged, not read again."""
        self.unchanged.extend(rels)

    def commit(self, files: Mapping[str, str], extra: Mapping[str, Any] | None = None) -> Plan:
        """Make ``out`` hold exactly ``files`` (all of the build's, staged by ``add``) and
        the user's own files: the manifest (with ``extra``), the journal, the renames."""
        staging = self.staging
        assert staging is not None, "staged files were committed or discarded"
        written = sorted(rel for _, rel in self.moves)
        removed = removable(self.out, self.owned, files)
        result = Plan(tuple(written), tuple(removed), tuple(sorted(self.unchanged)))
        manifest = {"version": 1, "files": {rel: digest(files[rel]) for rel in sorted(files)}}
        manifest.update(extra or {})
        manifest_text = json.dumps(manifest, indent=2, sort_keys=True) + "\n"
        if not result.changes and same_on_disk(self.out / MANIFEST, manifest_text.encode()):
            self.discard()
            return result
        try:
            self._wait_for_writers()
            name = str(len(self.moves))
            _write_bookkeeping(staging, name, self.out / MANIFEST, manifest_text)
            moves = [*self.moves, [name, MANIFEST]]
            journal = {"version": JOURNAL_VERSION, "staging": staging.name, "moves": moves,
                       "remove": [[rel, self.owned[rel]] for rel in removed]}
            try:
                write_synced(staging / "journal", self.out / JOURNAL, json.dumps(journal))
            except OSError as exc:
                raise write_failed(self.out / JOURNAL, exc) from None
        except BaseException:
            self.discard()  # nothing committed yet: as before
            raise
        # From here the journal is the truth: if this is cut short, recover() finishes
        # it, so the staged files must stay until the renames are done.
        self.staging = None
        with signals_held():
            apply_journal(self.out, journal)
        shutil.rmtree(staging, ignore_errors=True)
        return result

    def discard(self) -> None:
        """Drop the staged files: the output stays as it was. Again: nothing happens."""
        for batch in self.batches:
            if batch.writer is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(batch.writer, signal.SIGKILL)
                _reap(batch)
        if self.staging is not None:
            shutil.rmtree(self.staging, ignore_errors=True)
            self.staging = None
        if self.made_out:
            with contextlib.suppress(OSError):
                self.out.rmdir()  # only if still empty

    def _check_target(self, rel: str) -> None:
        """A file name the file system takes, reached through no link (before the journal
        names it: a journal whose renames cannot be done would stop every later build)."""
        problem = entry_problem(rel)
        if problem is not None:
            raise refused(self.out / rel[:200], f"cannot be written: the path {problem}")
        check_way(self.out, rel, self.seen)

    def _wait_for_writers(self) -> None:
        """Wait for every writing process; write here what one of them did not."""
        assert self.staging is not None
        for batch in self.batches:
            if batch.writer is not None and not _reap(batch):
                for name in batch.names:  # start that batch again from nothing
                    (self.staging / name).unlink(missing_ok=True)
                _write_batch(self.staging, batch, self.out)


def _reap(batch: _Batch) -> bool:
    """Wait for the batch's writer; whether it wrote and synced all of it."""
    pid, batch.writer = batch.writer, None
    if pid is None:
        return True
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:
        return False
    return os.waitstatus_to_exitcode(status) == 0


def can_fork() -> bool:
    """Whether this process may fork a helper (a batch's writer, the certifying process):
    only where ``os.fork`` exists, and only while no other thread runs, because a fork
    copies the locks other threads hold and the child could wait on them forever. The
    one check every forking part of a build asks."""
    return hasattr(os, "fork") and threading.active_count() == 1


def _fork_writer(staging: Path, batch: _Batch, out: Path) -> int | None:
    try:
        pid = os.fork()
    except OSError:
        return None
    if pid == 0:  # the writer: write, sync, leave without running any of the parent's code
        status = 1
        try:
            _write_batch(staging, batch, out)
            status = 0
        finally:
            os._exit(status)
    return pid


def _write_batch(staging: Path, batch: _Batch, out: Path) -> None:
    """Write and sync the batch; a failure names the output file it was for."""
    for name, rel, data in zip(batch.names, batch.rels, batch.contents, strict=True):
        try:
            write_new_file(staging / name, data)
        except OSError as exc:
            raise write_failed(out / rel, exc) from None
    try:
        sync_files(staging, batch.names)
    except OSError as exc:
        raise write_failed(staging, exc, "cannot sync the staged files") from None


def _write_bookkeeping(staging: Path, name: str, shown: Path, text: str) -> None:
    try:
        write_new_file(staging / name, text.encode("utf-8"))
        sync_files(staging, [name])
    except OSError as exc:
        raise write_failed(shown, exc) from None
