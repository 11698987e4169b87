"""Files made durable: new files, fsynced writes and folders, and signals held while the
renames of a commit run."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path


def write_new_file(path: Path, data: bytes, flags: int = 0) -> None:
    """A new file holding ``data`` (bytes: no newline translation on any platform)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | flags, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def replace_file(path: Path, data: bytes) -> None:
    """``path`` holding ``data``, through a fresh file in its folder renamed over it: a
    link planted at ``path`` is replaced, never written through (nor a file it names)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}-{os.urandom(4).hex()}.tmp")
    write_new_file(tmp, data, os.O_NOFOLLOW if hasattr(os, "O_NOFOLLOW") else 0)
    try:
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise


def sync_files(staging: Path, names: list[str]) -> None:
    """Make the staged files durable before the journal names them.

    One fsync per file adds up over a thousand files (bench/RESULTS.md, "Costs behind the
    code"); Linux's syncfs flushes the whole file system in one call. Elsewhere (or if it fails) each file is fsynced.
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
        # lazy: ctypes, only when this runs
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
    fsync_dir(path.parent)


def fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


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
