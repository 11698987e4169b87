"""Formatting through a real client: the buffer becomes exactly what ``toolc fmt`` writes.

The same texts are opened unsaved in ``toolc lsp`` and written to the files ``toolc fmt``
formats (the command run as a user runs it); what the editor's edits make of each buffer
must be the file's bytes after ``toolc fmt``, byte for byte: a spec in another layout,
with comments and a suppression; the same with CRLF line breaks; a bundled spec as it
is committed (nothing to do for either); and a spec that does not parse (no edit, and
``toolc fmt`` leaves the file too).
"""

from __future__ import annotations

import asyncio
import os
import subprocess
from pathlib import Path

import pytest
from forkserver_support import python_cmd
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from .lsp_support import PATIENCE_S, applied, bundled, change, doc, open_spec, session

NOTES = """\
module: notes
toolc: 1
# The one tool.
tools:
    addNote:
        params:
            text:   {type: string, description: "The note."}  # toolc: ignore[TC999]
        handler: 'notes_app:add'
        description: Add a note.
"""
BROKEN = "toolc: 1\nmodule: broken\ntools: [unclosed\n"


def doubled(text: str) -> str:
    """Every line indented twice as deep (the same YAML, in another layout)."""
    return "".join(" " * (len(line) - len(line.lstrip(" "))) + line
                   for line in text.splitlines(keepends=True))


def toolc_fmt(root: Path) -> subprocess.CompletedProcess[str]:
    """``toolc fmt`` run in the project as a user runs it."""
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    return subprocess.run(python_cmd("-m", "toolc", "fmt"), cwd=root, env=env,
                          capture_output=True, text=True, timeout=PATIENCE_S, check=False)


async def formatted(client: LanguageClient, path: Path, text: str) -> str | None:
    """What the editor's buffer holding ``text`` becomes (None: the server made no edit)."""
    edits = await client.text_document_formatting_async(
        lsp.DocumentFormattingParams(doc(path), lsp.FormattingOptions(2, True)))
    return None if edits is None else applied(text, list(edits))


@pytest.mark.asyncio
async def test_the_formatted_buffer_is_what_toolc_fmt_writes(tmp_path: Path) -> None:
    root = bundled(tmp_path)
    specs = root / "specs"
    texts = {
        "notes": NOTES,
        "crlf": NOTES.replace("notes", "crlf").replace("\n", "\r\n"),
        "workbench": doubled((specs / "workbench.toolc.yaml").read_text(encoding="utf-8")),
        "showcase": (specs / "showcase.toolc.yaml").read_text(encoding="utf-8"),
        "broken": BROKEN,
    }
    paths = {name: specs / f"{name}.toolc.yaml" for name in texts}
    for name, text in texts.items():
        paths[name].write_bytes(text.encode("utf-8"))

    seen: dict[str, str | None] = {}
    async with session(root) as client:
        for name, text in texts.items():
            open_spec(client, paths[name], text)
            seen[name] = await formatted(client, paths[name], text)
        # The server's result is formatted already: formatting it again changes nothing.
        again = seen["workbench"]
        assert again is not None
        change(client, paths["workbench"], again, 2)
        assert await formatted(client, paths["workbench"], again) is None

    run = await asyncio.to_thread(toolc_fmt, root)
    assert run.returncode == 2, run.stdout + run.stderr  # broken.toolc.yaml does not parse
    written = {name: path.read_bytes().decode("utf-8") for name, path in paths.items()}

    for name in ("notes", "crlf", "workbench"):
        assert seen[name] is not None and seen[name] != texts[name], name
        assert seen[name] == written[name], name
    assert "\r" not in written["crlf"]
    assert "# The one tool.\ntools:\n" in written["notes"]
    assert "      text: {type: string, description: The note.}  # toolc: ignore[TC999]\n" \
        in written["notes"]
    # Committed specs are formatted: no edit, and toolc fmt leaves the file as it is.
    assert seen["showcase"] is None and written["showcase"] == texts["showcase"]
    assert seen["broken"] is None and written["broken"] == BROKEN
