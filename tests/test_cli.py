"""The `toolc` command: through click's runner, and as a real subprocess."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from project_support import NOTES_SPEC, enter, make_project
from toolc.cli import main
from toolc.model import spec_json_schema

ROOT = Path(__file__).resolve().parents[1]

GOOD = NOTES_SPEC


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return enter(make_project(tmp_path, {"notes": GOOD}), monkeypatch)


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_validate_clean(project: Path) -> None:
    code, out, _ = run("validate")
    assert (code, out) == (0, "ok: 1 module(s), no problems\n")


def test_validate_reports_every_problem_with_location_and_exit_1(project: Path) -> None:
    (project / "specs" / "notes.toolc.yaml").write_text(
        GOOD.replace("description: Add", "descripton: Add").replace("notes_app:add", "notes_app.add"))
    code, out, _ = run("validate")
    assert code == 1
    assert "specs/notes.toolc.yaml:5:5: error[TC101]: unknown key 'descripton'" in out
    assert "specs/notes.toolc.yaml:6:14: error[TC303]" in out
    assert out.rstrip().endswith("error(s), 0 warning(s)")


def test_validate_formats(project: Path) -> None:
    (project / "specs" / "notes.toolc.yaml").write_text(GOOD.replace("addNote", "add note"))
    code, out, _ = run("validate", "--format", "json")
    [d] = json.loads(out)["diagnostics"]
    assert (code, d["code"], d["line"], d["col"]) == (1, "TC301", 4, 3)
    code, out, _ = run("validate", "--format", "github")
    assert out.startswith("::error file=specs/notes.toolc.yaml,line=4,col=3,title=TC301")


def test_strict_fails_on_warnings(project: Path) -> None:
    (project / "specs" / "notes.toolc.yaml").write_text(GOOD.replace("addNote", "add.note"))
    assert run("validate")[0] == 0
    code, out, _ = run("validate", "--strict")
    assert code == 1 and "warning[TC302]" in out


def test_severity_configuration_applies(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.toolc]\nspecs = "specs"\n[tool.toolc.severity]\nunportable-name = "error"\n')
    (project / "specs" / "notes.toolc.yaml").write_text(GOOD.replace("addNote", "add.note"))
    code, out, _ = run("validate")
    assert code == 1 and "error[TC302]" in out


def test_usage_errors_exit_2(project: Path) -> None:
    assert run("validate", "no/such/path")[0] == 2
    assert run("build", "--check", "--write")[0] == 2
    assert run("frobnicate")[0] == 2
    (project / "specs" / "notes.toolc.yaml").unlink()
    code, _, err = run("validate")
    assert code == 2 and "no *.toolc.yaml specs found" in err


def test_bad_config_is_reported(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.toolc]\nspec = "specs"\n')
    code, _, err = run("validate")
    assert code == 1 and "error[TC901]: unknown key 'spec'" in err


def test_schema_prints_the_format_and_the_committed_copy_is_current(project: Path) -> None:
    code, out, _ = run("schema")
    assert code == 0 and json.loads(out) == spec_json_schema()
    committed = json.loads((ROOT / "docs" / "spec.schema.json").read_text())
    assert committed == spec_json_schema(), "regenerate: toolc schema > docs/spec.schema.json"


def test_a_misspelt_handler_is_found_before_any_call(project: Path) -> None:
    """With python-path set, handler references are looked up in the sources (issue 14):
    a typo is an error at the spec line, and nothing is imported."""
    (project / "pyproject.toml").write_text(
        '[tool.toolc]\nspecs = "specs"\npython-path = ["src"]\n')
    (project / "src").mkdir()
    (project / "src" / "notes_app.py").write_text(
        "raise SystemExit('imported!')\ndef add(ctx, text): ...\n")
    assert run("validate")[0] == 0
    (project / "specs" / "notes.toolc.yaml").write_text(GOOD.replace("notes_app:add",
                                                                     "notes_app:ad"))
    code, out, _ = run("validate")
    assert code == 1
    assert ("specs/notes.toolc.yaml:6:14: error[TC341]: handler 'notes_app:ad' of tool "
            "'addNote': module 'notes_app' has no attribute 'ad'; did you mean 'add'?") in out
    assert run("build", "--no-certify")[0] == 1


def test_init_names_the_module_ignores_the_cache_and_configures_mypy(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CI", raising=False)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "support-desk"\n')
    (tmp_path / ".gitignore").write_text("*.pyc")
    code, out, _ = run("init")
    assert code == 0 and "wrote specs/support_desk.toolc.yaml" in out  # from [project].name
    assert (tmp_path / ".gitignore").read_text() == "*.pyc\n.toolc-cache/\n"
    config = (tmp_path / "pyproject.toml").read_text()
    # folders, not one entry per handler module: generated/ imports them all
    assert '[tool.mypy]\nstrict = true\n' in config and 'files = ["generated", "tests"]' in config
    assert '[tool.pytest.ini_options]\npythonpath = ["."]' in config
    assert (tmp_path / "tests" / "test_support_desk.py").is_file()
    assert run("init", "--force")[0] == 0
    assert (tmp_path / ".gitignore").read_text().count(".toolc-cache/") == 1  # said once
    assert (tmp_path / "pyproject.toml").read_text().count("[tool.mypy]") == 1
    code, out, _ = run("init", "--module", "desk")
    assert code == 0 and "wrote specs/desk.toolc.yaml" in out
    code, _, err = run("init", "--module", "not a name")
    assert code == 2 and "not an ASCII Python identifier" in err


def test_init_writes_a_starter_that_builds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "shop"
    target.mkdir()
    monkeypatch.chdir(target)
    monkeypatch.delenv("CI", raising=False)
    code, out, _ = run("init")
    assert code == 0 and "wrote specs/shop.toolc.yaml" in out
    assert "[tool.toolc]" in (target / "pyproject.toml").read_text()
    assert run("validate")[0] == 0
    assert run("build")[0] == 0
    assert (target / "generated" / "schemas" / "shop" / "greet.json").exists()
    code, _, err = run("init")
    assert code == 1 and "use --force" in err
    assert run("init", "--force")[0] == 0


def test_build_writes_then_check_is_clean_then_stale(project: Path) -> None:
    code, out, _ = run("build", "--no-certify")
    assert code == 0 and "TOOL_ADDED" in out
    assert (project / "generated" / "notes.py").exists()
    code, out, _ = run("build", "--check", "--no-certify")
    assert code == 0 and "up to date" in out
    (project / "specs" / "notes.toolc.yaml").write_text(GOOD.replace("The note.", "The note text."))
    code, out, _ = run("build", "--check", "--no-certify")
    assert code == 1
    assert "DESCRIPTION_CHANGED" in out and "toolc build --write" in out
    assert "The note." in (project / "generated" / "schemas" / "notes" / "addNote.json").read_text()


def test_build_in_ci_checks_unless_write(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    code, out, _ = run("build", "--no-certify")
    assert code == 1 and not (project / "generated").exists()
    assert "would write generated/notes.py" in out
    assert run("build", "--write", "--no-certify")[0] == 0
    assert run("build", "--no-certify")[0] == 0


def test_build_with_errors_writes_nothing(project: Path) -> None:
    (project / "specs" / "notes.toolc.yaml").write_text(GOOD.replace("toolc: 1", "toolc: 2"))
    code, out, _ = run("build")
    assert code == 1
    assert "specs/notes.toolc.yaml:1:8: error[TC104]: `toolc` must be the integer 1" in out
    assert not (project / "generated").exists()


@pytest.mark.skipif(shutil.which("toolc") is None and not (Path(sys.executable).parent / "toolc").exists(),
                    reason="the toolc console script is not installed")
def test_console_script_as_a_real_subprocess(project: Path) -> None:
    script = shutil.which("toolc") or str(Path(sys.executable).parent / "toolc")
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    ok = subprocess.run([script, "validate"], cwd=project, capture_output=True, text=True,
                        env=env, timeout=300, check=False)
    assert (ok.returncode, ok.stdout) == (0, "ok: 1 module(s), no problems\n")
    (project / "specs" / "notes.toolc.yaml").write_bytes(b"toolc: 1\nmodule: \xff\n")
    bad = subprocess.run([script, "validate"], cwd=project, capture_output=True, text=True,
                         env=env, timeout=300, check=False)
    assert bad.returncode == 1 and "error[TC001]" in bad.stdout
    assert "Traceback" not in bad.stdout + bad.stderr
    version = subprocess.run([script, "--version"], capture_output=True, text=True, timeout=300,
                             check=False)
    assert version.returncode == 0 and "toolc" in version.stdout


def test_the_program_flushes_everything_before_its_quick_exit(project: Path) -> None:
    """``toolc`` ends without tearing down the interpreter (cli.run): what it printed to
    a pipe must still arrive whole, with the exit code of the command."""
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    schema = subprocess.run([sys.executable, "-m", "toolc", "schema"], cwd=project,
                            capture_output=True, text=True, env=env, timeout=300, check=False)
    committed = (Path(__file__).parents[1] / "docs" / "spec.schema.json").read_text()
    assert schema.returncode == 0 and schema.stdout == committed
    usage = subprocess.run([sys.executable, "-m", "toolc", "build", "--no-such-option"],
                           cwd=project, capture_output=True, text=True, env=env, timeout=300,
                           check=False)
    assert usage.returncode == 2 and "No such option" in usage.stderr
    # under a profiler (or a coverage tracer) it ends as usual: their report comes after
    profiled = subprocess.run([sys.executable, "-m", "cProfile", "-m", "toolc", "--version"],
                              cwd=project, capture_output=True, text=True, env=env,
                              timeout=300, check=False)
    assert profiled.returncode == 0 and "function calls" in profiled.stdout


def test_progress_on_a_terminal_only(project: Path) -> None:
    """A real pseudo-terminal on stderr shows progress; a pipe stays quiet."""
    import pty

    env = {k: v for k, v in os.environ.items() if k != "CI"}
    cmd = [sys.executable, "-m", "toolc", "build", "--no-certify"]
    piped = subprocess.run(cmd, cwd=project, capture_output=True, text=True, env=env,
                           timeout=300, check=False)
    assert piped.returncode == 0 and "toolc:" not in piped.stderr
    spec = project / "specs" / "notes.toolc.yaml"  # changed, so not answered by the cache
    spec.write_text(spec.read_text() + "# edited\n")
    controller, terminal = pty.openpty()
    try:
        proc = subprocess.run([*cmd, "--check"], cwd=project, stdout=subprocess.PIPE,
                              stderr=terminal, env=env, timeout=300, check=False)
        os.close(terminal)
        shown = b""
        while True:
            try:
                chunk = os.read(controller, 4096)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(controller)
    assert proc.returncode == 0
    assert b"toolc: loading 1/1 specs/notes.toolc.yaml" in shown
    assert b"toolc: generating" in shown


def test_build_json_is_one_document(project: Path) -> None:
    code, out, _ = run("build", "--no-certify", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and doc["diagnostics"] == []
    assert [c["rule"] for c in doc["changes"]] == ["TOOL_ADDED"]
    assert doc["output"]["written"] == ["__init__.py", "notes.py", "schemas/notes/addNote.json"]
    (project / "specs" / "notes.toolc.yaml").write_text(GOOD.replace("addNote", "add note"))
    code, out, _ = run("build", "--check", "--no-certify", "--format", "json")
    doc = json.loads(out)
    assert code == 1 and doc["diagnostics"][0]["code"] == "TC301" and doc["output"] is None


VENDOR = """\
toolc: 1
module: vendor
toolsets:
  main:
    kind: external
    tools:
      open:
        input_schema:
          type: object
          properties:
            url: {type: string}
