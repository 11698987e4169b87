"""What the command tests share: a small spec, a git repository, and the commands called
in process (``toolc build`` writing without certification, ``toolc diff``)."""

from __future__ import annotations

import io
import subprocess
from pathlib import Path

from project_support import TAGGED_NOTES_SPEC, make_project, pyproject
from toolc.commands.build import run_build
from toolc.commands.diff import run_diff

SPEC = TAGGED_NOTES_SPEC


def committed_project(root: Path, spec: str, text: str) -> Path:
    """``root`` as a project of one spec (``specs/<spec>``), built and committed in a new
    git repository: the base of the next comparison. The caller is in ``root``."""
    make_project(root, {spec.removesuffix(".toolc.yaml"): text})
    assert build() == 0
    git(root, "init", "-q", "-b", "main")
    commit(root, "base")
    return root


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def commit(repo: Path, message: str) -> None:
    """Everything in the working tree, committed: the base of the next comparison."""
    git(repo, "add", "-A")
    git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", message)


def build() -> int:
    return run_build(check=False, write=True, certify=False, fmt="text", strict=False,
                     out=io.StringIO(), err=io.StringIO())


def diff(*folders: str, against: str | None = None, fmt: str = "text",
         fail_on: str | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    old = folders[0] if folders else None
    new = folders[1] if len(folders) > 1 else None
    code = run_diff(old, new, against=against, fmt=fmt, fail_on=fail_on, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def edit(repo: Path, old: str, new: str) -> None:
    path = repo / "specs" / "notes.toolc.yaml"
    path.write_text(path.read_text().replace(old, new))


def relax_missing_descriptions(repo: Path, extra: str = "") -> None:
    """A team that made TC201 a warning: the diff must still catch the loss."""
    (repo / "pyproject.toml").write_text(pyproject(
        extra=f'[tool.toolc.severity]\nmissing-description = "warning"\n{extra}'))


BREAKING = [("required: false", "required: true"),
            ("        description: Labels for the note.\n", "")]


def cli(*args: str) -> tuple[int, str, str]:
    from click.testing import CliRunner
    from toolc.cli import main

    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


# -- five specs, one of whose tools the four others import and export (issue 22) ---------

CORE = SPEC.replace("module: notes\n", "module: core\n") + """\
  listNotes:
    description: List the notes.
    handler: notes_app:list_notes
    params:
      limit: {type: integer, description: How many., maximum: 500, default: 50}
  findNote:
    description: Find a note by its text.
    handler: notes_app:find
    params:
      query: {type: string, description: What to look for.}
toolsets:
  main: {kind: function, tools: [addNote, listNotes, findNote]}
export: main
"""
EXPORTERS = ("alpha", "beta", "gamma", "delta")


def exporter(module: str) -> str:
    """A module with a tool of its own that exports core's tools beside it."""
    return (f"toolc: 1\nmodule: {module}\ntools:\n  {module}Ping:\n"
            f"    description: Ping {module}.\n    handler: notes_app:ping\n"
            f"toolsets:\n  own: {{kind: function, tools: [{module}Ping]}}\n"
            f"  main: {{kind: combined, toolsets: [own, core.main]}}\nexport: main\n")


# The five edits of the issue: a bound tightened, a description lost, a description
# changed, a property made required, a tool renamed (nothing else of it changed).
FIVE_EDITS = [("maximum: 500", "maximum: 100"),
              ("        description: Labels for the note.\n", ""),
              ("description: Add a note.", "description: Add a note to the notebook."),
              ("required: false", "required: true"),
              ("  findNote:", "  searchNotes:"), ("listNotes, findNote]", "listNotes, searchNotes]")]


def reexports_repo(repo: Path, edits: list[tuple[str, str]] = FIVE_EDITS) -> Path:
    """The repository with the five specs committed and built, then core's spec edited."""
    (repo / "specs" / "notes.toolc.yaml").unlink()
    relax_missing_descriptions(repo)
    spec = repo / "specs" / "core.toolc.yaml"
    spec.write_text(CORE)
    for module in EXPORTERS:
        (repo / "specs" / f"{module}.toolc.yaml").write_text(exporter(module))
    assert build() == 0
    git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "add", "-A")
    git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "five specs")
    text = CORE
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    spec.write_text(text)
    return spec
