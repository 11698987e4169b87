"""The certifying process: forked at the start of a build, serving modules as they are made.

Every build here forks a real process that lists the generated modules through the real
mcp Client and Server; the CLI cases run ``toolc build`` itself as a subprocess. After
each test no process is left (not even a zombie) and no staging folder either.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import mcp  # noqa: F401 - imported once here, so that forked processes start with it
import project_support
import pytest
from fork_support import wait_until_single_threaded
from forkserver_support import ctrl_c_by_default, python_cmd
from toolc.certify import child
from toolc.certify import compare as certify
from toolc.certify import process as certifier
from toolc.certify.process import Certifier, can_fork
from toolc.certify.verdicts import Verdict
from toolc.config import Config
from toolc.diagnostics import Diagnostic, DiagnosticBag
from toolc.frontend import compile_specs
from toolc.generate import generate_project
from toolc.ir import ModuleIR
from toolc.pipeline import build, render_outputs

SPEC = project_support.LOGS_SPEC


def spec(module: str, toolsets: str = "") -> str:
    """One tool; ``toolsets`` (with its export) around it if given."""
    text = SPEC.replace("module: logs", f"module: {module}")
    if toolsets:
        text += "toolsets:\n  base: {kind: function, tools: [readLog]}\n" + toolsets
    return text


def wrapped(module: str, wrapper: str) -> str:
    return spec(module, f"  tidy: {{kind: wrapper, inner: base, wrapper: {wrapper}:Wrap}}\n"
                        "export: tidy\n")


def prepared(module: str, prepare: str) -> str:
    return spec(module, f"  tidy: {{kind: prepared, inner: base, prepare: {prepare}}}\n"
                        "export: tidy\n")


WRAP = "from toolc.runtime import WrapperToolset\n\nclass Wrap(WrapperToolset):\n    pass\n"
BLANK = """\
from dataclasses import replace

def blank(ctx, tools):
    return [replace(t, description="") for t in tools]
"""
NO_DEFAULT = """\
from dataclasses import replace
from toolc.runtime import WrapperToolset

class Wrap(WrapperToolset):
    async def list_tools(self, ctx):
        out = []
        for t in await super().list_tools(ctx):
            props = {k: {**v} for k, v in t.input_schema["properties"].items()}
            del props["lines"]["default"]
            out.append(replace(t, input_schema={**t.input_schema, "properties": props}))
        return out
"""


def make_project(root: Path, specs: dict[str, str], code: dict[str, str] | None = None) -> Config:
    # (references are looked up in the sources: the handler is there, never imported)
    sources = {"logs_app": "def read_log(ctx, lines): ...\n", **(code or {})}
    project_support.make_project(root, specs, output="generated", python_path=["."],
                                 files={f"{name}.py": text for name, text in sources.items()})
    return Config(root=root, specs=(root / "specs",), output=root / "generated",
                  python_path=(root,))


def shown(items: list[Diagnostic]) -> list[tuple[str, int, str]]:
    return [(d.code, d.span.line if d.span else 0, d.message) for d in items]


@pytest.fixture(autouse=True)
def nothing_left_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Staging folders go to a folder of this test's own; after it, none is left and
    neither is any process."""
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    yield temp
    assert [p.name for p in temp.iterdir()] == []
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


