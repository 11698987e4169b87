"""A real LSP client (pytest-lsp's) talking to ``toolc lsp`` run as an editor runs it.

``session(root)`` starts ``python -m toolc lsp`` in its own process over stdio, in the
project folder ``root``, initialises it as an editor would (the workspace folder, the
capabilities of a VS Code client) and ends it with shutdown and exit. The helpers wait
for what the server publishes, bounded in minutes only so that a bug fails rather than
hangs.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

from forkserver_support import python_cmd
from lsprotocol import types as lsp
from pygls.protocol import default_converter
from pytest_lsp import LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

ROOT = Path(__file__).resolve().parents[2]
PATIENCE_S = float(os.environ.get("TOOLC_LSP_PATIENCE", "300"))  # a bug fails instead of hanging; nothing here is timed


class Published:
    """Every publishDiagnostics the client got, the last per file, and a wake-up."""

    def __init__(self) -> None:
        self.last: dict[str, lsp.PublishDiagnosticsParams] = {}
        self.changed = asyncio.Event()

    def __call__(self, params: lsp.PublishDiagnosticsParams) -> None:
        self.last[params.uri] = params
        self.changed.set()

    async def wait(self, path: Path, version: int | None = None) -> list[lsp.Diagnostic]:
        """``path``'s diagnostics once published (for ``version`` of its buffer, if given)."""
        wanted = uri(path)

        async def until() -> list[lsp.Diagnostic]:
            while True:
                found = self.last.get(wanted)
                if found is not None and (version is None or found.version == version):
                    return list(found.diagnostics)
                self.changed.clear()
                await self.changed.wait()

        return await asyncio.wait_for(until(), PATIENCE_S)


def published(client: LanguageClient) -> Published:
    return client.published  # type: ignore[attr-defined,no-any-return]


@contextlib.asynccontextmanager
async def session(root: Path) -> AsyncIterator[LanguageClient]:
    client = LanguageClient(converter_factory=default_converter)
    recorder = Published()
    client.published = recorder  # type: ignore[attr-defined]
    features = {method: f for method, f in DEFAULT_CLIENT_FEATURES.items()
                if method != lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS}
    register_lsp_features(client, {**features, lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS:
                                   recorder,
                                   lsp.CLIENT_REGISTER_CAPABILITY: lambda params: None})
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    await client.start_io(*python_cmd("-m", "toolc", "lsp"), cwd=str(root), env=env)
    try:
        await client.initialize_session(lsp.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=root.as_uri(),
            workspace_folders=[lsp.WorkspaceFolder(root.as_uri(), root.name)]))
        yield client
    finally:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(client.shutdown_session(), PATIENCE_S)
        with contextlib.suppress(Exception):
            await client.stop()


def uri(path: Path) -> str:
    return path.absolute().as_uri()


async def diagnostics_of(client: LanguageClient, path: Path, *,
                         version: int | None = None) -> list[lsp.Diagnostic]:
    """The diagnostics of ``path`` once published (for ``version`` of its buffer)."""
    return await published(client).wait(path, version)


def switch(client: LanguageClient, old: Path, new: Path) -> None:
    """The editor's workspace folder is now ``new`` (the project the server analyses)."""
    client.workspace_did_change_workspace_folders(lsp.DidChangeWorkspaceFoldersParams(
        lsp.WorkspaceFoldersChangeEvent(added=[lsp.WorkspaceFolder(new.as_uri(), new.name)],
                                        removed=[lsp.WorkspaceFolder(old.as_uri(), old.name)])))


def open_spec(client: LanguageClient, path: Path, text: str | None = None,
              version: int = 1) -> str:
    text = path.read_text(encoding="utf-8") if text is None else text
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        lsp.TextDocumentItem(uri(path), "yaml", version, text)))
    return text


def change(client: LanguageClient, path: Path, text: str, version: int) -> None:
    """The whole buffer replaced by ``text`` (as a client sends a full change)."""
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(version, uri(path)),
        [lsp.TextDocumentContentChangeWholeDocument(text)]))


def bundled(into: Path) -> Path:
    """A copy of the repository's own project: its specs, handlers and golden files."""
    root = into / "project"
    for part in ("specs", "examples", "generated"):
        shutil.copytree(ROOT / part, root / part)
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    return root


def at(text: str, needle: str, offset: int = 0) -> lsp.Position:
    """The position of ``needle`` (plus ``offset`` characters) in ``text``."""
    index = text.index(needle) + offset
    line = text.count("\n", 0, index)
    return lsp.Position(line, index - (text.rfind("\n", 0, index) + 1))


def doc(path: Path) -> lsp.TextDocumentIdentifier:
    return lsp.TextDocumentIdentifier(uri(path))


async def hover_text(client: LanguageClient, path: Path, position: lsp.Position) -> str:
    """What the editor shows on hovering at ``position`` (empty: nothing)."""
    hover = await client.text_document_hover_async(lsp.HoverParams(doc(path), position))
    contents = hover.contents if hover is not None else None
    return contents.value if isinstance(contents, lsp.MarkupContent) else ""


def applied(text: str, edits: list[lsp.TextEdit]) -> str:
    """``text`` with ``edits`` made as an editor makes them (columns in characters: the
    texts here are ASCII, where UTF-16 counts the same)."""
    lines = text.split("\n")
    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character),
                    reverse=True):
        s, t = e.range.start, e.range.end
        head, tail = lines[s.line][:s.character], lines[t.line][t.character:]
        lines[s.line:t.line + 1] = (head + e.new_text + tail).split("\n")
    return "\n".join(lines)
