"""For tests of what toolc does in a forked process: a process forks only while it has no
other thread (``toolc.output.staging.can_fork``), and an earlier test may have left an
idle worker thread that ends by itself (anyio's end after 10 s idle)."""

from __future__ import annotations

import threading
import time


def wait_until_single_threaded(patience_s: float = 300.0) -> None:
    """Wait for the other threads of this process to end; fail, naming them, if any stays."""
    deadline = time.monotonic() + patience_s
    while threading.active_count() > 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    others = [t.name for t in threading.enumerate() if t is not threading.main_thread()]
    assert not others, f"threads left running keep this process from forking: {others}"
