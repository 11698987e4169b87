"""Where published tool sets come from: a folder, or the golden files of a git commit.

Both loaders return a :class:`~toolc.diff.result.ToolSet`: a ``dict`` of tool key to published tool JSON
that also remembers, per tool, the file it came from (relative to the folder loaded)
and that file's text, so reports can point at a line. Every ``*.json`` file below the
folder, at any depth, is one tool known by its folder and its ``name`` field (the key
``workbench/readLog``). Folders whose name starts with ``.`` are skipped (they belong
to editors and tooling: toolc never makes one, as a module name is an identifier), but
every file is read whatever its name: a tool may be published as ``.hidden``, and a
gate that skipped its golden file would let any change to it pass.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import subprocess
from bisect import bisect_right
from collections.abc import Callable, Mapping
from pathlib import Path, PurePosixPath

from ..untrusted import FILE_BYTES, FileRefused, read_untrusted

# All the golden files of one ref together: far above what the publish bound lets a
# project write (docs/security.md), far below what would exhaust a CI runner.
GIT_TOTAL_BYTES = 4 * FILE_BYTES
from .result import DiffInputError, ToolSet, escape_token


def _visible(relative: PurePosixPath) -> bool:
    """Not inside a hidden folder (the file's own name does not matter)."""
    return not any(part.startswith(".") for part in relative.parts[:-1])


Identity = list[int]  # a file's inode, modification time (ns) and size


def load_folder(path: str | Path, known: ToolSet | None = None,
                read: Mapping[str, tuple[Identity, str]] | None = None) -> ToolSet:
    """Every ``*.json`` below ``path`` (any depth) as one tool, keyed by folder and ``name``.
    ``known``: tools that may be in the folder as they are (a build's new golden files):
    a file with the same text is not parsed again. ``read``: files the caller read a
    moment ago (relative path -> the file's identity then, its text), not read again
    while they are the same file."""
    root = Path(path)
    if not root.exists():
        raise DiffInputError(f"{root}: no such folder")
    if not root.is_dir():
        raise DiffInputError(f"{root}: not a folder")
    tools = ToolSet()
    real_root = os.path.realpath(root)
    for relative in _json_files(root):
        file = os.path.join(root, relative)
        try:
            st = os.lstat(file)
        except OSError:
            continue  # gone since the folder was listed
        if stat.S_ISLNK(st.st_mode):
            if not os.path.isfile(file):
                continue
            # A linked folder is never entered: only a file that is a link itself can
            # lead out of the folder (resolving every path would cost a call per file).
            if not _inside(os.path.realpath(file), real_root):
                raise DiffInputError(f"{root / relative}: a link to {Path(file).resolve()}, "
                                     f"outside {root}; golden files are read only from "
                                     "inside their folder")
        elif not stat.S_ISREG(st.st_mode):
            continue
        elif read is not None and relative in read and \
                read[relative][0] == [st.st_ino, st.st_mtime_ns, st.st_size]:
            tools.add(relative, read[relative][1], str(root / relative), known)
            continue
        try:  # bounded, without waiting on a FIFO; newlines read as text mode reads them
            text = read_untrusted(file, FILE_BYTES, follow=True).decode("utf-8")
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        except UnicodeDecodeError:
            raise DiffInputError(f"{root / relative}: not UTF-8 text") from None
        except FileRefused as exc:
            raise DiffInputError(f"{root / relative}: {exc.why}") from None
        except OSError as exc:
            raise DiffInputError(f"{root / relative}: cannot be read: {exc.strerror}") from None
        tools.add(relative, text, str(root / relative), known)
    return tools


def _json_files(root: Path) -> list[str]:
    """What ``sorted(root.rglob("*.json"))`` names, relative (with ``/``), in its order, in
    no hidden folder: every entry named ``*.json`` (a dotted name too) in every folder
    below ``root``, linked folders not entered (``os.walk`` with pathlib's rules, a
    tenth of its cost)."""
    found: list[tuple[str, ...]] = []
    for folder, folders, names in os.walk(root):  # links to folders are not followed
        rel = os.path.relpath(folder, root)
        parts = () if rel == "." else tuple(rel.split(os.sep))
        folders[:] = [d for d in folders if not d.startswith(".")]  # never visible
        found.extend((*parts, name) for name in names if name.endswith(".json"))
    return ["/".join(parts) for parts in sorted(found)]


def _inside(real: str, real_root: str) -> bool:
    return real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep)