"""


@pytest.fixture
def vendored(project: Path) -> Path:
    """A third-party-like spec whose tools have no descriptions (TC201 warnings), and a
    copy of it as the project's own."""
    (project / "specs" / "vendor").mkdir()
    (project / "specs" / "vendor" / "desk.toolc.yaml").write_text(VENDOR)
    (project / "specs" / "own.toolc.yaml").write_text(VENDOR.replace("vendor", "own"))
    return project


def test_per_file_severity_silences_one_spec_and_keeps_the_others(vendored: Path) -> None:
    assert run("validate", "--strict")[0] == 1
    (vendored / "pyproject.toml").write_text(
        '[tool.toolc]\nspecs = "specs"\n\n[tool.toolc.per-file-severity]\n'
        '"specs/vendor/*.toolc.yaml" = { missing-description = "off" }\n')
    code, out, _ = run("validate", "--strict")
    assert code == 1
    assert "specs/vendor/" not in out
    assert "specs/own.toolc.yaml:7:7: warning[TC201]" in out
    (vendored / "specs" / "own.toolc.yaml").unlink()
    assert run("validate", "--strict") == (0, "ok: 2 module(s), no problems\n", "")


def test_inline_ignore_silences_its_line_and_strict_passes(vendored: Path) -> None:
    (vendored / "specs" / "own.toolc.yaml").unlink()
    spec = vendored / "specs" / "vendor" / "desk.toolc.yaml"
    spec.write_text(VENDOR.replace("      open:\n", "      open:  # toolc: ignore[TC201]\n")
                    .replace("{type: string}", "{type: string}  # toolc: ignore[TC201]"))
    assert run("validate", "--strict") == (0, "ok: 2 module(s), no problems\n", "")
    spec.write_text(VENDOR.replace("      open:\n", "      open:  # toolc: ignore[TC201]\n"))
    code, out, _ = run("validate", "--strict")
    assert code == 1 and "desk.toolc.yaml:11:13: warning[TC201]" in out
    assert "desk.toolc.yaml:7:7" not in out


