"""Write ``generated/`` atomically, owning only the files listed in its manifest.

A build never leaves the output half-written. New contents are first written to a
staging folder beside the files (same file system, so renames are atomic), then a
journal naming every planned rename and removal is written and fsynced, then the
renames run with SIGINT/SIGTERM held back. If the process dies during that short
phase anyway (a kill -9, a power cut), the next toolc command finds the journal and
finishes it: the output is then exactly the new build. Before the journal exists,
nothing in the output has changed. (A build stages its files while it goes on:
``toolc.output.staging``; ``write_tree`` does it all at once.)

Only files toolc wrote are ever removed: the manifest ``.toolc-manifest.json`` lists
them with their hashes, and a file is removed only while it still has the hash toolc
recorded, so a file the user put in ``generated/`` (or edited there) is left alone.

The manifest and journal are read from the checkout, which a pull request can change:
each of their entries is checked (``toolc.output.confine``) before anything is touched, and a
journal is replayed only by a writing build (``StagedTree``); ``plan``, which checking
builds use, reads and never writes.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import signal
import sys
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .confine import (
    check_entry,
    check_way,
    is_hash,
    is_plain_file,
    owned_unchanged,
    refused,
    write_failed,
)

MANIFEST = ".toolc-manifest.json"
JOURNAL = ".toolc-journal.json"
STAGING_PREFIX = ".toolc-staging-"
JOURNAL_VERSION = 2
_STAGING_NAME = re.compile(r"^\.toolc-staging-[A-Za-z0-9_]{1,64}$")
_STAGED_NAME = re.compile(r"^[0-9]{1,9}$")


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
    """The whole manifest (files, and what ``write_tree``'s ``extra`` added); {} if none
    or not JSON (then nothing is owned, so nothing is removed)."""
    path = out / MANIFEST
    if os.path.lexists(path) and not is_plain_file(path):
        raise refused(path, "refused: the manifest is not a plain file (a link?)")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def read_manifest(out: Path) -> dict[str, str]:
    """Owned relative path -> recorded hash; every entry checked, or the manifest refused."""
    path = out / MANIFEST
    files = read_manifest_data(out).get("files", {})
    if not isinstance(files, dict):
        raise refused(path, 'refused: its "files" is not an object of path -> hash')
    owned: dict[str, str] = {}
    for rel, recorded in files.items():
        check_entry(rel, path)
        if not is_hash(recorded):
            raise refused(path, f"refused: the hash recorded for {rel!r} is not a SHA-256 "
                          "hex digest")
        owned[rel] = recorded
    return owned


def removable(out: Path, owned: Mapping[str, str], files: Mapping[str, str]) -> list[str]:
    """Owned files the build produces no more, and still as toolc wrote them."""
    return sorted(rel for rel, recorded in owned.items()
                  if rel not in files and owned_unchanged(out, rel, recorded))


def plan(out: Path, files: Mapping[str, str]) -> Plan:
    """Compare the wanted ``files`` (relative path -> text) with what ``out`` holds.

    Reads only: an interrupted write's journal is left for a writing build to finish.
    """
    owned = read_manifest(out)
    written: list[str] = []
    unchanged: list[str] = []
    seen: set[Path] = set()
    for rel, text in sorted(files.items()):
        check_way(out, rel, seen)
        (unchanged if same_on_disk(out / rel, text.encode("utf-8")) else written).append(rel)
    return Plan(tuple(written), tuple(removable(out, owned, files)), tuple(unchanged))


def same_on_disk(target: Path, data: bytes) -> bool:
    """``target`` is a plain file holding ``data`` (a link is replaced, whatever it holds)."""
    if not is_plain_file(target):
        return False
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
    """Finish a commit that a killed process left half done; True if there was one.

    Only a writing build calls this. A journal that toolc cannot have written (an entry
    outside the output, a link on the way, another format) is refused, not replayed.
    """
    journal = read_journal(out)
    if journal is None:
        _sweep_staging(out)
        return False
    with signals_held():
        apply_journal(out, journal)
    _sweep_staging(out)
    return True


def read_journal(out: Path) -> dict[str, Any] | None:
    """The journal in ``out``, every entry checked; None if there is none."""
    path = out / JOURNAL
    if not os.path.lexists(path):
        return None
    if not is_plain_file(path):
        raise _bad_journal(path, "it is not a plain file")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        raise _bad_journal(path, "it is not JSON toolc wrote") from None
    if not isinstance(data, dict) or data.get("version") != JOURNAL_VERSION:
        raise _bad_journal(path, "it is not a journal of this version of toolc")
    staging, moves, remove = data.get("staging"), data.get("moves"), data.get("remove")
    if not isinstance(staging, str) or not _STAGING_NAME.match(staging):
        raise _bad_journal(path, "its staging folder is not one toolc makes")
    if os.path.islink(out / staging):
        raise _bad_journal(path, "its staging folder is a link")
    if not isinstance(moves, list) or not isinstance(remove, list):
        raise _bad_journal(path, '"moves" and "remove" must be lists')
    for move in moves:
        if not (isinstance(move, list) and len(move) == 2 and isinstance(move[0], str)
                and _STAGED_NAME.match(move[0])):
            raise _bad_journal(path, f"the move {str(move)[:100]!r} is not [staged name, path]")
        if move[1] != MANIFEST:
            check_entry(move[1], path)
    for entry in remove:
        if not (isinstance(entry, list) and len(entry) == 2 and is_hash(entry[1])):
            raise _bad_journal(path, f"the removal {str(entry)[:100]!r} is not [path, hash]")
        check_entry(entry[0], path)
    _check_moves_owned(out, data, path)
    return data


def _check_moves_owned(out: Path, journal: Mapping[str, Any], path: Path) -> None:
    """Every rename still to do puts in place a file that the staged manifest (the last
    rename) owns: a journal cannot put a file of its own over one of the user's."""
    staging = out / str(journal["staging"])
    pending = [rel for name, rel in journal["moves"] if is_plain_file(staging / name)]
    if not pending:
        return
    manifests = [name for name, rel in journal["moves"] if rel == MANIFEST]
    files = _staged_manifest_files(staging / manifests[-1]) if manifests else None
    if files is None:
        raise _bad_journal(path, "files remain to be put in place, but no manifest that "
                           "owns them")
    for rel in files:
        check_entry(rel, path)
    for rel in pending:
        if rel != MANIFEST and rel not in files:
            raise _bad_journal(path, f"it would put {rel[:200]!r} in place, a file its "
                               "manifest does not own")


def _staged_manifest_files(staged: Path) -> dict[str, Any] | None:
    if not is_plain_file(staged):
        return None
    try:
        data = json.loads(staged.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    files = data.get("files") if isinstance(data, dict) else None
    return files if isinstance(files, dict) else None


def _bad_journal(path: Path, why: str) -> Exception:
    return refused(path, f"refused: {why}; nothing was replayed (delete it if no build of "
                   "yours was interrupted)")


def apply_journal(out: Path, journal: Mapping[str, Any]) -> None:
    """Do the journal's renames and removals (a checked journal: ``read_journal``)."""
    staging = out / str(journal["staging"])
    staged = os.path.isdir(staging) and not os.path.islink(staging)
    seen: set[Path] = set()
    for _name, rel in journal["moves"]:
        check_way(out, rel, seen)  # every way checked before the first rename
    for name, rel in journal["moves"]:
        source, target = staging / name, out / rel
        if staged and is_plain_file(source):  # a rename already done is skipped
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                os.replace(source, target)
            except OSError as exc:
                raise write_failed(target, exc, "cannot be put in place",
                                   f"{JOURNAL} is kept: the next build finishes the write"
                                   ) from None
    for rel, recorded in journal["remove"]:
        if owned_unchanged(out, rel, recorded):
            with contextlib.suppress(FileNotFoundError):
                (out / rel).unlink()
            _prune_empty(out, (out / rel).parent)
    (out / JOURNAL).unlink(missing_ok=True)
    _fsync_dir(out)


def _prune_empty(out: Path, folder: Path) -> None:
    while folder != out and folder.is_relative_to(out) and not folder.is_symlink():
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent


def _sweep_staging(out: Path) -> None:
    if out.is_dir():
        for leftover in out.glob(f"{STAGING_PREFIX}*"):
            if leftover.is_dir() and not leftover.is_symlink():
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
