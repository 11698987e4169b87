"""The mypy cache the suite's mypy runs share, kept between runs outside the repository.

A cold cache makes mypy check pydantic, the standard library's stubs and toolc itself from
scratch on every run; a cache kept from the last run of the same checkout makes a run
check only what changed. It is kept under the user's cache folder (``$XDG_CACHE_HOME`` or
``~/.cache``), in a folder named by a hash of the checkout's absolute root, the Python
version and mypy's version: two clones never share one, and a new Python or mypy starts
afresh (mypy's own checks would refuse the old entries anyway).

A session never runs mypy on the kept cache itself. mypy's default cache is one SQLite
file written with ``synchronous=OFF`` and without WAL, so two suites of one checkout
writing it at once could leave it locked or half-written. Instead a session copies the
kept cache into its own temporary folder (under a shared lock) and, when it ends, copies
its own back beside it and swaps it in under an exclusive lock, by renames: a reader sees
the old cache or the new one, whole, never a mix. The last session to end wins, and any
session's cache is as good as another's: mypy validates every entry against the source
(size, mtime, hash, options) before it believes it.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import sys
import uuid
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path

CURRENT = "current"


def kept_cache_home(root: Path, flavour: str, environ: dict[str, str] | None = None) -> Path:
    """The folder that keeps the ``flavour`` cache of the checkout at ``root`` between
    runs. (mypy keeps each module's entry for one set of options: runs with other options,
    such as ``--strict`` and a project's own configuration, take caches of their own
    rather than overwrite each other's entries for pydantic and the standard library.)"""
    env = os.environ if environ is None else environ
    base = Path(env.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    key = "\0".join([str(root.resolve()), sys.version, version("mypy")])
    checkout = f"mypy-{hashlib.sha256(key.encode()).hexdigest()[:16]}"
    return base / "toolc-tests" / checkout / flavour


@contextlib.contextmanager
def _locked(home: Path, kind: int) -> Iterator[None]:
    home.mkdir(parents=True, exist_ok=True)
    with open(home / "lock", "a+b") as lock:
        fcntl.flock(lock, kind)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def take(home: Path, into: Path) -> None:
    """Copy the kept cache into ``into`` (an empty folder), if there is one to copy."""
    with _locked(home, fcntl.LOCK_SH):
        if (home / CURRENT).is_dir():
            shutil.copytree(home / CURRENT, into, dirs_exist_ok=True, symlinks=True)


def keep(home: Path, cache: Path) -> None:
    """Make ``cache`` the kept cache: copied beside the old one first, swapped in whole."""
    if not cache.is_dir() or not any(cache.iterdir()):
        return
    unique = f"{os.getpid()}-{uuid.uuid4().hex}"
    incoming, retired = home / f"incoming-{unique}", home / f"retired-{unique}"
    home.mkdir(parents=True, exist_ok=True)
    try:
        shutil.copytree(cache, incoming, symlinks=True)
        with _locked(home, fcntl.LOCK_EX):
            if (home / CURRENT).exists():
                (home / CURRENT).rename(retired)
            incoming.rename(home / CURRENT)
    finally:
        shutil.rmtree(incoming, ignore_errors=True)
        shutil.rmtree(retired, ignore_errors=True)


@contextlib.contextmanager
def session_cache(root: Path, cache: Path, flavour: str) -> Iterator[Path]:
    """``cache`` (an empty folder of the session) filled from the kept ``flavour`` cache
    of ``root``, and kept when the session ends. Where the user's cache folder cannot be
    written the session runs on a cold cache, as if nothing had been kept."""
    home = kept_cache_home(root, flavour)
    with contextlib.suppress(OSError):
        take(home, cache)
    yield cache
    with contextlib.suppress(OSError):
        keep(home, cache)
