"""Each change of a fresh build carries the spec line of what changed (toolc.diff.places)."""

from __future__ import annotations

import pytest
from toolc.diagnostics import DiagnosticBag
from toolc.diff import Change, SpecPlace, ToolSet, diff_tools
from toolc.diff.places import with_places
from toolc.diff.renames import declared, renames
from toolc.frontend import analyse
from toolc.ir import ProjectIR
from toolc.loader import load_text
from toolc.publish import SCHEMAS_DIR, publish_project

PATH = "specs/desk.toolc.yaml"
SPEC = """\
toolc: 1
module: desk
types:
  Level:
    type: string
    description: How urgent.
    enum: [low, high]
tools:
  note:
    description: Add a note.
    handler: desk_app:note
    params:
      text: {type: string, description: The note., maxLength: 100}
      level: {type: Level, required: false}
  assign:
    description: Assign a ticket.
    handler: desk_app:assign
    params:
      who: {type: string, description: The agent.}
  close:
    description: Close a ticket.
    handler: desk_app:close
    params:
      id: {type: integer, description: The ticket.}
toolsets:
  app: {kind: function, tools: [note, assign, close]}
  public:
    kind: renamed
    inner: app
    names: {assign: assign_ticket}
export: public
"""


def build(text: str) -> tuple[ProjectIR, ToolSet]:
    bag = DiagnosticBag()
    project = analyse([load_text(text, PATH)], bag)
    assert project is not None, bag.sorted()
    files = publish_project(project)
    return project, ToolSet.from_texts({k.removeprefix(SCHEMAS_DIR + "/"): v
                                        for k, v in files.items()})


def placed(new_text: str) -> dict[tuple[str, str, str], SpecPlace | None]:
    _, old = build(SPEC)
    project, new = build(new_text)
    changes: list[Change] = with_places(diff_tools(old, new), project)
    return {(c.tool, c.pointer, c.rule): c.spec for c in changes}


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_a_changed_keyword_is_at_its_key() -> None:
    new = SPEC.replace("maxLength: 100", "maxLength: 50")
    (place,) = placed(new).values()
    line = line_of(new, "maxLength: 50")
    assert place == SpecPlace(PATH, line, new.splitlines()[line - 1].index("maxLength") + 1)


def test_a_keyword_a_named_type_brings_is_in_the_type() -> None:
    new = SPEC.replace("enum: [low, high]", "enum: [low, high, urgent]")
    places = placed(new)
    assert places[("desk/note", "/inputSchema/properties/level/enum/2", "ENUM_VALUE_ADDED")] \
        == SpecPlace(PATH, 7, 5)


def test_a_property_is_at_its_key_and_a_removed_one_at_its_parent() -> None:
    new = SPEC.replace("required: false}", "}").replace(
        "      text: {type: string, description: The note., maxLength: 100}\n", "")
    places = placed(new)
    level = line_of(new, "level:")
    assert places[("desk/note", "/inputSchema/properties/level", "REQUIRED_ADDED")] == \
        SpecPlace(PATH, level, 7)
    # The property is gone: its tool's `params`, which held it.
    text = places[("desk/note", "/inputSchema/properties/text", "PROPERTY_REMOVED")]
    assert text == SpecPlace(PATH, line_of(new, "params:"), 5, "removed")


def test_a_renamed_tool_is_one_rename_at_the_set_that_renames_it() -> None:
    new = SPEC.replace("{assign: assign_ticket}", "{assign: assign_to}")
    places = placed(new)
    assert list(places) == [("desk/assign_to", "/name", "TOOL_RENAMED")]
    assert places[("desk/assign_to", "/name", "TOOL_RENAMED")] == SpecPlace(
        PATH, line_of(new, "names:"), 21, "renaming 'assign' in toolset 'public'")


def test_a_tool_renamed_in_tools_is_at_its_own_line_not_line_1() -> None:
    new = SPEC.replace("  close:", "  shut:").replace("[note, assign, close]",
                                                      "[note, assign, shut]")
    assert placed(new) == {("desk/shut", "/name", "TOOL_RENAMED"):
                           SpecPlace(PATH, line_of(new, "  shut:"), 3)}


