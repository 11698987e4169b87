"""The build pipeline (toolc.pipeline): its stages in order, what a stage is handed taken
as it is, and what a build never does (fetch a `$ref`, read a spec linked out of the
project, leave its objects for the next collection, wedge the next build)."""

from __future__ import annotations

import http.server
import io
import json
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest
from fork_support import wait_until_single_threaded
from project_support import edit, wrapped_notes_project
from toolc.config import Config
from toolc.frontend import compile_specs
from toolc.pipeline import build, render_outputs


@pytest.fixture
def project(tmp_path: Path) -> Config:
    return wrapped_notes_project(tmp_path)


def test_what_a_build_made_is_not_left_for_the_next_collection_to_scan(
    project: Config,
) -> None:
    import gc

    from toolc.collector import collector_paused

    gc.collect()
    with collector_paused():
        result = build(project, certify=False, use_cache=False)
        assert not gc.isenabled()
    assert result.ok and gc.get_freeze_count() == 0 and gc.isenabled()
    # moved to the oldest generation at once, not scanned by a young pass to get there
    assert gc.is_tracked(result.compiled.project)
    assert any(o is result.compiled.project for o in gc.get_objects(generation=2))


def test_the_certifying_process_serves_user_code_under_the_policy_it_was_given(
    project: Config, tmp_path: Path
) -> None:
    import contextlib
    import os

    from toolc.certify.process import early_certifier

    marker = tmp_path / "entered"

    @contextlib.contextmanager
    def recording() -> Iterator[None]:
        marker.write_text(str(os.getpid()))  # in the forked process, not this one
        yield

    compiled = compile_specs(project)
    assert compiled.project is not None
    bag = compiled.bag
    wait_until_single_threaded()
    with early_certifier(project.python_path, wanted=True, collecting=recording) as certifier:
        assert certifier is not None
        certifier.certify(compiled.project, render_outputs(compiled.project), bag)
    assert not bag.has_errors
    assert marker.read_text() not in ("", str(os.getpid()))


def test_a_300_character_module_name_is_refused_at_its_line_and_wedges_nothing(
        project: Config) -> None:
    assert build(project, certify=False).ok
    spec = project.root / "specs" / "notes.toolc.yaml"
    good = spec.read_text()
    spec.write_text(good.replace("module: notes", "module: n" + "x" * 299))
    before = {p: p.read_bytes() for p in project.output.rglob("*") if p.is_file()}
    result = build(project, certify=False)
    assert [(d.code, d.span.line if d.span else 0) for d in result.compiled.bag] == [
        ("TC316", 2)]
    assert {p: p.read_bytes() for p in project.output.rglob("*") if p.is_file()} == before
    spec.write_text(good.replace("Add a note.", "Add one note."))
    assert build(project, certify=False).wrote  # no journal left to stop the next build


# -- `$ref`: inlined from local files, never fetched (issue 11 item 2) ---------------------------


class _Recorder(http.server.BaseHTTPRequestHandler):
    seen: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        _Recorder.seen.append(self.path)
        body = b'{"type": "string"}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def schema_server() -> Iterator[str]:
    """A loopback HTTP server that serves a schema and records every request it sees."""
    _Recorder.seen = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_a_build_never_fetches_a_ref_and_refuses_it_located(project: Config,
                                                          schema_server: str) -> None:
    url = f"{schema_server}/note.json"
    (project.root / "specs" / "local.json").write_text(json.dumps({"$ref": url + "#/x"}))
    edit(project.root / "specs" / "notes.toolc.yaml", "{type: string, description: The note.}",
         f"{{$ref: '{url}', description: The note.}}\n"
         "      other: {$ref: local.json, description: Another.}\n"
         f"      third:\n        description: Under an id.\n"
         f"        $id: '{schema_server}/base/'\n"
         "        properties:\n          p: {$ref: 'p.json', description: P.}")
    (project.root / "specs" / "raw.toolc.yaml").write_text(
        "toolc: 1\nmodule: raw\ntoolsets:\n  e:\n    kind: external\n    tools:\n"
        "      fetch:\n        description: Fetch.\n        input_schema:\n"
        f"          type: object\n          properties:\n            p: {{$ref: '{url}'}}\n")
    result = build(project, certify=False)
    assert not result.ok and not result.wrote
    found = sorted((d.code, d.span.path, d.span.line) for d in result.compiled.bag
                   if d.span is not None and d.code not in ("TC201", "TC220"))
    assert found == [("TC210", "specs/notes.toolc.yaml", 8),
                     ("TC210", "specs/notes.toolc.yaml", 9),
                     ("TC210", "specs/notes.toolc.yaml", 14),
                     ("TC213", "specs/raw.toolc.yaml", 12)]
    assert _Recorder.seen == []
    assert not (project.output / "schemas").exists()


def test_the_server_of_the_no_fetch_test_does_answer(schema_server: str) -> None:
    """The no-request test above would pass with a dead server: this one shows it is not."""
    with urllib.request.urlopen(f"{schema_server}/note.json", timeout=10) as reply:
        assert json.loads(reply.read()) == {"type": "string"}
    assert _Recorder.seen == ["/note.json"]


