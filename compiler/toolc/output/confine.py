"""Where a build may write, move and delete: inside its output folder, never through a link.

Everything a build reads can come from a pull request, the manifest and the journal in
``generated/`` included, so every path toolc is about to touch is checked here first:
an entry of the manifest or journal must be a relative, normalised path (no ``..``, no
``.``, no empty part, no backslash, no absolute or drive path) naming a file below the
output folder that is not toolc's own bookkeeping (``.toolc-*``); and no folder on the
way to it may be a symbolic link (``generated/schemas/m -> /elsewhere`` would make a
write land outside). The output folder itself is checked once, by the configuration,
to resolve inside the project (TC902).

A refusal or a failed write is an :class:`OutputError`: one line naming the file, which
the build reports as a diagnostic (never a traceback).

The files ``toolc import`` and ``toolc init`` write for the user are held to the same
rule inside the project (:func:`project_target`): a committed link at the target
(``specs/tools.toolc.yaml -> /anywhere``) or on the way is refused, never written through.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
from pathlib import Path, PureWindowsPath

from ..untrusted import FILE_BYTES, FileRefused, read_untrusted

# A file name of more bytes is refused by the common file systems (ext4, APFS, NTFS).
NAME_MAX = 255
_HASH = re.compile(r"^[0-9a-f]{64}$")


class OutputError(Exception):
    """A path toolc refuses to touch (TC505), or a write that failed (TC506)."""

    def __init__(self, code: str, message: str, path: Path) -> None:
        super().__init__(f"{path}: {message}")
        self.code, self.message, self.path = code, message, path


def refused(path: Path, message: str) -> OutputError:
    return OutputError("TC505", message, path)


def write_failed(path: Path, exc: OSError, doing: str = "cannot write",
                 after: str = "the output was left as it was") -> OutputError:
    """``cannot write: No space left on device (ENOSPC); ...`` for the file it happened to."""
    code = errno.errorcode.get(exc.errno or 0, "")
    why = f"{exc.strerror or exc}" + (f" ({code})" if code else "")
    return OutputError("TC506", f"{doing}: {why}; {after}", path)


def entry_problem(rel: object) -> str | None:
    """Why ``rel`` is not the relative path of a file toolc may own; None when it is."""
    if not isinstance(rel, str) or not rel:
        return "is not a path"
    # A drive (`C:x`) is the only one Windows reads without a leading slash or backslash
    # (both refused): only a second character ':' needs the (slow) Windows parse.
    if "\\" in rel or "\0" in rel or rel.startswith("/") or (
            rel[1:2] == ":" and PureWindowsPath(rel).drive):
        return "is not a relative path with '/' separators"
    parts = rel.split("/")
    if any(part in ("", ".", "..") for part in parts):
        return "is not a normalised path inside the output (it has an empty, '.' or '..' part)"
    if parts[0].startswith(".toolc-"):
        return "is toolc's own bookkeeping, not a file of the output"
    if any(len(part.encode("utf-8", "surrogateescape")) > NAME_MAX for part in parts):
        return f"has a name longer than {NAME_MAX} bytes"
    return None


def is_hash(value: object) -> bool:
    return isinstance(value, str) and _HASH.match(value) is not None


def check_entry(rel: object, listed_in: Path) -> str:
    """``rel`` as listed in ``listed_in`` (manifest or journal), or refuse that file."""
    problem = entry_problem(rel)
    if problem is not None:
        raise refused(listed_in, f"refused: its entry {str(rel)[:200]!r} {problem}; toolc "
                      "touches only files it wrote inside the output folder")
    assert isinstance(rel, str)
    return rel


def check_way(out: Path, rel: str, seen: set[Path] | None = None) -> None:
    """Refuse ``out/rel`` if a folder on the way is a link or a file, or it is a folder.
    ``seen``: folders already found fine (a thousand files share a few folders)."""
    here = out
    for part in rel.split("/")[:-1]:
        here = here / part
        if seen is not None and here in seen:
            continue
        try:
            mode = os.lstat(here).st_mode
        except FileNotFoundError:
            return  # the rest of the way is made by toolc
        except OSError as exc:
            raise write_failed(here, exc, "cannot be examined") from None
        if stat.S_ISLNK(mode):
            raise refused(here, "is a symbolic link: toolc writes nothing through a link "
                          "(it could point anywhere)")
        if not stat.S_ISDIR(mode):
            raise refused(here, f"is not a folder, and {rel} is to be written below it")
        if seen is not None:
            seen.add(here)
    with_mode = _lstat_mode(out / rel)
    if with_mode is not None and stat.S_ISDIR(with_mode):
        raise refused(out / rel, "is a folder where toolc writes a file")


def project_target(root: Path, path: Path) -> tuple[str, str | None]:
    """``path`` as shown inside the project ``root`` (not resolved: a link is named, not
    followed), and why toolc must not write a file there for the user: it lies outside
    the project, a folder on the way is a link or a file, or something else than a
    regular file stands there (a link, even a dangling one). None when it may."""
    rel = os.path.relpath(os.path.abspath(path), os.path.abspath(root))
    shown = Path(rel).as_posix()
    if rel == os.curdir or rel == os.pardir or rel.startswith(os.pardir + os.sep) \
            or os.path.isabs(rel):
        return str(path), "is outside the project: toolc writes only inside it"
    try:
        check_way(root, shown)
    except OutputError as exc:
        where = Path(os.path.relpath(exc.path, root)).as_posix()
        return shown, f"cannot be written: {where} {exc.message}"
    mode = _lstat_mode(root / shown)
    if mode is not None and stat.S_ISLNK(mode):
        return shown, ("is a symbolic link: toolc writes nothing through a link (it could "
                       "point outside the project)")
    if mode is not None and not stat.S_ISREG(mode):
        return shown, "is not a regular file"
    return shown, None


def _lstat_mode(path: Path) -> int | None:
    try:
        return os.lstat(path).st_mode
    except OSError:
        return None


def is_plain_file(path: Path) -> bool:
    """A regular file, not a link to one."""
    mode = _lstat_mode(path)
    return mode is not None and stat.S_ISREG(mode)


def owned_unchanged(out: Path, rel: str, recorded: str) -> bool:
    """``out/rel`` is a plain file, reached through no link, that still has the hash
    toolc recorded for it: only then is it toolc's to remove (else a user's file)."""
    try:
        check_way(out, rel)
    except OutputError:
        return False
    try:  # a link is not the file toolc wrote; one larger than any it writes is not either
        return hashlib.sha256(read_untrusted(out / rel, FILE_BYTES)).hexdigest() == recorded
    except (OSError, FileRefused):
        return False
