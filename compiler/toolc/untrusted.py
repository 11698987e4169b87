"""Reading a file that may come from a pull request: a regular file, bounded, no link.

Everything a build reads can come from the checkout: specs, schema files, handler
modules, ``pyproject.toml``, the output folder (the manifest, the journal, the files read
back) and toolc's records in ``.toolc-cache/``. A link there may lead to ``/dev/zero``
(a read without end) or ``/proc/self/environ``; a FIFO would hold the build until some
writer came; a file of gigabytes would be read whole. So each of those reads goes
through :func:`read_untrusted`: the file is opened without following a link (unless
the caller follows links on purpose) and without waiting (``O_NONBLOCK``: opening a FIFO
returns at once), checked by ``fstat`` to be a regular file, and read to at most its
limit + 1 bytes; more is refused, not cut. What is refused is a :class:`FileRefused`
whose ``why`` completes a sentence naming the file.

The bounds of the files toolc wrote and reads back are here too: a record (JSON:
``.toolc-cache/*``, the manifest, the journal) and any other file it reads whole to
compare or reuse.
"""

from __future__ import annotations

import errno
import os
import stat
from typing import Literal

# Records of 10,000 tools take 1.7 MB (``components.json``) and the 5,000,000 schema
# nodes a project may publish about 100,000 tools: this leaves three times that.
RECORD_BYTES = 64 * 1024 * 1024
# Any other file toolc reads whole to compare or reuse it: a generated module or golden
# file read back, a file a record names with its hash.
FILE_BYTES = 256 * 1024 * 1024

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


class FileRefused(Exception):
    """A file toolc does not read: ``why`` says it (``is a symbolic link``, ...)."""

    def __init__(self, path: str | os.PathLike[str], why: str,
                 kind: Literal["link", "irregular", "large"]) -> None:
        super().__init__(f"{os.fspath(path)} {why}")
        self.path, self.why, self.kind = os.fspath(path), why, kind


def read_untrusted(path: str | os.PathLike[str], limit: int, *, follow: bool = False) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    ``follow``: a link at ``path`` is followed (a file the user named, or installed
    code); otherwise it is refused. Raises :class:`FileRefused` for a link, anything but
    a regular file, or a file over ``limit``; ``OSError`` when the file cannot be opened
    or read (``FileNotFoundError`` when there is none).
    """
    flags = os.O_RDONLY | _NONBLOCK | _CLOEXEC | (0 if follow else _NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        # O_NOFOLLOW fails with ELOOP on a link (EMLINK on FreeBSD).
        if not follow and exc.errno in (errno.ELOOP, errno.EMLINK) and os.path.islink(path):
            raise FileRefused(path, "is a symbolic link", "link") from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            what = next((name for test, name in _KINDS if test(st.st_mode)), "not a plain file")
            raise FileRefused(path, f"is {what}, not a regular file", "irregular")
        if st.st_size > limit:  # not read at all (and one growing meanwhile stops below)
            raise FileRefused(path, f"is larger than {_size(limit)}", "large")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(limit + 1 - size, 1 << 24))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > limit:
        raise FileRefused(path, f"is larger than {_size(limit)}", "large")
    return b"".join(chunks)


def _size(limit: int) -> str:
    mib = 1024 * 1024
    return f"{limit // mib} MiB" if limit >= mib and limit % mib == 0 else f"{limit:,} bytes"
