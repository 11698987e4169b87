"""What a build would change in its output folder, and the manifest of the files toolc owns.

Only files toolc wrote are ever removed: the manifest ``.toolc-manifest.json`` lists
them with their hashes, and a file is removed only while it still has the hash toolc
recorded, so a file the user put in ``generated/`` (or edited there) is left alone. The
manifest is read from the checkout, which a pull request can change: each entry is
checked (``toolc.output.confine``). ``plan``, which checking builds use, reads and never
writes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..untrusted import RECORD_BYTES, FileRefused, read_untrusted
from .confine import check_entry, check_way, is_hash, owned_unchanged, refused

MANIFEST = ".toolc-manifest.json"


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
    """The whole manifest (files, and what a commit's ``extra`` added); {} if none
    or not JSON (then nothing is owned, so nothing is removed). A link, a FIFO or a
    manifest over its bound is refused."""
    path = out / MANIFEST
    try:
        data = json.loads(read_untrusted(path, RECORD_BYTES))
    except FileRefused as exc:
        raise refused(path, f"refused: the manifest {exc.why}") from None
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
    """``target`` is a plain file holding ``data`` (a link is replaced, whatever it holds;
    a longer file is not read past ``data``'s length)."""
    try:
        return read_untrusted(target, len(data)) == data
    except (OSError, FileRefused):
        return False