def _git(repo: Path, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", "-C", str(repo), *args], input=stdin,
                              capture_output=True, check=False)
    except FileNotFoundError:
        raise DiffInputError("git is not installed (needed to read golden files "
                             "from a ref)") from None


def head_commit(repo: str | Path = ".") -> str | None:
    """The commit HEAD names when ``repo`` is inside a git repository with one; None when
    it is not, has no commit yet, or git is not installed (the caller says what it used
    instead)."""
    try:
        found = _git(Path(repo), "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
    except DiffInputError:
        return None
    return found.stdout.decode().strip() if found.returncode == 0 else None


def repo_prefix(repo: str | Path = ".") -> str:
    """Where ``repo`` sits in its git repository (``""`` at the top, ``app/`` below it):
    what turns a path relative to the project into one relative to the repository, as
    links on GitHub need; ``""`` outside git."""
    try:
        found = _git(Path(repo), "rev-parse", "--show-prefix")
    except DiffInputError:
        return ""
    return found.stdout.decode(errors="replace").strip() if found.returncode == 0 else ""


def commit_of(ref: str, repo: str | Path = ".") -> str:
    """The commit ``ref`` names in the repository of ``repo``; an unknown ref is an error."""
    repo = Path(repo)
    if ref.startswith("-") or not ref.strip():
        raise DiffInputError(f"{ref!r} is not a git ref")
    found = _git(repo, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    if found.returncode != 0:
        problem = found.stderr.decode(errors="replace").strip()
        if "not a git repository" in problem:
            raise DiffInputError(f"{repo}: not inside a git repository")
        raise DiffInputError(f"unknown git ref {ref!r} in {repo}" +
                             (f": {problem}" if problem else ""))
    return found.stdout.decode().strip()


def git_entry(ref: str, path: str, repo: str | Path) -> tuple[str, str, int] | None:
    """The mode, blob id and size of ``path`` (relative to ``repo``) as committed at
    ``ref``; None when ``ref`` has no such file. DiffInputError when ``ref`` is no commit
    of a repository there (or git is missing)."""
    listing = _git(Path(repo), "ls-tree", "-l", "-z", ref, "--", path)
    if listing.returncode != 0:
        raise DiffInputError(f"{ref} is no commit in {repo}")
    entry = listing.stdout.decode(errors="replace").split("\0")[0]
    if not entry:
        return None
    mode, _kind, sha, size = entry.partition("\t")[0].split()
    return mode, sha, int(size) if size.isdigit() else 0


def git_blob(sha: str, repo: str | Path) -> bytes:
    """A blob's bytes (ask :func:`git_entry` its size first: this reads it all)."""
    blob = _git(Path(repo), "cat-file", "blob", sha)
    if blob.returncode != 0:
        raise DiffInputError(f"blob {sha} cannot be read")
    return blob.stdout


def blob_id(data: bytes) -> str:
    """The id git gives a blob of ``data``: whether a file on disk is the committed one."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def load_git(ref: str, folder: str = "generated/schemas", repo: str | Path = ".") -> ToolSet:
    """The tools below ``folder`` as committed at ``ref``, read without a checkout.

    ``folder`` is relative to ``repo``. A folder that did not exist at ``ref`` cannot be
    compared (an error, never an empty set: every tool would be new and no removal
    seen); so is an unknown ref.
    """
    repo = Path(repo)
    commit = commit_of(ref, repo)
    prefix = folder.strip().strip("/")
    tree = f"{commit}:./{prefix}" if prefix not in ("", ".") else f"{commit}:./"
    object_type = _git(repo, "cat-file", "-t", tree)
    if object_type.returncode != 0:
        raise DiffInputError(f"cannot compare: {ref} has no {prefix or '.'}")
    if object_type.stdout.strip() != b"tree":
        raise DiffInputError(f"cannot compare: {ref}:{prefix} is not a folder")
    # --full-tree: from a subfolder of the worktree, ls-tree would otherwise list only the
    # entries under that subfolder's own path inside the tree given.
    listing = _git(repo, "ls-tree", "--full-tree", "-r", "-l", "-z", tree)
    if listing.returncode != 0:
        raise DiffInputError(f"cannot list {folder} at {ref}: "
                             f"{listing.stderr.decode(errors='replace').strip()}")
    blobs: list[tuple[str, str]] = []
    total = 0
    for entry in listing.stdout.decode("utf-8", errors="surrogateescape").split("\0"):
        if not entry:
            continue
        meta, _, path = entry.partition("\t")
        _mode, kind, sha, size = meta.split()
        if kind == "blob" and path.endswith(".json") and _visible(PurePosixPath(path)):
            total += _bounded_blob(f"{ref}:{PurePosixPath(prefix, path)}", int(size), total)
            blobs.append((path, sha))
    tools = ToolSet()
    for (path, _sha), data in zip(sorted(blobs), _read_blobs(repo, sorted(blobs)), strict=True):
        label = f"{ref}:{PurePosixPath(prefix, path) if prefix not in ('', '.') else path}"
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise DiffInputError(f"{label}: not UTF-8 text") from None
        tools.add(path, text, label)
    return tools


def _bounded_blob(label: str, size: int, total: int) -> int:
    """``size``, when a committed golden file of that size may be read: each at most
    FILE_BYTES, as on disk, and all of them together at most GIT_TOTAL_BYTES (a ref is
    read whole into memory, and it can come from the pull request: ``toolc diff``
    compares with HEAD)."""
    if size > FILE_BYTES:
        raise DiffInputError(f"{label}: is larger than {FILE_BYTES >> 20} MiB; a golden "
                             "file that large is not read")
    if total + size > GIT_TOTAL_BYTES:
        raise DiffInputError(f"{label}: the golden files at that ref are larger than "
                             f"{GIT_TOTAL_BYTES >> 20} MiB together; they are not read")
    return size


def _read_blobs(repo: Path, blobs: list[tuple[str, str]]) -> list[bytes]:
    """All blobs in one ``git cat-file --batch`` call: one process, however many tools."""
    if not blobs:
        return []
    request = "".join(f"{sha}\n" for _path, sha in blobs).encode()
    answer = _git(repo, "cat-file", "--batch", stdin=request)
    if answer.returncode != 0:
        raise DiffInputError(f"git cat-file failed: {answer.stderr.decode(errors='replace')}")
    out, pos, result = answer.stdout, 0, []
    for _ in blobs:
        header_end = out.index(b"\n", pos)
        size = int(out[pos:header_end].split()[2])
        result.append(out[header_end + 1:header_end + 1 + size])
        pos = header_end + 1 + size + 1
    return result


# -- lines of JSON pointers ------------------------------------------------------------

# The decoder's own string scanner (C-accelerated); typeshed does not declare it.
_scanstring: Callable[[str, int], tuple[str, int]] = (
    json.decoder.scanstring  # type: ignore[attr-defined]
)
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?")
_SPACE = re.compile(r"[ \t\r\n]*")


def pointer_lines(text: str) -> dict[str, int]:
    """The 1-based line of every JSON pointer in ``text``: a member's key, an item's start."""
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    lines: dict[str, int] = {}

    def line(pos: int) -> int:
        return bisect_right(starts, pos)

    def value(pos: int, pointer: str) -> int:
        pos = _SPACE.match(text, pos).end()  # type: ignore[union-attr]
        lines.setdefault(pointer, line(pos))
        char = text[pos]
        if char in "{[":
            close, index = "}" if char == "{" else "]", 0
            pos = _SPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
            while text[pos] != close:
                if char == "{":
                    key, after = _scanstring(text, pos + 1)
                    child = f"{pointer}/{escape_token(key)}"
                    lines.setdefault(child, line(pos))
                    pos = _SPACE.match(text, after).end()  # type: ignore[union-attr]
                    pos = value(pos + 1, child)  # past the ':'
                else:
                    pos = value(pos, f"{pointer}/{index}")
                    index += 1
                pos = _SPACE.match(text, pos).end()  # type: ignore[union-attr]
                if text[pos] == ",":
                    pos = _SPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
            return pos + 1
        if char == '"':
            _, end = _scanstring(text, pos + 1)
            return end
        for word in ("true", "false", "null"):
            if text.startswith(word, pos):
                return pos + len(word)
        match = _NUMBER.match(text, pos)
        if match is None:
            raise ValueError(f"unexpected {char!r} at {pos}")
        return match.end()

    try:
        value(0, "")
    except (ValueError, IndexError, RecursionError):
        return lines  # what was found before the text stopped being JSON
    return lines


def line_of(text: str, pointer: str, lines: dict[str, int] | None = None) -> int | None:
    """The line of ``pointer``, or of its nearest ancestor present in ``text``."""
    known = pointer_lines(text) if lines is None else lines
    while True:
        if pointer in known:
            return known[pointer]
        if not pointer:
            return None
        pointer = pointer[:pointer.rindex("/")]
