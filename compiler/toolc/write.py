"""Write ``generated/`` atomically, owning only the files listed in its manifest.

A build never leaves the output half-written. New contents are first written to a
staging folder beside the files (same file system, so renames are atomic), then a
journal naming every planned rename and removal is written and fsynced, then the
renames run with SIGINT/SIGTERM held back. If the process dies during that short
phase anyway (a kill -9, a power cut), the next toolc command finds the journal and
finishes it: the output is then exactly the new build. Before the journal exists,
nothing in the output has changed. (A build stages its files while it goes on:
``toolc.staging``; ``write_tree`` does it all at once.)

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
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
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
        (unchanged if same_on_disk(out / rel, text.encode("utf-8")) else written).append(rel)
    removed = sorted(rel for rel in owned if rel not in files and (out / rel).exists())
    return Plan(tuple(written), tuple(removed), tuple(unchanged))


def same_on_disk(target: Path, data: bytes) -> bool:
    try:
        return target.read_bytes() == data
    except OSError:
        return False


def write_tree(out: Path, files: Mapping[str, str], extra: Mapping[str, Any] | None = None) -> Plan:
    """Make ``out`` hold exactly ``files`` (plus the user's own files), atomically.

    ``extra`` is written too but not counted as a change (the manifest's own data).
    """
    from .staging import stage_tree

    return stage_tree(out, files).commit(files, extra)


def recover(out: Path) -> bool:
    """Finish a commit that a killed process left half done; True if there was one."""
    journal_path = out / JOURNAL
    try:
        journal = json.loads(journal_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        _sweep_staging(out)
        return False
    with signals_held():
        apply_journal(out, journal)
    _sweep_staging(out)
    return True


def apply_journal(out: Path, journal: Mapping[str, Any]) -> None:
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


def write_new_file(path: Path, data: bytes) -> None:
    """A new file holding ``data`` (bytes: no newline translation on any platform)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def sync_files(staging: Path, names: list[str]) -> None:
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


def write_synced(tmp: Path, path: Path, text: str) -> None:
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


def read_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
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
