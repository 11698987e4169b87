"""The package's strict mypy check, started as soon as the tests are collected.

On a cold cache (a fresh clone) mypy checks pydantic, the mcp SDK, the standard library's
stubs and toolc from scratch: the longest single step of the suite, and the tests that
run mypy share one cache (conftest's ``mypy_cache``), so the first of them paid for it
while the rest of the suite waited. Started when collection ends (if
``test_mypy_strict_is_clean`` is among the tests), the check runs beside the tests that
wait on servers and subprocesses. The first test that asks for the strict cache waits for
it to end, so two mypy runs never write one cache at once, and the gate reads its result.

The check runs as a grandchild of pytest (a runner that forks and leaves): tests hold
that pytest is left with no child process. A pipe tells its end: mypy's pid first, then
its exit status.
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from mypy_cache_support import session_cache

# The runner: forks and leaves; the fork starts mypy, says its pid, then its status.
_RUNNER = """\
import os, subprocess, sys
told = int(sys.argv[1])
if os.fork():
    os._exit(0)
with open(sys.argv[2], "wb") as out:
    mypy = subprocess.Popen(sys.argv[3:], stdout=out, stderr=subprocess.STDOUT)
    os.write(told, b"%d\\n" % mypy.pid)
    os.write(told, b"%d\\n" % mypy.wait())
"""
# Generous: the bound only turns a hung mypy into a failure instead of a hung suite.
LONGEST_S = 1200


class MypyRun:
    """One mypy command running in the background; :meth:`result` waits for its end."""

    def __init__(self, command: list[str], cwd: Path, output: Path) -> None:
        self.output = output
        read, write = os.pipe()
        subprocess.run([sys.executable, "-c", _RUNNER, str(write), str(output), *command],
                       cwd=cwd, pass_fds=(write,), check=True)
        os.close(write)
        self._told = os.fdopen(read, "rb")
        self._pid = int(self._told.readline() or 0)
        self._status: int | None = None

    def wait(self) -> int:
        """mypy's exit status (-1: its runner ended without saying it)."""
        if self._status is None:
            try:
                self._status = self._told_status()
            except TimeoutError:
                self.stop()
                raise
        return self._status

    def result(self) -> tuple[int, str]:
        status = self.wait()
        return status, self.output.read_text(errors="replace")

    def stop(self) -> None:
        """End the run if it is still going (a session stopped early), and wait for it."""
        if self._status is None:
            self._status = -1
            with contextlib.suppress(ProcessLookupError):
                if self._pid:
                    os.kill(self._pid, signal.SIGTERM)
            with contextlib.suppress(TimeoutError, ValueError):
                self._told_status()

    def _told_status(self) -> int:
        ready, _, _ = select.select([self._told], [], [], LONGEST_S)
        if not ready:
            raise TimeoutError(f"mypy ran longer than {LONGEST_S} s")
        line = self._told.readline()
        self._told.close()
        return int(line) if line.strip() else -1


def strict_command(mypy: str, cache: Path) -> list[str]:
    """The gate: mypy --strict (pyproject's configuration) over the package and examples."""
    return [mypy, "--cache-dir", str(cache), "compiler/toolc", "examples"]


class StrictAhead:
    """The session's strict cache (kept between runs, as conftest's others) with the gate
    already running on it: :attr:`cache` may be used once :meth:`wait` has returned."""

    def __init__(self, root: Path, mypy: str) -> None:
        self._home = Path(tempfile.mkdtemp(prefix="toolc-tests-mypy-"))
        self._kept = contextlib.ExitStack()
        folder = self._home / "cache"
        folder.mkdir()
        self.cache = self._kept.enter_context(session_cache(root, folder, "strict"))
        self.run = MypyRun(strict_command(mypy, self.cache), root, self._home / "mypy.out")

    def wait(self) -> Path:
        self.run.wait()
        return self.cache

    def close(self) -> None:
        self.run.stop()
        self._kept.close()  # (the cache kept for the next run)
        shutil.rmtree(self._home, ignore_errors=True)