def test_an_unused_ignore_is_reported_at_the_comment(project: Path) -> None:
    spec = project / "specs" / "notes.toolc.yaml"
    spec.write_text(GOOD.replace("addNote:\n", "addNote:  # toolc: ignore[TC201, TC302]\n"))
    code, out, _ = run("validate", "--strict")
    assert code == 1
    assert ("specs/notes.toolc.yaml:4:13: warning[TC022]: unused suppression: no TC201 or "
            "TC302 is reported on this line") in out
    assert run("validate")[0] == 0  # a warning: only --strict fails on it


def test_a_build_applies_suppressions_and_says_unused_ones_again_from_the_cache(
        project: Path) -> None:
    spec = project / "specs" / "notes.toolc.yaml"
    spec.write_text(GOOD.replace("addNote:\n", "addNote:  # toolc: ignore[TC302]\n"))
    for _ in range(2):  # the second build is up to date, and replays what it said
        code, out, _ = run("build", "--no-certify", "--strict")
        assert code == 1 and "4:13: warning[TC022]" in out


def test_an_undescribed_type_used_eight_times_is_one_diagnostic_at_the_type(
        project: Path) -> None:
    params = "".join(f"      p{i}: {{type: Id}}\n" for i in range(8))
    (project / "specs" / "notes.toolc.yaml").write_text(
        GOOD.replace("tools:\n", "types:\n  Id: {type: string}\ntools:\n")
        .replace("      text: {type: string, description: The note.}\n", params))
    code, out, _ = run("validate")
    assert code == 1
    assert out.count("[TC201]") == 1
    assert ("specs/notes.toolc.yaml:4:3: error[TC201]: type 'Id' has no description, "
            "nor have the 8 properties that use it") in out
    assert "used by parameter 'p0' of tool 'addNote' (line 10)" in out
    assert "and 3 more use(s)" in out