@pytest.fixture
def forked_only(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Certification must take the forked path; returns how many modules each
    certification found already handed over when it began (streamed while generated).

    A build forks only while its process has no other thread: see fork_support."""
    wait_until_single_threaded()

    def refuse(*args: Any) -> None:
        raise AssertionError("certified in the build process")

    monkeypatch.setattr(certify, "certify_build", refuse)
    handed_over: list[int] = []
    certify_forked = Certifier.certify

    def counting(self: Certifier, *args: Any) -> dict[str, Verdict]:
        handed_over.append(len(self.announced))
        return certify_forked(self, *args)

    monkeypatch.setattr(Certifier, "certify", counting)
    return handed_over


def certified(config: Config) -> list[tuple[str, int, str]]:
    result = build(config, certify=True, check=True, use_cache=False)
    assert result.compiled.project is not None
    return shown(result.compiled.bag.sorted())


def test_a_faithful_build_is_certified_in_the_process_as_it_is_generated(
    tmp_path: Path, forked_only: list[int]
) -> None:
    seen = tmp_path / "gc_seen"
    config = make_project(tmp_path, {"alpha": spec("alpha"), "beta": wrapped("beta", "gc_wrap")},
                          {"gc_wrap": WRAP + textwrap.dedent(f"""
                              import gc, pathlib
                              pathlib.Path({str(seen)!r}).write_text(
                                  f"{{gc.isenabled()}} {{gc.get_freeze_count() > 0}}")
                              """)})
    assert certified(config) == []
    assert forked_only == [2]  # both modules handed over while being generated
    assert "gc_wrap" not in sys.modules  # user code ran in the other process only
    # There the collector runs for user code, the SDK's own objects frozen.
    assert seen.read_text() == "True True"


def test_a_lost_description_and_a_wire_difference_are_caught(
    tmp_path: Path, forked_only: list[int]
) -> None:
    config = make_project(tmp_path, {"alpha": prepared("alpha", "blanking:blank"),
                                     "beta": wrapped("beta", "no_default")},
                          {"blanking": BLANK, "no_default": NO_DEFAULT})
    found = certified(config)
    assert [(code, line) for code, line, _ in found] == [("TC502", 11), ("TC501", 4)]
    assert found[0][2] == ("description of 'readLog' does not reach the wire at /description: the "
         "export passes it through toolset 'tidy' (prepare blanking:blank)")
    assert found[1][2] == ("'readLog' differs on the wire at /inputSchema/properties/lines/"
                           "default: spec publishes 50, client sees nothing")


@pytest.mark.parametrize("specs", [
    {"alpha": prepared("alpha", "blanking:blank"), "beta": wrapped("beta", "no_default"),
     "gamma": prepared("gamma", "vanishing:blank"), "delta": spec("delta")},
    {"broken": wrapped("broken", "raising"), "fine": spec("fine")},
], ids=["three-kinds", "import-error"])
def test_the_process_reports_exactly_what_certifying_in_the_build_process_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, specs: dict[str, str]
) -> None:
    config = make_project(tmp_path, specs, {
        "blanking": BLANK, "no_default": NO_DEFAULT,
        "raising": "raise ImportError('no luck')\nclass Wrap: ...\n",
        # found in its source, gone when certification imports it
        "vanishing": "import sys\ndel sys.modules[__name__]\nraise ImportError('gone')\n"
                     "def blank(ctx, tools): ...\n"})
    forked = certified(config)
    assert any(code == "TC503" for code, _, _ in forked)
    monkeypatch.setattr(certifier, "can_fork", lambda: False)
    try:
        assert certified(config) == forked
    finally:
        for name in ("blanking", "no_default", "raising", "vanishing"):
            sys.modules.pop(name, None)


def test_an_import_error_in_user_code_is_a_located_error(
    tmp_path: Path, forked_only: list[int]
) -> None:
    config = make_project(tmp_path, {"broken": wrapped("broken", "raising")},
                          {"raising": "raise ImportError('no luck')\nclass Wrap: ...\n"})
    assert certified(config) == [("TC503", 11, ("cannot serve module 'broken' for certification: "
                                               "ToolsetError: the wrapper of broken.tidy: cannot "
                                               "import raising:Wrap: ImportError: no luck"))]


EXITING = "import os\nos._exit(3)\n"
KILLING = "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n"


@pytest.mark.parametrize(("source", "ending"), [(EXITING, "exit status 3"),
                                                 (KILLING, "killed by signal SIGKILL")])
def test_a_process_that_dies_is_blamed_on_its_module_and_a_new_one_serves_the_rest(
    tmp_path: Path, forked_only: list[int], source: str, ending: str
) -> None:
    config = make_project(tmp_path, {
        "alpha": spec("alpha"), "crash": wrapped("crash", "dying"),
        "omega": prepared("omega", "blanking:blank"),
        "user": spec("user", "  mix: {kind: combined, toolsets: [crash.tidy]}\nexport: mix\n"),
    }, {"dying": WRAP + source, "blanking": BLANK})
    assert certified(config) == [
        ("TC503", 11, ("cannot serve module 'crash' for certification: the certifying process "
                      f"ended ({ending}) while serving it")),
        ("TC502", 11, ("description of 'readLog' does not reach the wire at /description: the "
         "export passes it through toolset 'tidy' (prepare blanking:blank)")),
        ("TC503", 11, ("cannot serve module 'user' for certification: it needs module 'crash', "
                      "whose serving ended the certifying process")),
    ]


def running(pid: int) -> bool:
    """Alive and not a zombie (a zombie has ended; only its parent has not reaped it)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state not in ("Z", "X")


def patient_until_hang_hangs(monkeypatch: pytest.MonkeyPatch, hanging: Path,
                             timeout_s: float) -> None:
    """The certifier's answer timeout is ``timeout_s`` only while module 'hang' is served
    and once its user code has written ``hanging``, and generous otherwise: on a busy
    machine the other modules, a new process, or the user code before it hangs may well
    be silent for longer than a timeout short enough for a test."""
    generous = 600.0
    monkeypatch.setattr(certifier, "ANSWER_TIMEOUT_S", generous)
    take, lost = Certifier._take, Certifier._lost

    def taking(self: Certifier, message: tuple[Any, ...]) -> None:
        take(self, message)
        if self.serving != "hang":
            certifier.ANSWER_TIMEOUT_S = generous
            return
        deadline = time.monotonic() + generous  # only a bound: the user code writes it
        while not hanging.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        certifier.ANSWER_TIMEOUT_S = timeout_s

    def losing(self: Certifier, project: Any, why: str) -> None:
        certifier.ANSWER_TIMEOUT_S = generous
        lost(self, project, why)

    monkeypatch.setattr(Certifier, "_take", taking)
    monkeypatch.setattr(Certifier, "_lost", losing)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_module_that_hangs_is_stopped_after_the_timeout_with_what_it_started(
    tmp_path: Path, forked_only: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    started_by_user = tmp_path / "server.pid"
    patient_until_hang_hangs(monkeypatch, started_by_user, 0.5)
    config = make_project(tmp_path, {"hang": wrapped("hang", "sleeping"), "zeta": spec("zeta")},
                          {"sleeping": WRAP + textwrap.dedent(f"""
                              import pathlib, subprocess, time
                              server = subprocess.Popen(["sleep", "3600"])
                              pid = pathlib.Path({str(started_by_user)!r} + ".partial")
                              pid.write_text(str(server.pid))
                              pid.rename({str(started_by_user)!r})
                              time.sleep(3600)
                              """)})
    assert certified(config) == [
        ("TC503", 11, ("cannot serve module 'hang' for certification: the certifying process "
                      "had no answer after 0.5 s and was stopped while serving it"))]
    assert not running(int(started_by_user.read_text()))


def test_pinned_servers_stand_in_for_modules_that_use_them(
    tmp_path: Path, forked_only: list[int]
) -> None:
    third = ("toolc: 1\nmodule: third\ntoolsets:\n  server:\n    kind: mcp\n"
             "    stdio: {command: no-such-server-anywhere}\n    tools:\n"
             "      search: {description: Search things., input_schema: {type: object}}\n"
             "  pre: {kind: prefixed, inner: server, prefix: tp_}\nexport: pre\n")
    user = spec("user", "  mix: {kind: combined, toolsets: [base, third.pre]}\nexport: mix\n")
    config = make_project(tmp_path, {"third": third, "user": user})
    assert certified(config) == []  # listed offline, from the pinned definitions


def test_a_failed_front_end_stops_the_process(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[Certifier | None] = []
    start = Certifier.start

    def recording(python_path: Any, *policy: Any) -> Certifier | None:
        started.append(start(python_path, *policy))
        return started[-1]

    monkeypatch.setattr(Certifier, "start", recording)
    config = make_project(tmp_path, {"bad": "toolc: 1\nmodule: bad\ntools: 5\n"})
    result = build(config, certify=True, use_cache=False)
    assert result.compiled.bag.has_errors and result.compiled.project is None
    [process] = started
    assert process is not None and process.stopped  # the fixture: nothing left


def test_without_fork_the_build_process_certifies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(certifier, "can_fork", lambda: False)
    config = make_project(tmp_path, {"alpha": prepared("alpha", "blank_here:blank")},
                          {"blank_here": BLANK})
    try:
        assert [(c, line) for c, line, _ in certified(config)] == [("TC502", 11)]
        assert "blank_here" in sys.modules  # certified here, in the build process
    finally:
        sys.modules.pop("blank_here", None)


def test_no_fork_without_os_fork(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(os, "fork")  # as on Windows
    assert not can_fork() and Certifier.start(()) is None


def test_no_fork_while_other_threads_run() -> None:
    assert can_fork()
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not can_fork() and Certifier.start(()) is None
    finally:
        stop.set()
        thread.join()


def test_a_sink_gets_each_generated_file_as_it_is_made(tmp_path: Path) -> None:
    config = make_project(tmp_path, {"alpha": spec("alpha"), "beta": wrapped("beta", "w")},
                          {"w": "from toolc import runtime as rt\n\n\n"
                                "class Wrap(rt.WrapperToolset):\n    pass\n"})
    project = compile_specs(config).project
    assert project is not None
    handed: list[tuple[str, str | None]] = []

    def sink(rel: str, text: str, module: ModuleIR | None) -> None:
        handed.append((rel, module.name if module else None))

    files = generate_project(project, sink)
    assert files == generate_project(project) and list(files) == list(generate_project(project))
    assert handed == [("__init__.py", None), ("alpha.py", "alpha"), ("beta.py", "beta")]
    assert render_outputs(project).keys() > files.keys()


def run_toolc(root: Path, *args: str, **kwargs: Any) -> subprocess.Popen[str]:
    env = dict(os.environ, TMPDIR=str(root / "temp"))  # the fixture's folder
    env.pop("CI", None)  # in CI, `toolc build` would only check, and these build
    return subprocess.Popen(python_cmd("-m", "toolc", *args), cwd=root, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)


def test_what_user_code_prints_does_not_reach_the_json_on_stdout(tmp_path: Path) -> None:
    make_project(tmp_path, {"alpha": wrapped("alpha", "chatty")},
                 {"chatty": WRAP + "print('hello from user code')\n"})
    process = run_toolc(tmp_path, "build", "--format", "json")
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    json.loads(out)
    assert "hello from user code" in err
    assert list((tmp_path / "temp").iterdir()) == []


def test_ctrl_c_stops_the_certifying_process_too(tmp_path: Path) -> None:
    seen = tmp_path / "seen.json"
    make_project(tmp_path, {"alpha": wrapped("alpha", "slow")}, {"slow": WRAP + textwrap.dedent(f"""
        import json, os, sys, time
        stage = next(m.__path__[0] for n, m in sys.modules.items() if n.startswith("_toolc_stage"))
        open({str(seen)!r}, "w").write(json.dumps([os.getpid(), stage]))
        time.sleep(120)
        """)})
    # A shell without job control starts background jobs with SIGINT ignored, and a
    # process inherits that: the build must start with Ctrl-C's default.
    process = run_toolc(tmp_path, "build", preexec_fn=ctrl_c_by_default)
    deadline = time.monotonic() + 300
    while not seen.exists() or not seen.read_text():
        assert time.monotonic() < deadline and process.poll() is None
        time.sleep(0.05)
    pid, stage = json.loads(seen.read_text())
    process.send_signal(signal.SIGINT)  # to the build process only
    process.communicate(timeout=300)
    assert process.returncode != 0
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    assert not Path(stage).exists()


def test_a_process_whose_build_died_cleans_up_and_ends(tmp_path: Path) -> None:
    script = ("import os, sys\nfrom toolc.certify.process import Certifier\n"
              "c = Certifier.start(())\nprint(c.stage.root, flush=True)\nos._exit(0)\n")
    died = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                          timeout=300, env=dict(os.environ, TMPDIR=str(tmp_path / "temp")))
    stage = Path(died.stdout.strip())
    assert stage.parent == tmp_path / "temp"
    deadline = time.monotonic() + 300
    while stage.exists():
        assert time.monotonic() < deadline, "the orphaned process kept its folder"
        time.sleep(0.05)


def test_without_streaming_everything_is_handed_over_at_certification(tmp_path: Path) -> None:
    config = make_project(tmp_path, {"alpha": prepared("alpha", "blanking:blank"),
                                     "beta": spec("beta")}, {"blanking": BLANK})
    project = compile_specs(config).project
    assert project is not None
    process = Certifier.start(config.python_path)
    assert process is not None
    bag = DiagnosticBag()
    process.certify(project, render_outputs(project), bag)
    assert [(c, line) for c, line, _ in shown(bag.sorted())] == [("TC502", 11)]
    process.stop()
    assert process.stopped and "blanking" not in sys.modules


STARTING = WRAP + """
import pathlib, subprocess
server = subprocess.Popen(["sleep", "3600"])  # in the certifying process's group
pathlib.Path(PID_FILE + ".partial").write_text(str(server.pid))
pathlib.Path(PID_FILE + ".partial").rename(PID_FILE)
"""


def ends(pid: int) -> bool:
    """Whether ``pid`` (sent SIGKILL: it cannot run on) is gone, within a generous bound."""
    deadline = time.monotonic() + 300
    while running(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def ended_unreaped(pid: int) -> bool:
    """Ended by itself, its status kept until its parent reaps it (a zombie)."""
    return Path(f"/proc/{pid}").exists() and not running(pid)


def certify_starting_a_server(tmp_path: Path) -> tuple[Certifier, Path]:
    """A certification that finished, whose user code started a server (its pid in the
    file returned) in the certifying process's group."""
    started_by_user = tmp_path / "server.pid"
    config = make_project(tmp_path, {"alpha": wrapped("alpha", "starting")},
                          {"starting": f"PID_FILE = {str(started_by_user)!r}\n" + STARTING})
    project = compile_specs(config).project
    assert project is not None
    wait_until_single_threaded()
    process = Certifier.start(config.python_path)
    assert process is not None
    bag = DiagnosticBag()
    process.certify(project, render_outputs(project), bag)
    assert bag.items == []
    return process, started_by_user


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_finished_certification_lets_the_process_clean_up_and_end_by_itself(
        tmp_path: Path) -> None:
    process, started_by_user = certify_starting_a_server(tmp_path)
    assert process.process is not None and not process.stopped
    pid, server = process.process.pid, int(started_by_user.read_text())
    deadline = time.monotonic() + 300  # a bound, never a verdict on speed
    while process.stage.root.exists() or not ended_unreaped(pid):
        assert time.monotonic() < deadline, "the process kept its folder or did not end"
        time.sleep(0.01)
    assert running(server)  # its group is stopped by stop(), at the end of the build
    process.stop()
    assert process.stopped and ends(server)
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # reaped


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_finished_certification_does_not_wait_for_the_process_to_end(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The process's clean-up never ends (there only: the child module's own name for
    # shutil): certify() returns all the same, and stop() still ends it all.
    monkeypatch.setattr(child, "shutil", SimpleNamespace(rmtree=lambda *a, **k: time.sleep(3600)))
    process, started_by_user = certify_starting_a_server(tmp_path)
    assert process.process is not None and running(process.process.pid)
    pid, server = process.process.pid, int(started_by_user.read_text())
    process.stop()
    assert process.stopped and ends(server) and not process.stage.root.exists()
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


def test_code_that_cannot_be_staged_is_a_located_error(tmp_path: Path) -> None:
    config = make_project(tmp_path, {"alpha": spec("alpha"), "beta": spec("beta")})
    project = compile_specs(config).project
    assert project is not None
    process = Certifier.start(config.python_path)
    assert process is not None
    (process.stage.package_dir / "beta.py").mkdir()  # where the module's file must go
    files = generate_project(project, process.module_generated)
    bag = DiagnosticBag()
    process.certify(project, files, bag)
    assert [(c, line, m.split(": ", 1)[1][:44]) for c, line, m in shown(bag.sorted())] == [
        ("TC503", 1, "the generated code could not be written to a")] * 2
    process.stop()


def test_a_build_that_fails_certification_writes_nothing(
    tmp_path: Path, forked_only: list[int]
) -> None:
    """Its files were being staged by another process meanwhile: that is undone."""
    config = make_project(tmp_path, {"alpha": prepared("alpha", "blanking:blank"),
                                     "beta": spec("beta")}, {"blanking": BLANK})
    result = build(config, certify=True, use_cache=False)
    assert [d.code for d in result.compiled.bag.sorted()] == ["TC502"]
    assert not config.output.exists() and not result.wrote
    (config.root / "specs" / "alpha.toolc.yaml").unlink()
    result = build(config, certify=True, use_cache=False)
    assert result.wrote and not result.compiled.bag.items
    assert sorted(p.name for p in config.output.iterdir()) == [
        ".toolc-manifest.json", "__init__.py", "beta.py", "schemas"]


@pytest.mark.parametrize("imported", ["alpha", "zulu"])  # generated before user, after it
def test_an_incremental_build_stages_only_the_reused_modules_a_served_one_imports(
    tmp_path: Path, forked_only: list[int], monkeypatch: pytest.MonkeyPatch, imported: str
) -> None:
    user = spec("user", f"  other: {{kind: prefixed, inner: {imported}.base, prefix: a_}}\n"
                        "  mix: {kind: combined, toolsets: [base, other]}\nexport: mix\n")
    config = make_project(tmp_path, {imported: spec(imported, "export: base\n"), "user": user,
                                     "omega": spec("omega")})
    assert build(config).ok  # every module served; the record made
    staged: list[str] = []
    write = Certifier._write

    def recording(self: Certifier, rel: str, text: str) -> None:
        staged.append(rel)
        write(self, rel, text)

    monkeypatch.setattr(Certifier, "_write", recording)
    (config.root / "specs" / "user.toolc.yaml").write_text(
        user.replace("the newest lines", "the latest lines"))
    result = build(config)
    # user is served again; the module it imports is staged for it, omega never.
    assert result.ok and shown(result.compiled.bag.sorted()) == []
    assert sorted(staged) == sorted(["__init__.py", f"{imported}.py", "user.py"])
