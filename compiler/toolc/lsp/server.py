"""The language server itself (``ToolcServer``, a pygls ``LanguageServer``): its state and
its one worker thread.

The server keeps the project analysed as the editor holds it. Each change to an open
spec (or a file saved or changed on disk) schedules an analysis (:mod:`.schedule`),
whose diagnostics are published for every spec of the project (:mod:`.reports`); hover,
definition, references, completion, code actions, rename and formatting answer from
the specs' names (:mod:`.index`), the analyses of closures (:mod:`.hover`) and the
diagnostics' own fixes (:mod:`.actions`). Analyses and hovers run in one worker thread,
one at a time; requests wait for nothing else.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol

from .. import __version__
from ..specs import SPEC_SUFFIX
from .analysis import Analysis, Snapshot, analyse
from .hover import Hovers
from .index import Index
from .places import Lines, path_of, uri_of
from .reports import cleared, published
from .schedule import Scheduler

log = logging.getLogger(__name__)


class Protocol(LanguageServerProtocol):
    """pygls's protocol, letting go of each notification's future once it is handled.

    pygls 2.1 files the future of a notification handled by a generator, coroutine or
    thread (``textDocument/didChange`` among them) under a fresh id in
    ``_request_futures``, which only a request's response takes out again: an editor's
    every keystroke left one behind (about 1 KiB, seen with tracemalloc in bench/lsp.py's
    hour of edits)."""

    def _check_handler_result(self, future: Any) -> None:
        try:
            super()._check_handler_result(future)
        finally:
            done = [key for key, kept in self._request_futures.items() if kept is future]
            for key in done:
                del self._request_futures[key]


class ToolcServer(LanguageServer):
    """The server's state: the project's root, the last analysis, the names' index."""

    def __init__(self) -> None:
        super().__init__("toolc", __version__,
                         text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental,
                         protocol_cls=Protocol)
        self.root = Path.cwd()
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="toolc-analysis")
        self.latest: Analysis | None = None
        self.index = Index()
        self.hovers = Hovers()
        self.shown_uris: set[str] = set()   # files with diagnostics published
        self._scheduler: Scheduler | None = None

    @property
    def scheduler(self) -> Scheduler:
        if self._scheduler is None:  # made on the event loop, at the first change
            self._scheduler = Scheduler(self.worker, self.snapshot, self.analyse, self.publish)
        return self._scheduler

    # -- analysis ---------------------------------------------------------------------

    def snapshot(self, generation: int) -> Snapshot:
        """The open specs' texts and versions, now."""
        overlay: dict[Path, bytes] = {}
        versions: dict[Path, int] = {}
        for uri, doc in list(self.workspace.text_documents.items()):
            path = path_of(uri)
            if path is None or not path.name.endswith(SPEC_SUFFIX):
                continue
            overlay[path] = doc.source.encode("utf-8", "surrogatepass")
            if doc.version is not None:
                versions[path] = doc.version
        return Snapshot(generation, overlay, versions)

    def analyse(self, snapshot: Snapshot) -> Analysis:
        return analyse(self.root, snapshot)

    def publish(self, analysis: Analysis) -> None:
        """On the event loop's thread, as every use of the index."""
        self.latest = analysis
        if analysis.compiled is not None:
            self.index.update(analysis.compiled.sources)
        made = published(analysis, self.workspace.position_codec)
        for uri, items in made.by_uri.items():
            self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
                uri=uri, diagnostics=items, version=made.versions.get(uri)))
        # Every open spec hears of each analysis (an empty list: it is clean now).
        for uri in sorted(set(cleared(self.shown_uris, made)) | (set(made.versions)
                                                                   - set(made.by_uri))):
            self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
                uri=uri, diagnostics=[], version=made.versions.get(uri)))
        self.shown_uris = set(made.by_uri)

    # -- what requests read -----------------------------------------------------------

    def shown(self, uri: str) -> str | None:
        """A file as diagnostics name it (relative to the project's root)."""
        path = path_of(uri)
        if path is None:
            return None
        config = self.latest.config if self.latest is not None else None
        return config.relative(path) if config is not None else str(path)

    def path(self, shown: str) -> Path:
        return Path(shown) if Path(shown).is_absolute() else self.root / shown

    def text(self, shown: str) -> str | None:
        """A spec's text now: the open buffer's, else the file's as last analysed."""
        doc = self.workspace.text_documents.get(uri_of(self.path(shown)))
        if doc is not None:
            return str(doc.source)
        if self.latest is not None:
            return self.latest.text_of(shown)
        return None

    def lines(self, shown: str) -> Lines | None:
        text = self.text(shown)
        return None if text is None else Lines(text, self.workspace.position_codec)

    def current_index(self) -> Index:
        """The index, brought up to the open buffers' texts."""
        texts = {shown: f.text for shown, f in self.index.files.items()}
        for uri, doc in list(self.workspace.text_documents.items()):
            shown = self.shown(uri)
            if shown is not None and uri.endswith(SPEC_SUFFIX):
                texts[shown] = doc.source
        self.index.update(texts)
        return self.index

    async def in_worker(self, work: Any, *args: Any) -> Any:
        """``work(*args)`` in the worker thread, after the analysis it may be running."""
        return await asyncio.get_running_loop().run_in_executor(self.worker, work, *args)


__all__ = ["ToolcServer"]
