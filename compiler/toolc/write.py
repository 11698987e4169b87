"""Write ``generated/`` atomically, owning only the files listed in its manifest.

A build never leaves the output half-written. New contents are first written to a
staging folder beside the files (same file system, so renames are atomic), then a
journal naming every planned rename and removal is written and fsynced, then the
renames run with SIGINT/SIGTERM held back. If the process dies during that short
phase anyway (a kill -9, a power cut), the next toolc command finds the journal and
finishes it: the output is then exactly the new build. Before the journal exists,
nothing in the output has changed.

Only files toolc wrote are ever removed: the manifest ``.toolc-manifest.json`` lists
them with their hashes, so a file the user put in ``generated/`` is left alone.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import signal
import sys
import tempfile
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MANIFEST = ".toolc-manifest.json"
JOURNAL = ".toolc-journal.json"
STAGING_PREFIX = ".toolc-staging-"


@dataclass(frozen=True, slots=True)
class Plan:
    """What writing ``files`` into an output folder would change."""

    written: tuple[str, ...]   # added or changed, relative paths
    removed: tuple[str, ...]   # owned by toolc before, produced no more
    unchanged: tuple[str, ...]

    @property
    def changes(self) -> bool:
        return bool(self.written or self.removed)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def read_manifest_data(out: Path) -> dict[str, Any]:
    """The whole manifest (files, and what ``write_tree``'s ``extra`` added); {} if none."""
    try:
        data = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def read_manifest(out: Path) -> dict[str, str]:
    files = read_manifest_data(out).get("files", {})
    return {str(k): str(v) for k, v in files.items()} if isinstance(files, dict) else {}


def plan(out: Path, files: Mapping[str, str]) -> Plan:
    """Compare the wanted ``files`` (relative path -> text) with what ``out`` holds."""
    recover(out)
    owned = read_manifest(out)
    written: list[str] = []
    unchanged: list[str] = []
    for rel, text in sorted(files.items()):
        target = out / rel
        try:
            same = target.read_bytes() == text.encode("utf-8")
        except OSError:
            same = False
        (unchanged if same else written).append(rel)
    removed = sorted(rel for rel in owned if rel not in files and (out / rel).exists())
    return Plan(tuple(written), tuple(removed), tuple(unchanged))


def write_tree(out: Path, files: Mapping[str, str], extra: Mapping[str, Any] | None = None) -> Plan:
    """Make ``out`` hold exactly ``files`` (plus the user's own files), atomically.

    ``extra`` is written too but not counted as a change (the manifest's own data).
    """
    return stage_tree(out, files, extra).commit()


@dataclass(slots=True)
class StagedTree:
    """A build's files written beside the output, not yet in it (see ``stage_tree``)."""

    out: Path
    plan: Plan
    staging: Path | None = None      # None: the output already is what was asked for
    moves: list[list[str]] = field(default_factory=list)   # [staged name, relative path]
    contents: list[bytes] = field(default_factory=list)
    writer: int | None = None        # the forked process still writing the staged files
    made_out: bool = False           # the output folder was made for this

    def commit(self) -> Plan:
        """Put the staged files in place atomically (the journal, then the renames)."""
        if self.staging is None:
            return self.plan
        staging = self.staging
        try:
            if not self._writer_done():
                _stage_files(staging, self.moves, self.contents)  # it failed: here, then
            journal = {"staging": staging.name, "moves": self.moves,
                       "remove": list(self.plan.removed)}
            _write_synced(staging / "journal", self.out / JOURNAL, json.dumps(journal))
        except BaseException:
            self.discard()  # nothing committed yet: as before
            raise
        # From here the journal is the truth: if this is cut short, recover() finishes
        # it, so the staged files must stay until the renames are done.
        with _signals_held():
            _apply(self.out, journal)
        shutil.rmtree(staging, ignore_errors=True)
        self.staging = None
        return self.plan

    def discard(self) -> None:
        """Drop the staged files: the output stays as it was."""
        if self.writer is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.writer, signal.SIGKILL)
            self._writer_done()
        if self.staging is not None:
            shutil.rmtree(self.staging, ignore_errors=True)
            self.staging = None
        if self.made_out:
            with contextlib.suppress(OSError):
                self.out.rmdir()  # only if still empty

    def _writer_done(self) -> bool:
        """Wait for the writing process; whether it wrote and synced everything."""
        if self.writer is None:
            return True
        pid, self.writer = self.writer, None
        try:
            _, status = os.waitpid(pid, 0)
        except ChildProcessError:
            return False
        if os.waitstatus_to_exitcode(status) == 0:
            return True
        for name, _ in self.moves:  # start again from nothing
            (self.staging or self.out).joinpath(name).unlink(missing_ok=True)
        return False


