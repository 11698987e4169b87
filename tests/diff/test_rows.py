"""One row per change: the same change in several modules' golden files (toolc.diff.rows)."""

from __future__ import annotations

from toolc.diagnostics import Severity
from toolc.diff import Change, Policy, SpecPlace, diff_tools
from toolc.diff.rows import rows

CORE = SpecPlace("specs/core.toolc.yaml", 5, 5)


def tool(name: str, description: str) -> dict[str, object]:
    return {"name": name, "description": description,
            "inputSchema": {"type": "object", "properties": {}}}


def exported(modules: tuple[str, ...], description: str, name: str = "addNote"
             ) -> dict[str, dict[str, object]]:
    return {f"{m}/{name}": tool(name, description) for m in modules}


MODULES = ("core", "alpha", "beta")


def test_the_same_change_in_three_modules_is_one_row_naming_every_key() -> None:
    changes = diff_tools(exported(MODULES, "Add a note."), exported(MODULES, "Add one."))
    assert len(changes) == 3
    (row,) = rows(changes)
    assert row.tools == ("alpha/addNote", "beta/addNote", "core/addNote")
    assert (row.tool, row.also) == ("alpha/addNote", ("beta/addNote", "core/addNote"))
    assert (row.rule, row.pointer, row.old, row.new) == (
        "DESCRIPTION_CHANGED", "/description", "Add a note.", "Add one.")
    # The message names the tool the keys share, not one module's.
    assert row.message == "tool 'addNote': description changed"


def test_changes_that_differ_in_anything_but_the_folder_stay_apart() -> None:
    old = exported(MODULES, "Add a note.")
    new = {**exported(("core", "alpha"), "Add one."), **exported(("beta",), "Add two.")}
    assert sorted(r.tools for r in rows(diff_tools(old, new))) == [
        ("alpha/addNote", "core/addNote"), ("beta/addNote",)]
    placed = [Change("a/t", "/description", "DESCRIPTION_CHANGED", Severity.INFO, "m",
                     spec=CORE),
              Change("b/t", "/description", "DESCRIPTION_CHANGED", Severity.INFO, "m",
                     spec=SpecPlace("specs/b.toolc.yaml", 5, 5))]
    assert len(rows(placed)) == 2  # two spec lines: two edits


def test_a_change_accepted_in_one_module_only_is_two_rows() -> None:
    policy = Policy.from_config({"accept": [
        {"tool": "core/addNote", "rule": "DESCRIPTION_CHANGED", "reason": "reworded"}]})
    changes = diff_tools(exported(MODULES, "Add a note."), exported(MODULES, "Add one."),
                         policy)
    found = sorted((r.tools, r.accepted) for r in rows(changes))
    assert found == [(("alpha/addNote", "beta/addNote"), False), (("core/addNote",), True)]


def test_tools_of_one_definition_under_two_names_are_one_row_when_the_specs_say_so() -> None:
    old = {"core/addNote": tool("addNote", "Add."), "beta/b_addNote": tool("b_addNote", "Add.")}
    new = {"core/addNote": tool("addNote", "Add!"), "beta/b_addNote": tool("b_addNote", "Add!")}
    changes = diff_tools(old, new)
    assert len(rows(changes)) == 2  # without specs: two names, two tools
    (row,) = rows(changes, lambda key: "core.toolc.yaml:4:3")  # one definition
    assert row.tools == ("beta/b_addNote", "core/addNote")
    assert row.message == "tool 'beta/b_addNote': description changed"  # no shared name


def test_a_whole_tool_is_compared_apart_from_its_name() -> None:
    old = {"core/addNote": tool("addNote", "Add."), "beta/b_addNote": tool("b_addNote", "Add.")}
    (row,) = rows(diff_tools(old, {}), lambda key: "one definition")
    assert row.rule == "TOOL_REMOVED" and row.tools == ("beta/b_addNote", "core/addNote")


def test_a_tool_gone_from_every_module_is_one_row_without_a_place() -> None:
    def removed(module: str, path: str | None = None) -> Change:
        place = SpecPlace(path or f"specs/{module}.toolc.yaml", 1, 1, "removed")
        return Change(f"{module}/findNote", "", "TOOL_REMOVED", Severity.ERROR,
                      f"tool '{module}/findNote' was removed", old=tool("findNote", "Find."),
                      spec=place)

    (row,) = rows([removed(m) for m in MODULES])
    assert row.spec is None and row.message == "tool 'findNote' was removed"
    (row,) = rows([removed(m, "specs/core.toolc.yaml") for m in MODULES])
    assert row.spec == SpecPlace("specs/core.toolc.yaml", 1, 1, "removed")  # all agree


def test_rows_come_sorted_and_a_single_change_is_unchanged() -> None:
    changes = diff_tools(exported(("core",), "Add a note."), exported(("core",), "Add."))
    assert rows(changes) == changes
    assert rows([]) == []


def test_a_tool_added_to_two_modules_alike_is_one_row_and_unlike_two() -> None:
    from toolc.diff import ToolSet, golden_text

    plain = tool("addNote", "Add.")
    asking = {**plain, "_meta": {"toolc/requiresApproval": True}}  # an approval_required set
    new = ToolSet.from_texts({"core/addNote.json": golden_text(plain),
                              "alpha/addNote.json": golden_text(plain),
                              "beta/addNote.json": golden_text(asking)})
    found = rows(diff_tools({}, new), lambda key: "one definition", ({}, new.texts))
    assert [r.tools for r in found] == [("alpha/addNote", "core/addNote"), ("beta/addNote",)]
    assert found[0].new == plain and found[1].new == asking
