"""Renames the specs declare with `renamed_from`, and TC520 (toolc.diff.renames)."""

from __future__ import annotations

from toolc.diagnostics import DiagnosticBag, Span
from toolc.diff import ToolSet, diff_tools
from toolc.diff.renames import Declared, declared, problems, renames
from toolc.frontend import analyse
from toolc.ir import ProjectIR
from toolc.loader import load_text
from toolc.publish import SCHEMAS_DIR, publish_project

CORE = """\
toolc: 1
module: core
tools:
  searchNotes:
    description: Find notes.
    handler: app:search
    renamed_from: findNote
  close:
    description: Close.
    handler: app:close
toolsets:
  main: {kind: function, tools: [searchNotes, close]}
export: main
"""
PREFIXED = """\
toolc: 1
module: wb
toolsets:
  main: {kind: prefixed, inner: core.main, prefix: wb_}
export: main
"""
RENAMING = """\
toolc: 1
module: desk
toolsets:
  main: {kind: renamed, inner: core.main, names: {searchNotes: lookup}}
export: main
"""


def project(*texts: str) -> tuple[ProjectIR, ToolSet]:
    bag = DiagnosticBag()
    found = analyse([load_text(t, f"specs/{i}.toolc.yaml") for i, t in enumerate(texts)], bag)
    assert found is not None, bag.sorted()
    files = publish_project(found)
    return found, ToolSet.from_texts({k.removeprefix(SCHEMAS_DIR + "/"): v
                                      for k, v in files.items()})


def test_each_export_declares_its_published_names_rename() -> None:
    ir, _ = project(CORE, PREFIXED, RENAMING)
    said = Span("specs/0.toolc.yaml", 7, 19, 8)
    assert declared(ir) == [Declared("core/searchNotes", "core/findNote", said, "findNote"),
                            Declared("wb/wb_searchNotes", "wb/wb_findNote", said, "findNote",
                                     home=False)]
    # desk's `names` makes its published name, the same before and after: no rename there.
    assert renames(declared(ir)) == {"core/searchNotes": "core/findNote",
                                     "wb/wb_searchNotes": "wb/wb_findNote"}


def test_a_declared_rename_is_one_rename_and_the_tools_changes() -> None:
    _, old = project(CORE.replace("  searchNotes:", "  findNote:").replace(
        "    renamed_from: findNote\n", "").replace("[searchNotes,", "[findNote,").replace(
        "Find notes.", "Find a note."), PREFIXED)
    ir, new = project(CORE, PREFIXED)
    changes = diff_tools(old, new, renames=renames(declared(ir)))
    assert [(c.tool, c.rule, c.pointer) for c in changes] == [
        ("core/searchNotes", "DESCRIPTION_CHANGED", "/description"),
        ("core/searchNotes", "TOOL_RENAMED", "/name"),
        ("wb/wb_searchNotes", "DESCRIPTION_CHANGED", "/description"),
        ("wb/wb_searchNotes", "TOOL_RENAMED", "/name")]
    assert problems(declared(ir), old, new) == []
    # Without the key, the body changed too: a removal and an addition.
    assert {c.rule for c in diff_tools(old, new)} == {"TOOL_REMOVED", "TOOL_ADDED"}


def test_an_old_name_the_base_lacks_is_one_warning_at_the_key_with_a_suggestion() -> None:
    _, old = project(CORE.replace("  searchNotes:", "  findNotes:").replace(
        "    renamed_from: findNote\n", "").replace("[searchNotes,", "[findNotes,"), PREFIXED)
    ir, new = project(CORE, PREFIXED)
    (problem,) = problems(declared(ir), old, new)
    assert (problem.code, problem.span) == ("TC520", Span("specs/0.toolc.yaml", 7, 19, 8))
    assert problem.message == (
        "renamed_from 'findNote': the golden files compared with have no tool "
        "'core/findNote' (nor in the 1 other module(s) that export it), so "
        "'core/searchNotes' is reported as added")
    assert problem.notes == ("did you mean 'findNotes'?",)


def test_an_old_name_still_published_is_a_warning_and_a_done_rename_is_silent() -> None:
    ir, new = project(CORE)
    still = ToolSet.from_texts({"core/findNote.json": '{"name": "findNote"}'})
    both = {**new, "core/findNote": {"name": "findNote"}}
    (problem,) = problems(declared(ir), still, both)
    assert "tool 'core/findNote' is still published, so nothing was renamed" in problem.message
    # The base has the new name already: the rename is in, the key may stay.
    assert problems(declared(ir), new, new) == []
