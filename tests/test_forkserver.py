"""The forkserver's commands behave as ``python ARGS`` would: streams, folder, environment,
``sys.path``, exit codes, signals both ways, and a fresh python where a fork would differ."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from forkserver_support import python_cmd

SHOW = textwrap.dedent("""\
    import json, os, sys
    print(json.dumps({"argv": sys.argv, "cwd": os.getcwd(), "path0": sys.path[0],
                      "marker": os.environ.get("MARKER"), "pid": os.getpid(),
                      "stdin": sys.stdin.read(), "extra": sys.path[1]}))
    print("to stderr", file=sys.stderr)
""")


def forked() -> bool:
    return "-S" in python_cmd()


def both(*args: str, **kwargs: object) -> tuple[subprocess.CompletedProcess[str], ...]:
    """The same command through the forkserver and through a fresh python."""
    return tuple(subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False,
                                **kwargs)
                 for cmd in (python_cmd(*args), [sys.executable, *args]))


def test_a_script_sees_what_python_would_give_it(tmp_path: Path) -> None:
    (tmp_path / "show.py").write_text(SHOW)
    env = dict(os.environ, MARKER="m", PYTHONPATH=str(tmp_path / "extra"))
    runs = both("show.py", "a", "b c", cwd=tmp_path, env=env, input="given")
    seen = [json.loads(run.stdout) for run in runs]
    for run, shown in zip(runs, seen, strict=True):
        assert run.returncode == 0, run.stderr
        assert run.stderr == "to stderr\n"
        assert shown.pop("pid") > 0
    assert seen[0] == seen[1] == {
        "argv": ["show.py", "a", "b c"], "cwd": str(tmp_path), "path0": str(tmp_path),
        "marker": "m", "stdin": "given", "extra": str(tmp_path / "extra")}


def test_a_module_runs_as_main_with_the_folder_first_on_its_path(tmp_path: Path) -> None:
    (tmp_path / "here_only.py").write_text(
        "import sys\nprint(__name__, sys.argv[1:], sys.path[0])\nraise SystemExit(7)\n")
    forked_run, fresh = both("-m", "here_only", "x", cwd=tmp_path)
    assert forked_run.returncode == fresh.returncode == 7
    assert forked_run.stdout == fresh.stdout == f"__main__ ['x'] {tmp_path}\n"


def test_an_uncaught_exception_prints_its_traceback_and_exits_1(tmp_path: Path) -> None:
    (tmp_path / "fail.py").write_text("raise ValueError('plain')\n")
    for run in both("fail.py", cwd=tmp_path):
        assert run.returncode == 1
        assert run.stderr.rstrip().endswith("ValueError: plain")
        assert "Traceback" in run.stderr


def test_a_message_given_to_exit_goes_to_stderr(tmp_path: Path) -> None:
    for run in both("msg.py", cwd=_write(tmp_path, "msg.py", "raise SystemExit('bye')\n")):
        assert (run.returncode, run.stderr) == (1, "bye\n")


@pytest.mark.parametrize("unbuffered", ["", "1"])
def test_what_is_printed_before_a_quick_exit_is_as_buffered_as_in_python(
        tmp_path: Path, unbuffered: str) -> None:
    _write(tmp_path, "quick.py", "import os, sys\nprint('out')\nsys.stderr.write('err')\n"
                                 "os._exit(3)\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if unbuffered:
        env["PYTHONUNBUFFERED"] = unbuffered
    forked_run, fresh = both("quick.py", cwd=tmp_path, env=env)
    assert (forked_run.returncode, forked_run.stdout, forked_run.stderr) == (
        fresh.returncode, fresh.stdout, fresh.stderr) == (
        3, "out\n" if unbuffered else "", "err" if unbuffered else "")


def test_a_signal_sent_to_the_command_reaches_the_worker_and_its_end_is_shown(
        tmp_path: Path) -> None:
    proc = _handling(tmp_path, signal.SIGTERM, 42)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 42
    proc = subprocess.Popen(python_cmd("-c", "import time; print('up', flush=True); "
                                       "time.sleep(60)"), stdout=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdout.readline() == b"up\n"
    proc.send_signal(signal.SIGUSR1)  # (python's default for it: killed by it)
    assert proc.wait(timeout=30) == -signal.SIGUSR1


def test_limits_and_ignored_signals_set_before_the_start_are_kept(tmp_path: Path) -> None:
    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    _write(tmp_path, "limits.py", "import resource, signal\n"
                                  "print(resource.getrlimit(resource.RLIMIT_FSIZE),\n"
                                  "      signal.getsignal(signal.SIGINT) == signal.SIG_IGN)\n")
    forked_run, fresh = both("limits.py", cwd=tmp_path,
                             preexec_fn=limited)  # the limits under test
    assert forked_run.stdout == fresh.stdout == "(4096, 4096) True\n"


def test_a_signal_ignored_at_the_start_reaches_a_program_that_handles_it(
        tmp_path: Path) -> None:
    """(as when the suite itself runs in the background of a shell: SIGINT ignored)"""
    proc = _handling(tmp_path, signal.SIGINT, 5, preexec_fn=lambda: signal.signal(
        signal.SIGINT, signal.SIG_IGN))
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=30) == 5


@pytest.mark.skipif("not forked()", reason="the forkserver is turned off")
def test_a_killed_command_takes_its_worker_with_it(tmp_path: Path) -> None:
    _write(tmp_path, "pid.py", "import os, time\nprint(os.getpid(), flush=True)\n"
                               "time.sleep(60)\n")
    proc = subprocess.Popen(python_cmd("pid.py"), cwd=tmp_path, stdout=subprocess.PIPE)
    assert proc.stdout is not None
    worker = int(proc.stdout.readline())
    assert worker != proc.pid
    proc.kill()
    proc.wait(timeout=30)
    deadline = time.monotonic() + 30
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(worker)


@pytest.mark.skipif("not forked()", reason="the forkserver is turned off")
def test_a_python_setting_read_at_start_up_gets_a_fresh_python(tmp_path: Path) -> None:
    show = "import os, sys; print(os.getpid(), sys.flags.hash_randomization)"
    proc = subprocess.Popen(python_cmd("-c", show), stdout=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONHASHSEED="0"))
    out, _ = proc.communicate(timeout=60)
    # a fresh python is the launcher itself, exec'd: the same pid, hashing unrandomised
    assert out.split() == [str(proc.pid), "0"]


def _handling(folder: Path, signum: int, code: int,
              **popen: Any) -> subprocess.Popen[bytes]:
    """A command that exits ``code`` on ``signum``, started and waiting for it."""
    _write(folder, "handles.py", textwrap.dedent(f"""\
        import signal, sys, time
        signal.signal({int(signum)}, lambda *a: sys.exit({code}))
        print("waiting", flush=True)
        for _ in range(1200):  # (a signal landing before a sleep starts waits it out)
            time.sleep(0.05)
    """))
    proc = subprocess.Popen(python_cmd("handles.py"), cwd=folder, stdout=subprocess.PIPE,
                            **popen)
    assert proc.stdout is not None and proc.stdout.readline() == b"waiting\n"
    return proc


def _write(folder: Path, name: str, text: str) -> Path:
    (folder / name).write_text(text)
    return folder


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1][0] != "Z"
    except FileNotFoundError:
        return False