def stage_tree(out: Path, files: Mapping[str, str], extra: Mapping[str, Any] | None = None,
               *, meanwhile: bool = False) -> StagedTree:
    """Write what ``files`` changes in ``out`` to a staging folder beside it (same file
    system, so the renames of ``StagedTree.commit`` are atomic), synced.

    ``meanwhile``: a forked process writes them while this one goes on (creating a
    thousand files can take half a second, most of it waiting for the file system);
    ``commit`` waits for it. Without fork, or with other threads running, as without.
    """
    result = plan(out, files)
    manifest = {"version": 1, "files": {rel: digest(files[rel]) for rel in sorted(files)}}
    if extra:
        manifest.update(extra)
    manifest_text = json.dumps(manifest, indent=2, sort_keys=True) + "\n"
    if not result.changes and _read(out / MANIFEST) == manifest_text:
        return StagedTree(out, result)
    made_out = not out.is_dir()
    out.mkdir(parents=True, exist_ok=True)
    staged = StagedTree(out, result, Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=out)),
                        made_out=made_out)
    for i, rel in enumerate((*result.written, MANIFEST)):
        staged.moves.append([str(i), rel])
        staged.contents.append((manifest_text if rel == MANIFEST else files[rel]).encode())
    if meanwhile and hasattr(os, "fork") and threading.active_count() == 1:
        staged.writer = _fork_writer(staged)
    if staged.writer is None:
        try:
            _stage_files(staged.staging, staged.moves, staged.contents)  # type: ignore[arg-type]
        except BaseException:
            staged.discard()
            raise
    return staged


def _fork_writer(staged: StagedTree) -> int | None:
    try:
        pid = os.fork()
    except OSError:
        return None
    if pid == 0:  # the writer: write, sync, leave without running any of the parent's code
        status = 1
        try:
            assert staged.staging is not None
            _stage_files(staged.staging, staged.moves, staged.contents)
            status = 0
        finally:
            os._exit(status)
    return pid


def _stage_files(staging: Path, moves: list[list[str]], contents: list[bytes]) -> None:
    for (name, _), data in zip(moves, contents, strict=True):
        _write_bytes(staging / name, data)
    _sync_staged(staging, [name for name, _ in moves])


def recover(out: Path) -> bool:
    """Finish a commit that a killed process left half done; True if there was one."""
    journal_path = out / JOURNAL
    try:
        journal = json.loads(journal_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        _sweep_staging(out)
        return False
    with _signals_held():
        _apply(out, journal)
    _sweep_staging(out)
    return True


def _apply(out: Path, journal: Mapping[str, Any]) -> None:
    staging = out / str(journal["staging"])
    for name, rel in journal["moves"]:
        source, target = staging / name, out / rel
        if source.exists():  # a rename already done by the interrupted run is skipped
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(source, target)
    for rel in journal["remove"]:
        with contextlib.suppress(FileNotFoundError):
            (out / rel).unlink()
        _prune_empty(out, (out / rel).parent)
    (out / JOURNAL).unlink(missing_ok=True)
    _fsync_dir(out)


def _prune_empty(out: Path, folder: Path) -> None:
    while folder != out and folder.is_relative_to(out):
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent


def _sweep_staging(out: Path) -> None:
    if out.is_dir():
        for leftover in out.glob(f"{STAGING_PREFIX}*"):
            shutil.rmtree(leftover, ignore_errors=True)


def _write_bytes(path: Path, data: bytes) -> None:
    """A new file holding ``data`` (bytes: no newline translation on any platform)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def _sync_staged(staging: Path, names: list[str]) -> None:
    """Make the staged files durable before the journal names them.

    One fsync per file costs about 0.15 s for a thousand files; Linux's syncfs flushes
    the whole file system in one call. Elsewhere (or if it fails) each file is fsynced.
    """
    if _syncfs(staging):
        return
    for name in names:
        fd = os.open(staging / name, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _syncfs(folder: Path) -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        syncfs = ctypes.CDLL(None, use_errno=True).syncfs
    except (OSError, AttributeError):
        return False
    fd = os.open(folder, os.O_RDONLY)
    try:
        return bool(syncfs(fd) == 0)
    finally:
        os.close(fd)


def _write_synced(tmp: Path, path: Path, text: str) -> None:
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM until the renames are done (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    old = {signum: signal.signal(signum, lambda n, _f: caught.append(n))
           for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for signum, handler in old.items():
            signal.signal(signum, handler)
        for number in caught:
            signal.raise_signal(number)
