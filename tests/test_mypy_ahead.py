"""The background run the strict mypy gate starts ahead: its status and output come back
whole, it is never a child of pytest, and a session that ends early ends it."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from mypy_ahead import MypyRun


def test_a_run_gives_back_its_status_and_all_its_output(tmp_path: Path) -> None:
    script = "import sys; print('x' * 200_000); sys.exit(3)"  # (more than a pipe holds)
    run = MypyRun([sys.executable, "-c", script], tmp_path, tmp_path / "out")
    status, output = run.result()
    assert (status, output) == (3, "x" * 200_000 + "\n")


def test_a_run_is_no_child_of_this_process_and_stops_when_asked(tmp_path: Path) -> None:
    run = MypyRun([sys.executable, "-c", "import time; time.sleep(600)"], tmp_path,
                  tmp_path / "out")
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)
    run.stop()
    assert run.wait() == -1
