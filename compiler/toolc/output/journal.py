"""Commit ``generated/`` atomically: the journal, its replay after a crash, the renames.

A build never leaves the output half-written. New contents are first written to a
staging folder beside the files (same file system, so renames are atomic), then a
journal naming every planned rename and removal is written and fsynced, then the
renames run with SIGINT/SIGTERM held back. If the process dies during that short
phase anyway (a kill -9, a power cut), the next toolc command finds the journal and
finishes it: the output is then exactly the new build. Before the journal exists,
nothing in the output has changed. (A build stages its files while it goes on:
``toolc.output.staging``, committed at once.) Only files the
manifest owns are removed (``toolc.output.plan``).

The journal is read from the checkout, which a pull request can change: each of its
entries is checked (``toolc.output.confine``) before anything is touched, and a journal
is replayed only by a writing build (``StagedTree``).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..untrusted import RECORD_BYTES, FileRefused, read_untrusted
from .confine import (
    check_entry,
    check_way,
    is_hash,
    is_plain_file,
    owned_unchanged,
    refused,
    write_failed,
)
from .files import fsync_dir, signals_held
from .plan import MANIFEST

JOURNAL = ".toolc-journal.json"
STAGING_PREFIX = ".toolc-staging-"
JOURNAL_VERSION = 2
_STAGING_NAME = re.compile(r"^\.toolc-staging-[A-Za-z0-9_]{1,64}$")
_STAGED_NAME = re.compile(r"^[0-9]{1,9}$")


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
    try:
        data = json.loads(read_untrusted(path, RECORD_BYTES))
    except FileRefused as exc:
        raise _bad_journal(path, f"it {exc.why}") from None
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
    try:
        data = json.loads(read_untrusted(staged, RECORD_BYTES))
    except (OSError, ValueError, RecursionError, FileRefused):
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
    fsync_dir(out)


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
