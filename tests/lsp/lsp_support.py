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
import sys
from collections.abc import AsyncIterator
from pathlib import Path

from lsprotocol import types as lsp
from pytest_lsp import LanguageClient, client_capabilities, make_test_lsp_client

PATIENCE_S = 300.0  # a bug fails instead of hanging; nothing here is timed


@contextlib.asynccontextmanager
async def session(root: Path) -> AsyncIterator[LanguageClient]:
    client = make_test_lsp_client()
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    await client.start_io(sys.executable, "-m", "toolc", "lsp", cwd=str(root), env=env)
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
    wanted = uri(path)

    async def wait() -> list[lsp.Diagnostic]:
        while True:
            params = await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
            if params.uri == wanted and (version is None or params.version == version):
                return list(params.diagnostics)

    return await asyncio.wait_for(wait(), PATIENCE_S)


async def settled(client: LanguageClient, path: Path) -> list[lsp.Diagnostic]:
    """The diagnostics of ``path`` the first analysis published (none: an empty list)."""
    wanted = uri(path)
    if wanted in client.diagnostics:
        return list(client.diagnostics[wanted])
    return await diagnostics_of(client, path)


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
