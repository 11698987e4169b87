"""`toolc diff` end to end: folders, a real git history, the current build, and fail-on."""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path

import pytest
from toolc.actions import run_build, run_diff

SPEC = """\
toolc: 1
module: notes
tools:
  addNote:
    description: Add a note.
    handler: notes_app:add
    params:
      text: {type: string, description: The note.}
      tags:
        type: array
        description: Labels for the note.
        items: {type: string}
        required: false
"""


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text('[tool.toolc]\nspecs = "specs"\n')
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "notes.toolc.yaml").write_text(SPEC)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CI", raising=False)
    assert build() == 0
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "-c", "user.email=t@t", "-c", "user.name=t", "add", ".")
    git(tmp_path, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "base")
    return tmp_path


def build() -> int:
    return run_build(check=False, write=True, certify=False, fmt="text", strict=False,
                     out=io.StringIO(), err=io.StringIO())


def diff(*folders: str, against: str | None = None, fmt: str = "text",
         fail_on: str = "error") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    old = folders[0] if folders else None
    new = folders[1] if len(folders) > 1 else None
    code = run_diff(old, new, against=against, fmt=fmt, fail_on=fail_on, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def edit(repo: Path, old: str, new: str) -> None:
    path = repo / "specs" / "notes.toolc.yaml"
    path.write_text(path.read_text().replace(old, new))


def test_nothing_changed(repo: Path) -> None:
    quiet = (0, "No changes in the published tools.\n", "")
    assert diff() == quiet
    assert diff(against="HEAD") == quiet


def relax_missing_descriptions(repo: Path, extra: str = "") -> None:
    """A team that made TC201 a warning: the diff must still catch the loss."""
    (repo / "pyproject.toml").write_text('[tool.toolc]\nspecs = "specs"\n[tool.toolc.severity]\n'
                                         f'missing-description = "warning"\n{extra}')


def test_a_dropped_description_fails_against_the_committed_golden_files(repo: Path) -> None:
    relax_missing_descriptions(repo)
    edit(repo, "        description: Labels for the note.\n", "")
    code, out, _ = diff(fmt="json")
    assert code == 1
    [change] = json.loads(out)["changes"]
    assert (change["tool"], change["rule"], change["severity"]) == (
        "notes/addNote", "DESCRIPTION_REMOVED", "error")
    assert change["pointer"] == "/inputSchema/properties/tags/description"


def test_against_a_git_ref_after_the_author_rebuilt(repo: Path) -> None:
    edit(repo, "required: false", "required: true")
    assert build() == 0
    assert diff()[0] == 0  # the working tree's golden files match the build
    code, out, _ = diff(against="HEAD")
    assert code == 1 and "REQUIRED_ADDED" in out
    assert diff(against="HEAD", fail_on="never")[0] == 0


def test_two_folders_and_markdown(repo: Path, tmp_path: Path) -> None:
    old = repo / "generated" / "schemas"
    new = tmp_path / "new"
    (new / "notes").mkdir(parents=True)
    tool = json.loads((old / "notes" / "addNote.json").read_text())
    tool["inputSchema"]["properties"]["text"]["maxLength"] = 100
    (new / "notes" / "addNote.json").write_text(json.dumps(tool))
    code, out, _ = diff(str(old), str(new), fmt="markdown")
    assert code == 1 and "CONSTRAINT_TIGHTENED" in out and "### Schema changes" in out
    code, out, _ = diff(str(old), str(new), fmt="github", fail_on="never")
    assert code == 0 and out.startswith("::error file=")


def test_info_changes_pass_by_default_and_fail_on_info(repo: Path) -> None:
    edit(repo, "Add a note.", "Add a note to the notebook.")
    assert diff()[0] == 0
    assert diff(fail_on="info")[0] == 1


def test_accepted_change_does_not_fail(repo: Path) -> None:
    edit(repo, "        description: Labels for the note.\n", "")
    relax_missing_descriptions(repo, '[[tool.toolc.diff.accept]]\ntool = "addNote"\n'
                               'rule = "DESCRIPTION_REMOVED"\nreason = "tags explain themselves"\n')
    code, out, _ = diff()
    assert code == 0 and "DESCRIPTION_REMOVED" in out and "tags explain themselves" in out


def test_bad_inputs_are_clear_errors(repo: Path) -> None:
    code, _, err = diff(against="no-such-ref")
    assert code == 1 and "unknown git ref 'no-such-ref'" in err
    (repo / "bad").mkdir()
    (repo / "bad" / "x.json").write_text("{not json")
    code, _, err = diff("bad", "generated/schemas")
    assert code == 1 and "not valid JSON" in err
    edit(repo, "toolc: 1", "toolc: 3")
    code, _, err = diff()
    assert code == 1 and "TC104" in err


HIDDEN = """\
  .hidden:
    description: A tool whose golden file's name starts with a dot.
    handler: notes_app:hidden
    params:
      secret: {type: string, description: What the tool needs.}
      other: {type: string, description: Something else., required: false}
"""


def test_a_tool_published_with_a_leading_dot_is_compared_like_any_other(repo: Path) -> None:
    (repo / "specs" / "notes.toolc.yaml").write_text(SPEC + HIDDEN)
    assert build() == 0 and (repo / "generated" / "schemas" / "notes" / ".hidden.json").exists()
    git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "add", ".")
    git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "hidden")
    edit(repo, "      secret: {type: string, description: What the tool needs.}\n", "")
    for against in (None, "HEAD"):
        code, out, err = diff(against=against)
        assert code == 1 and "PROPERTY_REMOVED" in out and "notes/.hidden" in out, err
    out = io.StringIO()
    code = run_build(check=True, write=False, certify=False, fmt="text", strict=False,
                     out=out, err=io.StringIO())
    assert code == 1 and "PROPERTY_REMOVED" in out.getvalue()