def test_a_certified_build_of_a_url_the_schema_declares_makes_no_request(
        project: Config, schema_server: str) -> None:
    """An absolute `$ref` to an `$id` of the same schema resolves inside it: it builds,
    is generated and certified through a real MCP client, and nothing is fetched."""
    base = f"{schema_server}/point"
    edit(project.root / "specs" / "notes.toolc.yaml", "{type: string, description: The note.}",
         f"{{type: string, description: The note.}}\n"
         f"      point:\n        description: A point.\n        $id: '{base}'\n"
         "        properties:\n          x: {type: number, description: X.}\n"
         f"      again: {{$ref: '{base}', description: The same point.}}")
    result = build(project, certify=True)
    assert result.ok, [d.message for d in result.compiled.bag]
    golden = json.loads((project.output / "schemas/notes/addNote.json").read_text())
    assert golden["inputSchema"]["properties"]["again"]["$ref"] == base
    assert _Recorder.seen == []


def test_a_spec_linked_out_of_the_project_is_reported_and_never_read(
        project: Config, monkeypatch: pytest.MonkeyPatch) -> None:
    from toolc.commands.validate import validate
    from toolc.frontend import compile_specs

    monkeypatch.setenv("TOOLC_TEST_SECRET", "hunter2")
    (project.root / "specs" / "env.toolc.yaml").symlink_to("/proc/self/environ")
    compiled = compile_specs(project)
    assert [(d.code, d.span.path if d.span else None) for d in compiled.bag] == [
        ("TC010", "specs/env.toolc.yaml")]
    assert all("hunter2" not in text for text in compiled.sources.values())
    monkeypatch.chdir(project.root)
    for fmt in ("text", "json", "github"):
        out = io.StringIO()
        assert validate([], fmt=fmt, out=out, err=io.StringIO()) == 1
        assert "hunter2" not in out.getvalue() and "TC010" in out.getvalue()


def test_a_spec_linked_inside_the_project_is_read_under_its_own_name(project: Config) -> None:
    from toolc.frontend import compile_specs

    shared = project.root / "shared"
    shared.mkdir()
    (shared / "other.yaml").write_text("toolc: 1\nmodule: other\nbogus: 1\n")
    (project.root / "specs" / "other.toolc.yaml").symlink_to("../shared/other.yaml")
    compiled = compile_specs(project)
    assert [(d.code, d.span.path if d.span else None) for d in compiled.bag] == [
        ("TC101", "specs/other.toolc.yaml")]


# -- the stages ------------------------------------------------------------------------------


def test_the_stages_run_in_their_order_and_stop_after_the_first_that_reports_an_error(
        project: Config, monkeypatch: pytest.MonkeyPatch) -> None:
    import functools

    from toolc import pipeline

    ran: list[str] = []

    def noted(stage: pipeline.Stage) -> pipeline.Stage:
        @functools.wraps(stage)
        def noting(state: pipeline.Build) -> None:
            ran.append(stage.__name__)
            stage(state)

        return noting

    monkeypatch.setattr(pipeline, "STAGES", tuple(noted(s) for s in pipeline.STAGES))
    assert build(project, certify=False).ok
    assert ran == ["load", "analyse", "publish", "generate", "diff", "certify", "write"]
    ran.clear()
    edit(project.root / "specs" / "notes.toolc.yaml", "    handler: notes_app:add\n",
         "    handler: notes_app:add\n    colour: red\n")
    result = build(project, certify=False)
    assert not result.ok and ran == ["load", "analyse"] and result.files == {}


def test_a_stage_takes_what_it_is_handed_as_it_is(project: Config) -> None:
    """Code, golden files and verdicts handed (as the reuse wing hands an unchanged
    module's) are the build's as they are: not made again, and the module not served."""
    from toolc.certify.verdicts import Verdict
    from toolc.diagnostics import Diagnostic, Severity, Span
    from toolc.frontend import Compiled
    from toolc.pipeline import Build, BuildResult, run
    from toolc.reuse.handed import Handed

    compiled = compile_specs(project)
    assert compiled.project is not None
    made = render_outputs(compiled.project)
    golden = "schemas/notes/addNote.json"
    said = Diagnostic("TC502", Severity.WARNING, "handed, not served",
                      Span("specs/notes.toolc.yaml", 6, 5))
    handed = Handed(code={"notes": "handed = True\n"},
                    golden={"notes": {golden: made[golden].replace("Add a note.", "Handed.")}},
                    verdicts={"notes": Verdict([said])})
    result = run(Build(project, BuildResult(Compiled(project.bag()), checked=True),
                       handed=handed))
    assert result.files["notes.py"] == "handed = True\n"  # a module not served: no TC503
    assert result.files[golden] == made[golden].replace("Add a note.", "Handed.")
    assert [d.message for d in result.compiled.bag] == ["handed, not served"]
    assert result.plan is not None and not (project.output / "notes.py").exists()
