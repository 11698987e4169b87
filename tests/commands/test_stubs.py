"""``toolc stubs``: the missing handlers, printed or written into the project only; after
``--write`` the build finds every handler, and mypy --strict accepts the stubs against
the generated Protocols (and rejects one whose signature is then changed)."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from commands_support import build
from project_support import enter, make_project
from toolc.commands.stubs import run_stubs

ROOT = Path(__file__).resolve().parents[2]
VALID = ROOT / "tests" / "fixtures" / "valid"

SPEC = """\
toolc: 1
module: notes
types:
  Level: {description: How loud., enum: [low, high]}
tools:
  addNote:
    description: Add a note.
    handler: notes_app.tools:add_note
    params:
      text: {type: string, description: The note.}
      level: {type: Level, description: How loud it is., required: false}
    returns:
      type: object
      properties:
        id: {type: integer, description: The note's number.}
  listNotes:
    description: List the notes.
    handler: notes_app.tools:list_notes
"""
EXISTING = '''\
"""The notes app."""

from typing import Any

from toolc.runtime import RunContext

Level = "a name of the app's own"


def list_notes(ctx: RunContext[Any]) -> str:
    return "none"
'''


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    make_project(tmp_path, {"notes": SPEC}, output="generated", python_path=["app"],
                 files={"app/notes_app/__init__.py": "", "app/notes_app/tools.py": EXISTING})
    return enter(tmp_path, monkeypatch)


def stubs(module: str | None = None, write: bool = False) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_stubs(module, write=write, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def handlers(project: Path) -> str:
    return (project / "app" / "notes_app" / "tools.py").read_text()


def test_printing_shows_the_missing_handler_and_writes_nothing(project: Path) -> None:
    code, out, err = stubs()
    assert code == 0 and err == ""
    assert out.startswith("# app/notes_app/tools.py: 1 handler stub(s) for "
                          "specs/notes.toolc.yaml (added to it by `toolc stubs --write`)\n")
    assert "+def add_note(\n+    ctx: \"RunContext[Any]\",\n+    *,\n+    text: \"str\",\n" in out
    assert handlers(project) == EXISTING


def test_writing_appends_the_stub_once_and_keeps_what_is_there(project: Path) -> None:
    assert build() == 1  # TC341: add_note is missing
    code, out, _ = stubs(write=True)
    assert code == 0 and out == "wrote 1 handler stub(s) to app/notes_app/tools.py\n"
    text = handlers(project)
    assert text.startswith(EXISTING.split("\n\n\ndef")[0].split("Level =")[0])
    assert 'def list_notes(ctx: RunContext[Any]) -> str:\n    return "none"\n' in text
    # the names the stub needs, imported after the module's own imports, none twice; the
    # app's own `Level` keeps its name and the generated one is imported under another
    assert "if TYPE_CHECKING:\n    from generated.notes import AddNoteResult, Level as _Level\n" \
        in text and text.count("import RunContext") == 1 and text.count("import Any") == 1
    # no `from __future__ import annotations` in the module: annotations are strings
    assert 'def add_note(\n    ctx: "RunContext[Any]",\n    *,\n    text: "str",\n' \
           '    level: "_Level | None",\n) -> "AddNoteResult":\n    """Add a note."""\n' \
           "    raise NotImplementedError(" in text
    assert "tool 'addNote' of spec module 'notes'" in text
    compile(text, "tools.py", "exec")
    assert build() == 0  # the handler check finds it now
    assert stubs(write=True)[1] == "every handler the specs name exists\n"
    assert handlers(project) == text


def test_a_missing_module_is_created_with_its_packages(project: Path) -> None:
    spec = project / "specs" / "notes.toolc.yaml"
    spec.write_text(SPEC.replace("notes_app.tools:add_note", "notes_app.more.deep:add_note"))
    code, out, _ = stubs(write=True)
    assert code == 0 and "wrote 1 handler stub(s) to app/notes_app/more/deep.py" in out
    made = project / "app" / "notes_app" / "more"
    assert (made / "__init__.py").read_text() == ""
    text = (made / "deep.py").read_text()
    assert text.startswith('"""Handlers of specs/notes.toolc.yaml (stubs written by '
                           '`toolc stubs`)."""\n\nfrom __future__ import annotations\n')
    assert "    level: Level | None,\n) -> AddNoteResult:\n" in text
    assert build() == 0


def test_module_names_one_spec_module_and_an_unknown_one_is_refused(project: Path) -> None:
    (project / "specs" / "other.toolc.yaml").write_text(
        "toolc: 1\nmodule: other\ntools:\n  t:\n    description: T.\n"
        "    handler: notes_app.tools:other_one\n")
    code, out, _ = stubs("other")
    assert code == 0 and "def other_one(" in out and "add_note" not in out
    code, _, err = stubs("nope")
    assert code == 2 and "no spec module 'nope'; the project has notes, other" in err


def test_a_handler_module_outside_the_project_is_never_written(project: Path) -> None:
    spec = project / "specs" / "notes.toolc.yaml"
    spec.write_text(SPEC.replace("notes_app.tools:add_note", "json.decoder:add_note"))
    code, out, err = stubs(write=True)
    assert code == 2 and "outside the project" in err and "json.decoder" in err
    assert "wrote" not in out


def test_a_handler_module_through_a_link_is_never_written(project: Path,
                                                         tmp_path: Path) -> None:
    elsewhere = tmp_path.parent / f"{tmp_path.name}-elsewhere"
    elsewhere.mkdir()
    (elsewhere / "__init__.py").write_text("")
    (elsewhere / "far.py").write_text(EXISTING)
    (project / "app" / "linked").symlink_to(elsewhere, target_is_directory=True)
    spec = project / "specs" / "notes.toolc.yaml"
    spec.write_text(SPEC.replace("notes_app.tools:add_note", "linked.far:add_note"))
    code, _, err = stubs(write=True)
    assert code == 2 and "app/linked is a symbolic link" in err
    assert (elsewhere / "far.py").read_text() == EXISTING


def test_a_method_is_passed_over_with_a_note(project: Path) -> None:
    spec = project / "specs" / "notes.toolc.yaml"
    spec.write_text(SPEC.replace("notes_app.tools:add_note", "notes_app.tools:Notes.add"))
    code, out, err = stubs(write=True)
    assert code == 0 and "it is a method" in err
    assert out == "every handler the specs name exists\n" and handlers(project) == EXISTING


def test_specs_with_other_errors_say_them_and_write_nothing(project: Path) -> None:
    spec = project / "specs" / "notes.toolc.yaml"
    spec.write_text(SPEC.replace("description: Add a note.", "descripton: Add a note."))
    code, _, err = stubs(write=True)
    assert code == 1 and "error[TC101]" in err and handlers(project) == EXISTING


def test_without_a_python_path_there_is_nowhere_to_write(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.toolc]\nspecs = "specs"\n')
    code, _, err = stubs()
    assert code == 2 and "python-path" in err


# -- mypy accepts the stubs of every valid fixture ----------------------------------------

POLICY = '''\
"""The predicate, prepare function and wrapper of every_kind, for the stubbed project."""

from __future__ import annotations

from typing import Any

from toolc import runtime as rt


def always(ctx: rt.RunContext[Any]) -> bool:
    return True


def by_name(ctx: rt.RunContext[Any], tools: list[rt.ToolDefinition]
            ) -> list[rt.ToolDefinition]:
    return tools


class Logged(rt.WrapperToolset):
    pass
'''


@pytest.fixture
def stubbed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The valid fixtures' specs in one project, every handler pointing at a module of
    `stubbed` that does not exist (other code references at `policy`)."""
    count = iter(range(1000))
    specs = {}
    for case in ("every_kind", "names", "schemas", "workbench"):
        for spec in (VALID / case).glob("*.toolc.yaml"):
            text = re.sub(r"handler: fixture_handlers\.(\w+):(\w+)",
                          lambda m: f"handler: stubbed.{m[1]}:{m[2]}_{next(count)}",
                          spec.read_text())
            specs[spec.name.removesuffix(".toolc.yaml")] = text.replace(
                '"fixture_handlers.kinds:', '"policy:')
    make_project(tmp_path, specs, output="generated", python_path=["app"],
                 files={"app/policy.py": POLICY})
    return enter(tmp_path, monkeypatch)


def mypy(project: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MYPYPATH": os.pathsep.join([str(project), str(project / "app")])}
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(cache),
         "--no-error-summary", "-p", "generated", "-p", "stubbed", "-p", "policy"],
        capture_output=True, text=True, env=env, cwd=project, timeout=600, check=False)


def test_mypy_accepts_the_stubs_against_the_generated_protocols(stubbed: Path,
                                                                mypy_cache: Path) -> None:
    assert build() == 1  # TC340: no module stubbed
    code, _, err = stubs(write=True)
    assert code == 0, err
    assert sorted(p.name for p in (stubbed / "app" / "stubbed").iterdir()) == [
        "__init__.py", "kinds.py", "names.py", "schemas.py", "workbench.py"]
    assert build() == 0
    text = (stubbed / "app" / "stubbed" / "schemas.py").read_text()
    assert "**extra2: Any" in text and 'mode: Literal["fast", "slow"] | None' in text
    assert "    from generated import base\n" in \
        (stubbed / "app" / "stubbed" / "kinds.py").read_text()
    done = mypy(stubbed, mypy_cache)
    assert done.returncode == 0, done.stdout + done.stderr
    # The check is real: a stub whose parameter type no longer fits its tool is refused.
    workbench = stubbed / "app" / "stubbed" / "workbench.py"
    workbench.write_text(workbench.read_text().replace("    lines: int,", "    lines: bytes,"))
    # mypy's cache knows a file by its size and whole-second mtime: make both differ
    later = workbench.stat().st_mtime + 5
    os.utime(workbench, (later, later))
    done = mypy(stubbed, mypy_cache)
    assert done.returncode == 1 and "generated/workbench.py" in done.stdout
    shutil.rmtree(stubbed / "generated")


def test_on_the_bundled_specs_every_handler_exists(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    assert stubs() == (0, "every handler the specs name exists\n", "")
