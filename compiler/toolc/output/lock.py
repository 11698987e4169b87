"""One writing build of a project at a time: a lock in ``.toolc-cache/``.

Two builds writing the same output at once would sweep each other's staging folder and
replay each other's journal. So a writing build holds an exclusive ``flock`` on
``.toolc-cache/build.lock`` (beside pyproject.toml, not in the committed output) for
its whole run; a second one says that another build is running, with its process id,
and waits for it to finish (then finds its work done, or does the rest). The lock is
the kernel's: a build that dies, even by kill -9, releases it. Checking builds,
``validate`` and ``diff`` write nothing and take no lock.

On a system without ``fcntl`` (Windows) builds are not serialised.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

from .confine import refused, write_failed

CACHE_DIR = ".toolc-cache"
LOCK_FILE = "build.lock"
_held: list[int] = []  # the lock's descriptor while a build holds it


def _close_in_child() -> None:
    """A forked certifier or writer must not keep the lock after the build ends: closing
    its copy of the descriptor (never LOCK_UN, which would release the build's) does."""
    for fd in _held:
        with contextlib.suppress(OSError):
            os.close(fd)
    _held.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_close_in_child)


def cache_folder(root: Path, *, create: bool) -> Path | None:
    """``root/.toolc-cache`` if it is a real folder (made when ``create``); None if it
    is absent. A link there is refused: what toolc writes in it would land elsewhere."""
    folder = root / CACHE_DIR
    try:
        mode = os.lstat(folder).st_mode
    except FileNotFoundError:
        if not create:
            return None
        try:
            folder.mkdir()
        except FileExistsError:
            pass
        except OSError as exc:
            raise write_failed(folder, exc, "cannot make the cache folder") from None
        mode = os.lstat(folder).st_mode
    if stat.S_ISLNK(mode) or not stat.S_ISDIR(mode):
        raise refused(folder, "is not a plain folder (a link?): toolc writes nothing "
                      "through a link")
    return folder


@contextlib.contextmanager
def build_lock(root: Path, waiting: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the project's build lock; ``waiting`` is told when another build has it."""
    try:
        # lazy: fcntl, only when this runs
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    folder = cache_folder(root, create=True)
    assert folder is not None
    path = folder / LOCK_FILE
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
    except OSError as exc:
        raise write_failed(path, exc, "cannot open the build lock") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if waiting is not None:
                waiting(f"another toolc build of this project is running{_holder(fd)}; "
                        "waiting for it to finish")
            fcntl.flock(fd, fcntl.LOCK_EX)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        _held.append(fd)
        yield
    finally:
        if fd in _held:
            _held.remove(fd)
        os.close(fd)  # releases the lock


def _holder(fd: int) -> str:
    with contextlib.suppress(OSError, ValueError):
        pid = int(os.pread(fd, 32, 0).decode().strip())
        return f" (process {pid})"
    return ""
