"""toolc.untrusted: a file from the checkout is read only as a regular file, bounded, and
through a link only when the caller follows links on purpose."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from toolc.untrusted import FileRefused, read_untrusted


def refused(path: Path, limit: int = 100, *, follow: bool = False) -> FileRefused:
    with pytest.raises(FileRefused) as exc:
        read_untrusted(path, limit, follow=follow)
    return exc.value


def test_a_regular_file_is_read_up_to_its_limit(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"x" * 100)
    assert read_untrusted(tmp_path / "f", 100) == b"x" * 100
    (tmp_path / "f").write_bytes(b"x" * 101)
    found = refused(tmp_path / "f")
    assert (found.kind, found.why) == ("large", "is larger than 100 bytes")


def test_a_large_file_is_refused_without_being_read(tmp_path: Path) -> None:
    """A sparse file of 4 GiB: read whole, it would take 4 GiB of memory."""
    with open(tmp_path / "big", "wb") as f:
        f.truncate(4 << 30)
    found = refused(tmp_path / "big", 64 * 1024 * 1024)
    assert (found.kind, found.why) == ("large", "is larger than 64 MiB")


def test_a_link_is_refused_unless_followed(tmp_path: Path) -> None:
    (tmp_path / "real").write_bytes(b"data")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert (refused(tmp_path / "link").kind, refused(tmp_path / "link").why) == (
        "link", "is a symbolic link")
    assert read_untrusted(tmp_path / "link", 100, follow=True) == b"data"
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    assert refused(tmp_path / "dangling").kind == "link"


def test_a_device_is_refused_unread_even_through_a_followed_link(tmp_path: Path) -> None:
    (tmp_path / "zero").symlink_to("/dev/zero")
    found = refused(tmp_path / "zero", follow=True)
    assert (found.kind, found.why) == ("irregular", "is a device, not a regular file")
    assert refused(tmp_path).why == "is a folder, not a regular file"


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    found: list[BaseException] = []

    def read() -> None:
        try:
            read_untrusted(fifo, 100, follow=True)
        except BaseException as exc:  # noqa: BLE001  # what the reading thread ended with
            found.append(exc)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout=120)  # only a bound so that a blocking read fails, not hangs
    if reader.is_alive():
        with open(fifo, "wb"):  # let the blocked reader go
            pass
        pytest.fail("read_untrusted waited for a writer of the FIFO")
    assert [(type(e), getattr(e, "why", None)) for e in found] == [
        (FileRefused, "is a FIFO, not a regular file")]


def test_a_missing_file_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_untrusted(tmp_path / "absent", 100)
