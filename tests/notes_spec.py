"""The smallest project spec the build and CLI tests share: one module, one tool."""

from pathlib import Path

from toolc.config import Config, load_config

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


def wrapped_notes_project(root: Path) -> Config:
    """A project of the wrapped notes spec in ``root``, its handler and wrapper on the
    python-path."""
    (root / "pyproject.toml").write_text(
        '[tool.toolc]\nspecs = "specs"\npython-path = ["handlers"]\n')
    (root / "specs").mkdir()
    (root / "specs" / "notes.toolc.yaml").write_text(WRAPPED_NOTES_SPEC)
    (root / "handlers").mkdir()
    (root / "handlers" / "notes_wrap.py").write_text(NOTES_WRAPPER)
    # (references are looked up in the sources: the handler must be there)
    (root / "handlers" / "notes_app.py").write_text("def add(ctx, text): ...\n")
    return load_config(root)


def edit(path: Path, old: str, new: str) -> None:
    path.write_text(path.read_text().replace(old, new))
