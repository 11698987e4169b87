"""The LSP requests and notifications ``toolc lsp`` answers, each a small handler.

Every handler only converts between LSP and toolc's terms; the work is in the modules
it calls. Positions are converted in the code units negotiated at start.
"""

from __future__ import annotations

import logging
from pathlib import Path

from lsprotocol import types as lsp

from ..config import Config
from ..diagnostics import SpecError
from ..formatting import FormatBug, format_text
from .actions import quick_fixes, workspace_edit
from .completion import candidates, typing_at
from .hover import Changes, Closure, changes_against_disk, shown_for, target_at
from .index import CodeRef, Occurrence
from .navigation import Place, definition, references, rename_problem, renames, under
from .places import Lines, path_of, uri_of
from .server import ToolcServer

log = logging.getLogger(__name__)

_WATCHED = ("**/*.toolc.yaml", "**/pyproject.toml", "**/*.py", "**/*.json", "**/*.yaml",
            "**/*.yml")


async def initialized(ls: ToolcServer, params: lsp.InitializedParams) -> None:
    folders = list(ls.workspace.folders.values())
    first = path_of(folders[0].uri) if folders else None
    root = ls.workspace.root_path
    ls.root = (first or (Path(root) if root else ls.root)).absolute()
    ls.scheduler.changed(now=True)
    caps = ls.client_capabilities.workspace
    watching = caps.did_change_watched_files if caps is not None else None
    if watching is None or not watching.dynamic_registration:
        return  # saves of open files are still seen; other files at the next analysis
    try:
        await ls.client_register_capability_async(lsp.RegistrationParams([lsp.Registration(
            "toolc-files", lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            lsp.DidChangeWatchedFilesRegistrationOptions(
                [lsp.FileSystemWatcher(glob) for glob in _WATCHED]))]))
    except Exception:  # noqa: BLE001  # a client that refuses: files are read anew anyway
        log.info("toolc: the client watches no files for the server")


def folders_changed(ls: ToolcServer,
                    params: lsp.DidChangeWorkspaceFoldersParams) -> None:
    """The project is the first workspace folder: another one is analysed from now on."""
    folders = list(ls.workspace.folders.values())
    first = path_of(folders[0].uri) if folders else None
    if first is not None and first != ls.root:
        ls.root = first
        ls.scheduler.changed(now=True)


def did_open(ls: ToolcServer, params: lsp.DidOpenTextDocumentParams) -> None:
    ls.scheduler.changed()


def did_change(ls: ToolcServer, params: lsp.DidChangeTextDocumentParams) -> None:
    ls.scheduler.changed()


def did_save(ls: ToolcServer, params: lsp.DidSaveTextDocumentParams) -> None:
    ls.scheduler.changed()


def did_close(ls: ToolcServer, params: lsp.DidCloseTextDocumentParams) -> None:
    ls.scheduler.changed()


def files_changed(ls: ToolcServer, params: lsp.DidChangeWatchedFilesParams) -> None:
    ls.scheduler.changed()


async def hover(ls: ToolcServer, params: lsp.HoverParams) -> lsp.Hover | None:
    shown, config = ls.shown(params.text_document.uri), _config(ls)
    lines = ls.lines(shown) if shown else None
    if shown is None or lines is None or config is None:
        return None
    index = ls.current_index()
    target = target_at(index, shown, *lines.place(params.position))
    if target is None:
        return None
    key = ls.hovers.key(index, target.module)

    def work() -> tuple[Closure, Changes]:
        closure = ls.hovers.closure(config, key, ls.path)
        return closure, changes_against_disk(config, closure, target.module)

    closure, changes = await ls.in_worker(work)
    said = shown_for(target, closure, index, changes)
    if said is None:
        return None
    return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, said.markdown()))


def go_to(ls: ToolcServer, params: lsp.DefinitionParams) -> lsp.Location | None:
    item, _ = _under(ls, params.text_document.uri, params.position)
    config = _config(ls)
    if item is None or config is None:
        return None
    place = definition(ls.current_index(), item, config, ls.path)
    return _location(ls, place) if place is not None else None


def find_references(ls: ToolcServer, params: lsp.ReferenceParams) -> list[lsp.Location]:
    item, _ = _under(ls, params.text_document.uri, params.position)
    if not isinstance(item, Occurrence):
        return []
    found = references(ls.current_index(), item.symbol,
                       declaration=params.context.include_declaration)
    places = (_location(ls, Place(ls.path(o.span.path), o.span)) for o in found)
    return [p for p in places if p is not None]


def prepare_rename(ls: ToolcServer, params: lsp.PrepareRenameParams) -> lsp.Range | None:
    item, lines = _under(ls, params.text_document.uri, params.position)
    if not isinstance(item, Occurrence) or lines is None:
        return None
    return lines.range(item.span)