def test_a_renamed_from_rename_is_at_the_tool_whatever_prefixes_its_name() -> None:
    prefixed = SPEC.replace("    kind: renamed\n    inner: app\n    names: {assign: assign_ticket}",
                            "    kind: prefixed\n    inner: app\n    prefix: desk_")
    _, old = build(prefixed)
    new_text = prefixed.replace("  close:", "  shut:\n    renamed_from: close").replace(
        "[note, assign, close]", "[note, assign, shut]").replace(
        "description: Close a ticket.", "description: Close a ticket for good.")
    project, new = build(new_text)
    changes = with_places(diff_tools(old, new, renames=renames(declared(project))), project)
    assert [(c.tool, c.rule, c.pointer, c.old, c.spec) for c in changes] == [
        ("desk/desk_shut", "DESCRIPTION_CHANGED", "/description", "Close a ticket.",
         SpecPlace(PATH, line_of(new_text, "for good."), 5)),
        ("desk/desk_shut", "TOOL_RENAMED", "/name", "desk_close",
         SpecPlace(PATH, line_of(new_text, "  shut:"), 3))]


@pytest.mark.parametrize(("new", "expected"), [
    # Still defined, no longer in the export: the tool itself.
    (SPEC.replace("tools: [note, assign, close]", "tools: [note, assign]"),
     SpecPlace(PATH, 20, 3, "removed: no longer exported")),
    # Gone from the specs: the module file.
    (SPEC.replace("tools: [note, assign, close]", "tools: [note, assign]").replace(
        SPEC[SPEC.index("  close:"):SPEC.index("toolsets:")], ""),
     SpecPlace(PATH, 1, 1, "removed")),
])
def test_a_removed_tool_is_at_its_nearest_parent(new: str, expected: SpecPlace) -> None:
    assert placed(new)[("desk/close", "", "TOOL_REMOVED")] == expected


def test_a_removed_module_has_no_place() -> None:
    _, old = build(SPEC)
    project, new = build(SPEC.replace("module: desk", "module: other"))
    changes = with_places(diff_tools(old, new), project)
    assert {c.spec for c in changes if c.tool.startswith("desk/")} == {None}


def test_folders_compared_have_no_places() -> None:
    _, old = build(SPEC)
    _, new = build(SPEC.replace("maxLength: 100", "maxLength: 50"))
    assert [c.spec for c in with_places(diff_tools(old, new), None)] == [None]


EXTERNAL = """\
toolc: 1
module: desk
toolsets:
  e:
    kind: external
    tools:
      lookup:
        description: Look a ticket up.
        input_schema:
          type: object
          properties:
            id: {type: integer, description: The ticket., maximum: 100}
export: e
"""


def test_a_schema_published_as_written_is_placed_too() -> None:
    bag = DiagnosticBag()
    old_project = analyse([load_text(EXTERNAL, PATH)], bag)
    new_text = EXTERNAL.replace("maximum: 100", "maximum: 10")
    new_project = analyse([load_text(new_text, PATH)], bag)
    assert old_project is not None and new_project is not None, bag.sorted()
    old, new = (ToolSet.from_texts({k.removeprefix(SCHEMAS_DIR + "/"): v
                                    for k, v in publish_project(p).items()})
                for p in (old_project, new_project))
    (change,) = with_places(diff_tools(old, new), new_project)
    line = new_text.splitlines()[11]
    assert change.spec == SpecPlace(PATH, 12, line.index("maximum") + 1)


def test_required_changes_are_at_the_required_key_when_the_spec_writes_one() -> None:
    new = SPEC.replace("maxLength: 100}", "maxLength: 100, required: false}")
    places = placed(new)
    line = line_of(new, "required: false}")
    col = new.splitlines()[line - 1].index("required") + 1
    assert places[("desk/note", "/inputSchema/properties/text", "REQUIRED_REMOVED")] == \
        SpecPlace(PATH, line, col)


def test_a_tool_renamed_and_changed_at_once_is_found_by_its_own_name() -> None:
    prefixed = SPEC.replace("    kind: renamed\n    inner: app\n    names: {assign: assign_ticket}",
                            "    kind: prefixed\n    inner: app\n    prefix: desk_")
    _, old = build(prefixed)
    new_text = prefixed.replace("prefix: desk_", "prefix: help_").replace(
        "maxLength: 100", "maxLength: 50")
    project, new = build(new_text)
    places = {(c.tool, c.rule): c.spec for c in with_places(diff_tools(old, new), project)}
    line = line_of(new_text, "prefix: help_")
    assert places[("desk/desk_note", "TOOL_REMOVED")] == SpecPlace(
        PATH, line, 13, "removed: now published as 'help_note'")