def test_an_unquoted_colon_in_a_description_says_to_quote_it(project: Path) -> None:
    (project / "specs" / "notes.toolc.yaml").write_text(
        GOOD.replace("Add a note.", "Add a note: public or private."))
    code, out, _ = run("validate")
    assert code == 1
    assert "specs/notes.toolc.yaml:5:28: error[TC003]: YAML syntax error: mapping values" in out
    assert "= note: a `: ` inside an unquoted value starts a mapping: quote the text or use `>`" in out
    assert '= note: as in: description: "Add a note: public or private."' in out


def test_an_empty_description_is_reported_at_the_empty_value(project: Path) -> None:
    (project / "specs" / "notes.toolc.yaml").write_text(
        GOOD.replace("description: Add a note.", 'description: ""'))
    code, out, _ = run("validate")
    assert code == 1
    assert ("specs/notes.toolc.yaml:5:18: error[TC201]: tool 'addNote' has an empty "
            "description") in out
    assert '5 |     description: ""\n  |                  ^^\n' in out


def test_severity_in_its_place_through_a_real_subprocess(vendored: Path) -> None:
    """`toolc validate --strict` as a process: a vendored spec's warnings silenced for it
    alone, the project's own silenced line by line, an unused suppression reported."""
    script = shutil.which("toolc") or str(Path(sys.executable).parent / "toolc")
    env = {k: v for k, v in os.environ.items() if k != "CI"}

    def strict() -> subprocess.CompletedProcess[str]:
        return subprocess.run([script, "validate", "--strict"], cwd=vendored,
                              capture_output=True, text=True, env=env, timeout=300,
                              check=False)

    (vendored / "pyproject.toml").write_text(
        '[tool.toolc]\nspecs = "specs"\n\n[tool.toolc.per-file-severity]\n'
        '"specs/vendor/*" = { TC201 = "off" }\n')
    own = vendored / "specs" / "own.toolc.yaml"
    own.write_text(VENDOR.replace("vendor", "own")
                   .replace("      open:\n", "      open:  # toolc: ignore[TC201]\n")
                   .replace("{type: string}", "{type: string}  # toolc: ignore[TC201]"))
    done = strict()
    assert (done.returncode, done.stdout) == (0, "ok: 3 module(s), no problems\n"), done.stdout
    own.write_text(own.read_text().replace("ignore[TC201]\n", "ignore[TC201, TC302]\n", 1))
    done = strict()
    assert done.returncode == 1 and "specs/own.toolc.yaml:7:14: warning[TC022]" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


def test_the_quick_exit_runs_exit_functions_and_flushes_with_the_code(tmp_path: Path) -> None:
    program = ("import atexit, sys\nfrom toolc.cli import quick_exit\n"
               "atexit.register(lambda: print('registered ran'))\n"
               "print('buffered', end=' ')\nsys.stderr.write('err')\nquick_exit(3)\n"
               "print('never')\n")
    done = subprocess.run([sys.executable, "-c", program], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (3, "buffered registered ran\n", "err")
