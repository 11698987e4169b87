"""The no-op cache (toolc.reuse.noop): a build with nothing changed is answered from its
record, and every kind of change makes the next build a full one."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
import toolc
from project_support import WRAPPED_NOTES_SPEC, edit, make_project, wrapped_notes_project
from toolc.config import Config, load_config
from toolc.frontend import compile_specs
from toolc.pipeline import build
from toolc.report.text import diagnostics_text
from toolc.reuse.noop import input_key, remember_build
from toolc.specs import discover


@pytest.fixture
def project(tmp_path: Path) -> Config:
    return wrapped_notes_project(tmp_path)


def full_then(config: Config, *, certify: bool = False, check: bool = False) -> bool:
    """Build once (full), then again; whether the second was answered by the cache."""
    first = build(config, certify=certify)
    assert first.ok and not first.up_to_date and first.compiled.project is not None
    return again(config, certify=certify, check=check)


def again(config: Config, *, certify: bool = False, check: bool = False) -> bool:
    result = build(config, certify=certify, check=check)
    assert result.ok and result.plan is not None and not result.plan.changes
    if result.up_to_date:  # nothing was analysed, generated or certified
        assert result.compiled.project is None and result.files == {}
    return result.up_to_date


def test_a_build_with_nothing_changed_is_up_to_date(project: Config) -> None:
    assert full_then(project)
    result = build(project, certify=False)
    assert result.plan is not None and len(result.plan.unchanged) == len(
        [p for p in project.output.rglob("*") if p.is_file() and p.name[0] != "."])


def test_an_edited_spec_is_built_again(project: Config) -> None:
    build(project, certify=False)
    edit(project.root / "specs" / "notes.toolc.yaml", "Add a note.", "Add one note.")
    result = build(project, certify=False)
    assert not result.up_to_date and result.wrote
    assert "Add one note." in (project.output / "schemas/notes/addNote.json").read_text()
    assert again(project)


def test_a_new_spec_file_is_built_again(project: Config) -> None:
    build(project, certify=False)
    (project.root / "specs" / "more.toolc.yaml").write_text(
        WRAPPED_NOTES_SPEC.replace("module: notes", "module: more"))
    assert not build(project, certify=False).up_to_date
    assert (project.output / "more.py").is_file()


def test_another_toolc_version_builds_again(project: Config,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    build(project, certify=False)
    monkeypatch.setattr(toolc, "__version__", "99.0.0")
    assert not build(project, certify=False).up_to_date
    assert again(project)


def test_another_dependency_version_builds_again(project: Config,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from toolc.reuse import inputs as cache

    build(project, certify=False)
    real = cache.dependency_versions()
    monkeypatch.setattr(cache, "dependency_versions", lambda: {**real, "pydantic": "3.0"})
    assert not build(project, certify=False).up_to_date


def test_a_configuration_change_builds_again(project: Config) -> None:
    build(project, certify=False)
    edit(project.root / "pyproject.toml", 'python-path = ["handlers"]',
         'python-path = ["handlers"]\n[tool.toolc.severity]\nunportable-name = "off"')
    assert not build(load_config(project.root), certify=False).up_to_date


def test_the_format_mode_is_an_input_of_the_no_op_cache(project: Config) -> None:
    """`format = "assert"` changes the published schemas: the build must run again."""
    build(project, certify=False)
    edit(project.root / "pyproject.toml", 'python-path = ["handlers"]',
         'python-path = ["handlers"]\nformat = "assert"')
    assert not build(load_config(project.root), certify=False).up_to_date


def test_a_generated_file_edited_by_hand_is_rewritten(project: Config) -> None:
    build(project, certify=False)
    module = project.output / "notes.py"
    original = module.read_text()
    module.write_text(original + "# edited\n")
    result = build(project, certify=False)
    assert not result.up_to_date and result.plan is not None
    assert result.plan.written == ("notes.py",) and module.read_text() == original


def test_a_deleted_generated_file_is_rewritten(project: Config) -> None:
    build(project, certify=False)
    (project.output / "schemas/notes/addNote.json").unlink()
    assert not build(project, certify=False).up_to_date
    assert (project.output / "schemas/notes/addNote.json").is_file()


def test_check_writes_nothing_and_never_answers_from_a_planted_record(
        project: Config) -> None:
    build(project, certify=False)
    edit(project.root / "specs" / "notes.toolc.yaml", "Add a note.", "Add one note.")
    # A record saying the edited specs were built, as a pull request could commit it.
    remember_build(project, {"key": input_key(project, discover(project)),
                             "certified": True, "code": {}})
    before = {p: p.stat().st_mtime_ns for p in project.root.rglob("*")}
    result = build(project, certify=False, check=True)
    assert not result.up_to_date and result.checked and result.plan is not None
    assert "schemas/notes/addNote.json" in result.plan.written
    assert {p: p.stat().st_mtime_ns for p in project.root.rglob("*")} == before


def test_check_after_a_spec_edit_sees_the_change(project: Config) -> None:
    build(project, certify=False)
    edit(project.root / "specs" / "notes.toolc.yaml", "Add a note.", "Add one note.")
    result = build(project, certify=False, check=True)
    assert not result.up_to_date and result.plan is not None
    assert "schemas/notes/addNote.json" in result.plan.written


def test_certification_is_reused_only_from_a_certified_build(project: Config) -> None:
    build(project, certify=False)
    assert not build(project, certify=True).up_to_date  # never certified: certify now
    assert again(project, certify=True)
    assert again(project, certify=False)  # a certified record serves --no-certify too


def test_certification_runs_again_when_the_wrapper_it_imports_changed(project: Config) -> None:
    assert full_then(project, certify=True)
    edit(project.root / "handlers" / "notes_wrap.py", "pass", '"""Now documented."""')
    assert not build(project, certify=True).up_to_date
    assert again(project, certify=False)  # the output itself is the same


def test_certification_runs_again_when_a_context_factory_changed(project: Config) -> None:
    spec = project.root / "specs" / "notes.toolc.yaml"
    spec.write_text(WRAPPED_NOTES_SPEC + "certify:\n  contexts:\n    - {name: guest, deps: notes_deps:guest}\n")
    (project.root / "handlers" / "notes_deps.py").write_text("def guest():\n    return 1\n")
    assert full_then(project, certify=True)
    edit(project.root / "handlers" / "notes_deps.py", "return 1", "return 2")
    assert not build(project, certify=True).up_to_date
    assert again(project, certify=False)


def test_a_build_with_warnings_is_recorded_and_says_them_again(project: Config) -> None:
    """Warnings do not make every build a full one (issue 17): they are replayed."""
    edit(project.root / "specs" / "notes.toolc.yaml", "addNote:", "add.note:")
    edit(project.root / "specs" / "notes.toolc.yaml", "tools: [addNote]", "tools: [add.note]")
    first = build(project, certify=False)
    assert first.ok and first.compiled.bag.has_warnings
    second = build(project, certify=False)
    assert second.up_to_date and list(second.compiled.bag) == list(first.compiled.bag)
    shown = diagnostics_text(second.compiled.bag, second.compiled.sources)
    assert shown == diagnostics_text(first.compiled.bag, first.compiled.sources)
    assert "add.note:" in shown  # the source line is quoted, as the first time


def test_a_planted_record_replays_nothing_it_should_not(project: Config) -> None:
    assert build(project, certify=False).ok
    record_path = project.root / ".toolc-cache" / "build.json"
    record = json.loads(record_path.read_text())
    record["diagnostics"] = [
        {"code": "TC999", "severity": "warning", "message": "x", "span": None, "notes": []},
        {"code": "TC201", "severity": "error", "message": "x", "span": None, "notes": []},
        {"code": "TC302", "severity": "warning", "message": "kept", "span": ["a", 1, 1, 1],
         "notes": []},
        {"code": "TC302", "severity": "warning", "message": 3, "span": None, "notes": []},
        "not a record"]
    record_path.write_text(json.dumps(record))
    again = build(project, certify=False)
    assert again.up_to_date and [d.message for d in again.compiled.bag] == ["kept"]


def test_without_the_cache_every_stage_runs(project: Config) -> None:
    build(project, certify=False)
    result = build(project, certify=False, use_cache=False)
    assert not result.up_to_date and result.compiled.project is not None


def test_a_handler_module_edited_is_no_up_to_date_answer(tmp_path: Path) -> None:
    """The handler check reads the modules on the python-path (TC340-TC342): what it
    found is an input of the build, as the specs are."""
    make_project(tmp_path, {"m": "toolc: 1\nmodule: m\ndescription: M.\ntools:\n  t:\n"
                                  "    description: T.\n    handler: app:handle\n"},
                 python_path=["src"], files={"src/app.py": "async def handle(ctx):\n    return 1\n"})
    assert build(load_config(tmp_path), certify=False).ok
    assert build(load_config(tmp_path), certify=False).up_to_date
    (tmp_path / "src" / "app.py").write_text("async def other(ctx):\n    return 1\n")
    result = build(load_config(tmp_path), certify=False)
    assert not result.up_to_date and not result.ok
    assert [d.code for d in result.compiled.bag] == ["TC341"]


def test_only_what_the_export_is_made_of_decides_whether_certification_is_cached(
    project: Config,
) -> None:
    from toolc.reuse.inputs import certified_code

    spec = project.root / "specs" / "notes.toolc.yaml"
    edit(spec, "export: main", "  files: {kind: mcp, stdio: {command: no-such-server}}\n"
         "export: main")
    wrapper = {"handlers/notes_wrap.py": hashlib.sha256(
        (project.root / "handlers/notes_wrap.py").read_bytes()).hexdigest()}
    compiled = compile_specs(project)
    assert compiled.project is not None
    # The MCP server is not exported: certification never lists it.
    assert certified_code(project, compiled.project) == wrapper
    edit(spec, "export: main", "  both: {kind: combined, toolsets: [main, files]}\n"
         "export: both")
    compiled = compile_specs(project)
    assert compiled.project is not None
    # Certification never connects to the server (it lists no tools for it), so the
    # server is no input of it: the record still holds the wrapper's code only.
    assert certified_code(project, compiled.project) == wrapper



def test_an_edited_schema_file_a_ref_inlines_is_built_again(project: Config) -> None:
    (project.root / "specs" / "note.json").write_text('{"type": "string", "maxLength": 9}')
    edit(project.root / "specs" / "notes.toolc.yaml", "{type: string, description: The note.}",
         "{$ref: note.json, description: The note.}")
    assert full_then(project)
    golden = project.output / "schemas/notes/addNote.json"
    assert '"maxLength": 9' in golden.read_text()
    (project.root / "specs" / "note.json").write_text('{"type": "string", "maxLength": 7}')
    result = build(project, certify=False)
    assert not result.up_to_date and '"maxLength": 7' in golden.read_text()