def rename(ls: ToolcServer, params: lsp.RenameParams) -> lsp.WorkspaceEdit | None:
    item, _ = _under(ls, params.text_document.uri, params.position)
    if not isinstance(item, Occurrence):
        return None
    problem = rename_problem(item.symbol, params.new_name)
    if problem is not None:
        raise ValueError(problem)  # pygls answers with an error the editor shows
    spans = renames(ls.current_index(), item.symbol)
    return workspace_edit([(s, params.new_name) for s in spans], ls.lines, ls.path)


def complete(ls: ToolcServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    shown, config = ls.shown(params.text_document.uri), _config(ls)
    lines = ls.lines(shown) if shown else None
    if shown is None or lines is None or config is None:
        return lsp.CompletionList(is_incomplete=False, items=[])
    index = ls.current_index()
    line, col = lines.place(params.position)
    typing = typing_at(lines.lines, line, col)
    module = index.files[shown].module if shown in index.files else None
    found = candidates(typing, index, module, config) if typing is not None else []
    start = lines.position(line, col - len(typing.prefix)) if typing else params.position
    span = lsp.Range(start, params.position)
    kind = lsp.CompletionItemKind.Reference
    return lsp.CompletionList(is_incomplete=False, items=[
        lsp.CompletionItem(label, kind=kind, detail=what, filter_text=label,
                           text_edit=lsp.TextEdit(span, label))
        for label, what in found if typing is not None and label.startswith(typing.prefix)])


def code_actions(ls: ToolcServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    return quick_fixes(params.context.diagnostics, ls.lines, ls.path)


def format_document(ls: ToolcServer,
                    params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit] | None:
    """The buffer in ``toolc fmt``'s layout: its one formatter, on the unsaved text."""
    doc = ls.workspace.get_text_document(params.text_document.uri)
    shown = ls.shown(doc.uri) or doc.uri
    try:
        new = format_text(doc.source, shown)
    except SpecError:
        ls.window_log_message(lsp.LogMessageParams(lsp.MessageType.Info, (
            f"toolc: {shown} was not formatted: it does not parse (its diagnostics say where)")))
        return None
    except FormatBug as exc:
        ls.window_show_message(lsp.ShowMessageParams(lsp.MessageType.Error, (
            f"toolc: {exc}; {shown} was left as it is (a bug of toolc fmt: please report it)")))
        return None
    if new == doc.source:
        return None
    lines = Lines(doc.source, ls.workspace.position_codec)
    end = lines.position(len(lines.lines), len(lines.lines[-1]) + 1)
    return [lsp.TextEdit(lsp.Range(lsp.Position(0, 0), end), new)]


def register(server: ToolcServer) -> None:
    """Every feature on ``server``."""
    server.feature(lsp.INITIALIZED)(initialized)
    server.feature(lsp.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)(folders_changed)
    server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)(did_open)
    server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)(did_change)
    server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)(did_save)
    server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)(did_close)
    server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)(files_changed)
    server.feature(lsp.TEXT_DOCUMENT_HOVER)(hover)
    server.feature(lsp.TEXT_DOCUMENT_DEFINITION)(go_to)
    server.feature(lsp.TEXT_DOCUMENT_REFERENCES)(find_references)
    server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)(prepare_rename)
    server.feature(lsp.TEXT_DOCUMENT_RENAME)(rename)
    server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(
        trigger_characters=[" ", ":", ".", "[", ","]))(complete)
    server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION, lsp.CodeActionOptions(
        code_action_kinds=[lsp.CodeActionKind.QuickFix]))(code_actions)
    server.feature(lsp.TEXT_DOCUMENT_FORMATTING)(format_document)


def _config(ls: ToolcServer) -> Config | None:
    return ls.latest.config if ls.latest is not None else None


def _under(ls: ToolcServer, uri: str,
           position: lsp.Position) -> tuple[Occurrence | CodeRef | None, Lines | None]:
    shown = ls.shown(uri)
    lines = ls.lines(shown) if shown else None
    if shown is None or lines is None:
        return None, None
    return under(ls.current_index(), shown, *lines.place(position)), lines


def _location(ls: ToolcServer, place: Place) -> lsp.Location | None:
    if place.path.suffix == ".py":
        try:
            text = place.path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None
        lines: Lines | None = Lines(text, ls.workspace.position_codec)
    else:
        lines = ls.lines(ls.shown(uri_of(place.path)) or str(place.path))
    if lines is None:
        return None
    return lsp.Location(uri_of(place.path), lines.range(place.span))


__all__ = ["register"]
