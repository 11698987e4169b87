"""What the command tests share: a small spec, a git repository, and the commands called
in process (``toolc build`` writing without certification, ``toolc diff``)."""

from __future__ import annotations

import io
import subprocess
from pathlib import Path

from toolc.commands.build import run_build
from toolc.commands.diff import run_diff

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
    (repo / "pyproject.toml").write_text('[tool.toolc]\nspecs = "specs"\n[tool.toolc.severity]\n'
                                         f'missing-description = "warning"\n{extra}')


BREAKING = [("required: false", "required: true"),
            ("        description: Labels for the note.\n", "")]


def cli(*args: str) -> tuple[int, str, str]:
    from click.testing import CliRunner
    from toolc.cli import main

    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr
