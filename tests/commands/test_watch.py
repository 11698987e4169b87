"""`toolc build --watch` as a real process on a project: edits, a broken spec, Ctrl-C."""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path

from serve_support import SPEC, ctrl_c_by_default, make_project, toolc_cmd
from toolc.commands.watch import InputFilter, describe
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
