"""A toolc project on disk, as the tests build one, and the specs several test modules
share: ``make_project`` writes ``pyproject.toml`` with its ``[tool.toolc]`` table, the
specs and the user's code (handler modules, wrappers, anything else by path); what a test
needs beyond the plain project it passes as arguments."""

from __future__ import annotations

import json
import shutil
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from toolc.cli import main
from toolc.config import Config, load_config

REPOSITORY = Path(__file__).resolve().parents[1]

NOTES_SPEC = """\
toolc: 1
module: notes
tools:
  addNote:
    description: Add a note.
    handler: notes_app:add
    params:
      text: {type: string, description: The note.}
"""

# The notes spec with a second, optional parameter: the diff tests drop its description
# and make it required.
TAGGED_NOTES_SPEC = NOTES_SPEC + """\
      tags:
        type: array
        description: Labels for the note.
        items: {type: string}
        required: false
"""

# The notes spec with its export wrapped: certification imports the wrapper (user code).
WRAPPED_NOTES_SPEC = NOTES_SPEC + """\
toolsets:
  app: {kind: function, tools: [addNote]}
  main: {kind: wrapper, inner: app, wrapper: notes_wrap:Pass}
export: main
"""

NOTES_WRAPPER = """\
from toolc import runtime as rt


class Pass(rt.WrapperToolset):
    pass
"""

# One tool reading a log: the certification tests' smallest spec.
LOGS_SPEC = """\
toolc: 1
module: logs
tools:
  readLog:
    description: Return the newest lines of the server log.
    handler: logs_app:read_log
    params:
      lines: {type: integer, description: How many lines to return., default: 50}
"""


# The test desk: one tool of each kind a server meets (one that says its text back after
# printing where stdout is the protocol, one that raises, one that refuses, one that asks
# for approval), served by the `toolc serve` tests (tests/serving, serve_support).
DESK_SPEC = """\
toolc: 1
module: desk
description: Tools of the test desk.
tools:
  echo:
    description: Say the text back.
    handler: desk_app:echo
    params:
      text: {type: string, description: What to say back., maxLength: 20}
  boom:
    description: Always fails.
    handler: desk_app:boom
  refuse:
    description: Fails on purpose.
    handler: desk_app:refuse
  shred:
    description: Shred a document, after asking.
    handler: desk_app:shred
    requires_approval: true
    params:
      doc: {type: string, description: Which document.}
"""

DESK_HANDLERS = """\
import sys

from toolc.runtime import ToolError

def echo(ctx, text):
    print("stray output that must not reach the protocol")
    return text

def boom(ctx):
    raise RuntimeError("the desk is on fire at /srv/secret/desk.db")

def refuse(ctx):
    raise ToolError("The drawer is locked; ask for the key first.")

SHREDDED = []

async def shred(ctx, doc):
    SHREDDED.append(doc)
    return f"shredded {doc} ({len(SHREDDED)} so far)"
"""


def pyproject(specs: str = "specs", *, output: str | None = None,
              python_path: Sequence[str] = (), extra: str = "") -> str:
    """The text of a ``pyproject.toml``: its ``[tool.toolc]`` table (``specs``, then
    ``output`` and ``python-path`` if given), then ``extra`` as it is (more keys of the
    table, or tables of its own such as ``[tool.toolc.severity]``)."""
    text = f"[tool.toolc]\nspecs = {json.dumps(specs)}\n"
    if output is not None:
        text += f"output = {json.dumps(output)}\n"
    if python_path:
        text += f"python-path = [{', '.join(json.dumps(p) for p in python_path)}]\n"
    return text + extra


def make_project(root: Path, specs: Mapping[str, str] | None = None, *,
                 files: Mapping[str, str | bytes] | None = None, specs_dir: str = "specs",
                 output: str | None = None, python_path: Sequence[str] = (),
                 extra: str = "") -> Path:
    """A project in ``root`` (made if missing): ``pyproject.toml`` (see ``pyproject``),
    each of ``specs`` (module name to text) as ``SPECS_DIR/NAME.toolc.yaml``, and each of
    ``files`` (a path relative to ``root`` to its text, or its bytes as they are: handler
    modules, wrappers, a server's tool list) with the folders it needs. Returns ``root``."""
    folder = root / specs_dir
    folder.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(
        pyproject(specs_dir, output=output, python_path=python_path, extra=extra),
        encoding="utf-8")
    for name, text in (specs or {}).items():
        (folder / f"{name}.toolc.yaml").write_text(text, encoding="utf-8")
    for path, content in (files or {}).items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            (root / path).write_bytes(content)
        else:
            (root / path).write_text(content, encoding="utf-8")
    return root


def desk_project(root: Path, name: str = "desk", spec: str = DESK_SPEC,
                 handlers: str = DESK_HANDLERS) -> Path:
    """A project of one spec in ``root`` (made if missing), as the serving tests use:
    ``specs/NAME.toolc.yaml``, its handler module ``NAME_app.py`` beside it on the
    python-path, ``generated`` the output folder. Returns ``root``."""
    return make_project(root, {name: spec}, output="generated", python_path=["."],
                        files={f"{name}_app.py": textwrap.dedent(handlers)})


def bundled_project(root: Path) -> Path:
    """The repository's own two-module project in ``root``: a copy of its ``specs/``, its
    ``examples/`` (the handlers) on the python-path. Returns ``root``."""
    shutil.copytree(REPOSITORY / "specs", root / "specs")
    shutil.copytree(REPOSITORY / "examples", root / "examples",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return make_project(root, output="generated", python_path=["examples"])


def enter(root: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``root`` as the current folder, outside CI (``CI`` set makes a build check rather
    than write), as a user's terminal in their project is. Returns ``root``."""
    monkeypatch.chdir(root)
    monkeypatch.delenv("CI", raising=False)
    return root


def build_in_process(root: Path, *args: str) -> Result:
    """``toolc build ARGS`` of the project in ``root``, in this process, outside CI and
    pre-commit: for a test's setup, where what matters is what the build leaves on disk
    for the child processes the test runs next, not the process that built it."""
    with pytest.MonkeyPatch.context() as m:
        enter(root, m)
        m.delenv("PRE_COMMIT", raising=False)
        return CliRunner().invoke(main, ["build", *args], catch_exceptions=False)


def wrapped_notes_project(root: Path) -> Config:
    """A project of the wrapped notes spec in ``root``, its handler and wrapper on the
    python-path."""
    # (references are looked up in the sources: the handler must be there)
    make_project(root, {"notes": WRAPPED_NOTES_SPEC}, python_path=["handlers"],
                 files={"handlers/notes_wrap.py": NOTES_WRAPPER,
                        "handlers/notes_app.py": "def add(ctx, text): ...\n"})
    return load_config(root)


def edit(path: Path, old: str, new: str) -> None:
    path.write_text(path.read_text().replace(old, new))
