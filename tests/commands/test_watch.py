"""`toolc build --watch` as a real process on a project: edits, a broken spec, Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

from forkserver_support import ctrl_c_by_default
from serve_support import SPEC, make_project, toolc_cmd
from toolc.commands.watch import InputFilter, Watcher, describe
from toolc.config import load_config

PATIENCE_S = 120.0  # a bound on waiting, never a verdict on speed


class Watched:
    """The watching process; its output goes to a file (read by offset, never a pipe
    nobody drains)."""

    def __init__(self, project: Path) -> None:
        self.log = project / "watch.out"
        with self.log.open("w") as out:
            self.proc = subprocess.Popen(toolc_cmd("build", "--watch", "--no-certify"),
                                         cwd=project, stdout=out,
                                         stderr=subprocess.STDOUT, text=True,
                                         preexec_fn=ctrl_c_by_default)  # noqa: PLW1509  # one signal reset
        self.seen = 0

    def wait_for(self, *needles: str) -> str:
        """The output after what earlier waits consumed, up to the line with every needle."""
        deadline = time.monotonic() + PATIENCE_S
        while time.monotonic() < deadline:
            text = self.log.read_text()[self.seen:]
            for line_end in _line_ends(text):
                if all(n in text[:line_end] for n in needles):
                    self.seen += line_end
                    return text[:line_end]
            assert self.proc.poll() is None, f"watch ended early:\n{self.log.read_text()}"
            time.sleep(0.05)
        raise AssertionError(f"no {needles} in:\n{self.log.read_text()}")


def _line_ends(text: str) -> list[int]:
    return [i + 1 for i, c in enumerate(text) if c == "\n"]


def _edit(path: Path, text: str) -> None:
    path.write_text(text)


def test_watch_rebuilds_on_saves_survives_a_broken_spec_and_ends_on_ctrl_c(
        tmp_path: Path) -> None:
    project = make_project(tmp_path)
    spec = project / "specs" / "desk.toolc.yaml"
    watched = Watched(project)
    try:
        watched.wait_for("--- ", " build ---")
        watched.wait_for("watching")
        assert (project / "generated" / "desk.py").is_file()

        added = SPEC + ("  ping:\n    description: Answer pong.\n"
                        "    handler: desk_app:echo\n"
                        "    params:\n      text: {type: string, description: Said.}\n")
        _edit(spec, added)
        watched.wait_for("rebuild: specs/desk.toolc.yaml")
        report = watched.wait_for("ping")  # the classified change names the new tool
        assert "ping" in report
        for _ in range(2400):  # the report line comes before the files are all read back
            if "PingParams" in (project / "generated" / "desk.py").read_text():
                break
            time.sleep(0.05)
        assert "PingParams" in (project / "generated" / "desk.py").read_text()

        _edit(spec, added.replace("tools:", "tools: [", 1))  # a YAML error mid-edit
        watched.wait_for("rebuild: specs/desk.toolc.yaml")
        broken = watched.wait_for("desk.toolc.yaml:")  # the diagnostic, located
        assert "error" in broken.lower()
        assert watched.proc.poll() is None  # still watching

        _edit(spec, SPEC)
        watched.wait_for("rebuild: specs/desk.toolc.yaml")
        watched.wait_for("ping")  # the tool's removal, reported
        for _ in range(2400):
            if "PingParams" not in (project / "generated" / "desk.py").read_text():
                break
            time.sleep(0.05)
        assert "PingParams" not in (project / "generated" / "desk.py").read_text()

        watched.proc.send_signal(signal.SIGINT)
        assert watched.proc.wait(timeout=PATIENCE_S) == 0
        assert "watch: stopped" in watched.log.read_text()
        assert "Traceback" not in watched.log.read_text()
    finally:
        if watched.proc.poll() is None:
            watched.proc.kill()
            watched.proc.wait(timeout=30)


def test_inputs_are_specs_handlers_and_pyproject_never_the_output(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    keep = InputFilter(load_config(project))
    assert keep.is_input(project / "specs" / "desk.toolc.yaml")
    assert keep.is_input(project / "specs" / "shared.schema.json")  # a $ref'd schema
    assert keep.is_input(project / "desk_app.py")
    assert keep.is_input(project / "pyproject.toml")
    assert not keep.is_input(project / "generated" / "desk.py")
    assert not keep.is_input(project / "generated" / "desk.tools.json")
    assert not keep.is_input(project / ".toolc-cache" / "build.json")
    assert not keep.is_input(project / "__pycache__" / "desk_app.cpython-311.pyc")
    assert not keep.is_input(project / "notes.txt")


def test_the_separator_names_what_changed(tmp_path: Path) -> None:
    changes = {(2, str(tmp_path / f"specs/s{i}.toolc.yaml")) for i in range(5)}
    shown = describe(changes, tmp_path)
    assert shown.startswith("specs/s0.toolc.yaml modified, specs/s1.toolc.yaml modified")
    assert shown.endswith("(+2 more)")


def _queued(watcher: Watcher) -> set[str]:
    """The paths in the batches the watcher has gathered and nobody has taken yet."""
    with watcher.batches.mutex:  # the watcher's thread adds to it meanwhile
        batches = list(watcher.batches.queue)
    return {name for batch in batches for _, name in batch}


def _until(done: Any, what: str) -> None:
    deadline = time.monotonic() + PATIENCE_S  # a bound on waiting, never a verdict
    while not done():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def _close(watcher: Watcher) -> None:
    """Closed, its thread ended: a later test's build may fork only without it."""
    watcher.close()
    watcher.thread.join(PATIENCE_S)
    assert not watcher.thread.is_alive()


def _changed(changes: set[tuple[Any, str]]) -> set[tuple[str, Path]]:
    return {(change.name, Path(name)) for change, name in changes}


def test_a_save_made_as_soon_as_the_watcher_is_made_is_seen(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    spec = project / "specs" / "desk.toolc.yaml"
    watcher = Watcher(load_config(project))  # watching once made
    try:
        spec.write_text(SPEC + "# edited\n")
        _until(lambda: not watcher.batches.empty(), "the save was missed")
        assert _changed(watcher.next_changes()) == {("modified", spec.resolve())}
    finally:
        _close(watcher)


def test_a_save_through_a_temporary_file_is_one_change_of_the_spec(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    spec = project / "specs" / "desk.toolc.yaml"
    watcher = Watcher(load_config(project))
    try:
        temporary = spec.with_name(spec.name + ".tmp")  # as editors' safe writes do
        temporary.write_text(SPEC + "# edited\n")
        os.replace(temporary, spec)
        _until(lambda: str(spec.resolve()) in _queued(watcher), "the save was never seen")
        # One change, of the spec: the temporary file is no input.
        assert _changed(watcher.next_changes()) == {("added", spec.resolve())}
    finally:
        _close(watcher)


def test_saves_made_while_a_build_runs_come_as_one_next_build(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    spec, handlers = project / "specs" / "desk.toolc.yaml", project / "desk_app.py"
    watcher = Watcher(load_config(project))
    try:
        # While a build runs nobody takes what is gathered: two saves, each its own batch.
        spec.write_text(SPEC + "# edited\n")
        _until(lambda: str(spec.resolve()) in _queued(watcher), "the first save was never seen")
        handlers.write_text(handlers.read_text() + "# edited\n")
        _until(lambda: str(handlers.resolve()) in _queued(watcher),
               "the second save was never seen")
        changes = watcher.next_changes()  # the next build: both, at once
        assert _changed(changes) == {("modified", spec.resolve()),
                                     ("modified", handlers.resolve())}
    finally:
        _close(watcher)
