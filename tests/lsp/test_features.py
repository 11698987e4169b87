"""Hover, definition, references, rename, completion and quick fixes, through a real client.

One ``toolc lsp`` session over a copy of the bundled project (its specs, handlers and
committed golden files), each request as an editor sends it, on buffers edited unsaved.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from .lsp_support import (
    applied,
    at,
    bundled,
    change,
    diagnostics_of,
    doc,
    hover_text,
    open_spec,
    session,
    uri,
)


@contextlib.asynccontextmanager
async def bundled_session(tmp_path: Path) -> AsyncIterator[tuple[LanguageClient, Path, Path]]:
    """A session on a copy of the bundled project, its two specs open and analysed
    clean: the client, workbench's spec and showcase's."""
    root = bundled(tmp_path)
    workbench, showcase = root / "specs/workbench.toolc.yaml", root / "specs/showcase.toolc.yaml"
    async with session(root) as client:
        open_spec(client, workbench)
        open_spec(client, showcase)
        for spec in (workbench, showcase):
            assert await diagnostics_of(client, spec, version=1) == []
        yield client, workbench, showcase


def labels_of(items: lsp.CompletionList | list[lsp.CompletionItem] | None) -> list[str]:
    return [i.label for i in (items.items if isinstance(items, lsp.CompletionList)
                              else items or [])]


@pytest.mark.asyncio
async def test_what_an_editor_asks_is_answered_from_the_project(tmp_path: Path) -> None:
    async with bundled_session(tmp_path) as (client, workbench, showcase):
        wb, sc = workbench.read_text(encoding="utf-8"), showcase.read_text(encoding="utf-8")

        # Hover: the golden text as published, its tokens; then an unsaved edit's change.
        said = await hover_text(client, workbench, at(wb, "readLog:"))
        assert '"name": "wb_readLog"' in said and "tokens upfront" in said
        assert "next build" not in said  # the golden file on disk is the same
        edited = wb.replace("How many lines to return.", "How many log lines to return.")
        change(client, workbench, edited, 2)
        assert await diagnostics_of(client, workbench, version=2) == []
        said = await hover_text(client, workbench, at(edited, "lines:", 2))
        assert "How many log lines to return." in said and '"maximum": 500' in said
        assert "next build: `DESCRIPTION_CHANGED`" in said, said

        # Definition across modules, of a handler in its Python file; references; rename.
        there = await client.text_document_definition_async(
            lsp.DefinitionParams(doc(showcase), at(sc, "workbench.main", 10)))
        assert isinstance(there, lsp.Location) and there.uri == uri(workbench)
        assert there.range.start == at(edited, "main: {kind")
        handler = await client.text_document_definition_async(
            lsp.DefinitionParams(doc(workbench), at(edited, "tools:read_log", 8)))
        assert isinstance(handler, lsp.Location) and handler.uri.endswith("workbench_app/tools.py")
        tools = workbench.parents[1] / "examples/workbench_app/tools.py"
        source = tools.read_text().split("\n")
        assert "def read_log" in source[handler.range.start.line]
        uses = await client.text_document_references_async(lsp.ReferenceParams(
            context=lsp.ReferenceContext(include_declaration=True), text_document=doc(showcase),
            position=at(sc, "Point:")))
        assert len(uses or []) == 3
        rename = await client.text_document_rename_async(lsp.RenameParams(
            doc(showcase), at(sc, "type: Point", 6), "Spot"))
        assert rename is not None and rename.changes is not None
        renamed = applied(sc, list(rename.changes[uri(showcase)]))
        assert "Spot:" in renamed and renamed.count("type: Spot") == 2 and "Point" not in renamed

        # Completion: named types where a type goes, handlers on the python-path.
        typing = edited.replace("type: Severity", "type: Sev")
        change(client, workbench, typing, 3)
        items = await client.text_document_completion_async(lsp.CompletionParams(
            doc(workbench), at(typing, "type: Sev", 9)))
        labels = labels_of(items)
        assert "Severity" in labels
        typing = typing.replace("handler: workbench_app.tools:read_log", "handler: work")
        change(client, workbench, typing, 4)
        items = await client.text_document_completion_async(lsp.CompletionParams(
            doc(workbench), at(typing, "handler: work", 13)))
        labels = labels_of(items)
        assert "workbench_app.tools:read_log" in labels and "workbench_app.tools:save_note" in labels

        # A quick fix applies the near miss the diagnostic suggests.
        wrong = edited.replace("    description: Return the newest", "    descripton: Return the newest")
        change(client, workbench, wrong, 5)
        (problem,) = await diagnostics_of(client, workbench, version=5)
        assert problem.code == "TC101"
        actions = await client.text_document_code_action_async(lsp.CodeActionParams(
            doc(workbench), problem.range, lsp.CodeActionContext([problem])))
        (fix,) = [a for a in actions or [] if isinstance(a, lsp.CodeAction)]
        assert fix.edit is not None and fix.edit.changes is not None
        fixed = applied(wrong, list(fix.edit.changes[uri(workbench)]))
        assert fixed == edited
        change(client, workbench, fixed, 6)
        assert await diagnostics_of(client, workbench, version=6) == []


@pytest.mark.asyncio
async def test_tools_and_toolsets_are_found_renamed_and_completed_across_specs(
        tmp_path: Path) -> None:
    async with bundled_session(tmp_path) as (client, workbench, showcase):
        wb, sc = workbench.read_text(encoding="utf-8"), showcase.read_text(encoding="utf-8")

        # Hover on a named type: its description and the schema it is published as.
        said = await hover_text(client, showcase, at(sc, "Point:"))
        assert "A point on the drawing canvas." in said and "tokens" in said, said
        assert "as `draw_measure` publishes it" in said, said
        assert '"description": "Distance from the left edge, in pixels."' in said, said

        # Definition of a tool in a composition, and of a toolset an `inner:` names.
        there = await client.text_document_definition_async(
            lsp.DefinitionParams(doc(showcase), at(sc, "tools: [measure", 8)))
        assert isinstance(there, lsp.Location) and there.range.start == at(sc, "measure:")
        there = await client.text_document_definition_async(
            lsp.DefinitionParams(doc(showcase), at(sc, "inner: tidy", 7)))
        assert isinstance(there, lsp.Location) and there.range.start == at(sc, "tidy: {")

        # A toolset renamed in its module is renamed where another module uses it.
        rename = await client.text_document_rename_async(lsp.RenameParams(
            doc(workbench), at(wb, "main: {kind"), "primary"))
        assert rename is not None and rename.changes is not None
        assert set(rename.changes) == {uri(workbench), uri(showcase)}
        renamed_wb = applied(wb, list(rename.changes[uri(workbench)]))
        renamed_sc = applied(sc, list(rename.changes[uri(showcase)]))
        assert "  primary: {kind: prefixed" in renamed_wb and "export: primary" in renamed_wb
        assert "workbench.primary]" in renamed_sc and "workbench.main" not in renamed_sc
        # A tool: its definition, the function set listing it and the renamed set's key.
        rename = await client.text_document_rename_async(lsp.RenameParams(
            doc(showcase), at(sc, "deleteShape:"), "eraseShape"))
        assert rename is not None and rename.changes is not None
        assert set(rename.changes) == {uri(showcase)}
        erased = applied(sc, list(rename.changes[uri(showcase)]))
        assert "deleteShape" not in erased and "  eraseShape:\n" in erased
        assert "tools: [measure, eraseShape]" in erased and "{eraseShape: removeShape}" in erased

        # Completion of toolsets (another module's as module.name) and of a set's tools.
        typing = sc.replace("inner: tidy", "inner: ti").replace(
            "browser, workbench.main]", "browser, work]").replace(
            "tools: [measure, deleteShape]", "tools: [measure, del]")
        change(client, showcase, typing, 2)
        assert "tidy" in labels_of(await client.text_document_completion_async(
            lsp.CompletionParams(doc(showcase), at(typing, "inner: ti", 9))))
        assert "workbench.main" in labels_of(await client.text_document_completion_async(
            lsp.CompletionParams(doc(showcase), at(typing, "browser, work", 13))))
        assert "deleteShape" in labels_of(await client.text_document_completion_async(
            lsp.CompletionParams(doc(showcase), at(typing, "measure, del", 12))))
