"""Each target's view of the exported tools, written as golden files beside the tools and
diffed like them."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "commands"))

from commands_support import SPEC, build, commit, committed_project, diff
from toolc.runtime.dialects import TARGETS, lower_tool

TARGETED = SPEC.replace("module: notes\n", "module: notes\ntargets: [openai-strict, "
                        "anthropic-strict, gemini]\n").replace(
    "{type: string, description: The note.}",
    "{type: string, description: The note., maxLength: 500}")


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CI", raising=False)
    return committed_project(tmp_path, "notes.toolc.yaml", TARGETED)


def _schemas(repo: Path) -> Path:
    return repo / "generated" / "schemas" / "notes"


def test_each_target_has_the_lowered_golden_file_beside_the_tool(repo: Path) -> None:
    canonical = json.loads((_schemas(repo) / "addNote.json").read_text())
    for name, table in TARGETS.items():
        written = json.loads((_schemas(repo) / name / "addNote.json").read_text())
        assert written == lower_tool(table, canonical).as_json()
        assert written["x-toolc-target"] == name
    openai = json.loads((_schemas(repo) / "openai-strict" / "addNote.json").read_text())
    schema = openai["inputSchema"]
    assert schema["required"] == ["tags", "text"]  # the optional one, as a union with null
    assert schema["properties"]["tags"]["anyOf"][-1] == {"type": "null"}
    assert schema["properties"]["text"]["description"] == \
        "The note. (at most 500 characters)"
    assert {"pointer": "/inputSchema/properties/text/maxLength", "keyword": "maxLength",
            "lowering": "describe", "value": 500} in openai["x-toolc-lowered"]
    # The canonical golden file is untouched: it is what the runtime enforces.
    assert canonical["inputSchema"]["properties"]["text"]["maxLength"] == 500


def test_a_module_without_targets_has_no_views(repo: Path) -> None:
    spec = repo / "specs" / "notes.toolc.yaml"
    spec.write_text(spec.read_text().replace("targets: [openai-strict, ", "targets: ["))
    assert build() == 0
    assert not (_schemas(repo) / "openai-strict").exists()  # a target left out: gone
    assert (_schemas(repo) / "gemini" / "addNote.json").is_file()
    spec.write_text(TARGETED.replace("targets: [openai-strict, anthropic-strict, gemini]\n",
                                     ""))
    assert build() == 0
    assert sorted(p.name for p in _schemas(repo).iterdir()) == ["addNote.json"]


def test_the_diff_shows_a_change_to_a_lowered_view(repo: Path) -> None:
    spec = repo / "specs" / "notes.toolc.yaml"
    spec.write_text(spec.read_text().replace("maxLength: 500", "maxLength: 80"))
    code, out, _ = diff(fmt="json")
    assert code == 1
    changed = {(tool, c["pointer"], c["rule"]) for c in json.loads(out)["changes"]
               for tool in c.get("tools") or [c["tool"]]}
    text = ("/inputSchema/properties/text/description", "DESCRIPTION_CHANGED")
    for name in ("openai-strict", "anthropic-strict"):  # the bound, in their descriptions
        assert (f"notes/{name}/addNote", *text) in changed, (name, changed)
    bound = ("/inputSchema/properties/text/maxLength", "CONSTRAINT_TIGHTENED")
    assert ("notes/gemini/addNote", *bound) in changed  # Gemini's subset keeps it
    assert ("notes/addNote", *bound) in changed
    assert ("notes/openai-strict/addNote", "/x-toolc-lowered", "VIEW_LOWERING_CHANGED") \
        in changed
    assert not {c for c in changed if c[2] == "OTHER_CHANGED"}
    assert build() == 0
    commit(repo, "80 characters")
    assert diff(against="HEAD")[0] == 0


def test_the_projects_targets_are_an_input_of_the_build(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """A warm build whose specs did not change still writes the views of a target the
    project's pyproject.toml now names, and removes those of one it no longer names."""
    monkeypatch.chdir(tmp_path)
    committed_project(tmp_path, "notes.toolc.yaml", SPEC)
    views = tmp_path / "generated" / "schemas" / "notes" / "gemini"
    assert not views.exists()
    (tmp_path / "pyproject.toml").write_text('[tool.toolc]\nspecs = "specs"\n'
                                             'targets = ["gemini"]\n')
    assert build() == 0
    assert (views / "addNote.json").is_file()
    (tmp_path / "pyproject.toml").write_text('[tool.toolc]\nspecs = "specs"\n')
    assert build() == 0
    assert not views.exists()


def test_refs_shapes_the_views_and_not_the_tool(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """`refs = "defs"` hoists a subschema written twice into the views' `$defs`; the
    canonical golden file keeps the shape it was published in."""
    monkeypatch.chdir(tmp_path)
    address = ("{type: object, description: An address., properties: {street: {type: string, "
               "description: The street.}, city: {type: string, description: The city.}}}")
    spec = SPEC.replace("      tags:", f"      home: {address.replace('An address', 'Home')}"
                        f"\n      work: {address.replace('An address', 'Home')}\n      tags:")
    committed_project(tmp_path, "notes.toolc.yaml", spec)
    (tmp_path / "pyproject.toml").write_text('[tool.toolc]\nspecs = "specs"\n'
                                             'targets = ["openai-strict", "gemini"]\n'
                                             'refs = {openai-strict = "defs"}\n')
    assert build() == 0
    canonical = json.loads((_schemas(tmp_path) / "addNote.json").read_text())
    assert "$defs" not in canonical["inputSchema"]
    openai = json.loads((_schemas(tmp_path) / "openai-strict" / "addNote.json").read_text())
    props = openai["inputSchema"]["properties"]
    assert props["home"] == props["work"] == {"$ref": "#/$defs/Shared"}
    gemini = json.loads((_schemas(tmp_path) / "gemini" / "addNote.json").read_text())
    assert "street" in gemini["inputSchema"]["properties"]["home"]["properties"]
    # A warm build after refs changed writes the views again.
    (tmp_path / "pyproject.toml").write_text('[tool.toolc]\nspecs = "specs"\n'
                                             'targets = ["openai-strict", "gemini"]\n')
    assert build() == 0
    openai = json.loads((_schemas(tmp_path) / "openai-strict" / "addNote.json").read_text())
    assert "$defs" not in openai["inputSchema"]


def test_a_build_lowers_each_tool_once_per_target(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The targets' check, the budget and the golden files read the same views."""
    from toolc.runtime import dialects

    made: list[str] = []
    lower = dialects.lower_tool

    def counted(target: Any, tool: Any, refs: str = "as-written") -> Any:
        made.append(f"{target.name}:{tool['name']}")
        return lower(target, tool, refs)

    monkeypatch.setattr(dialects, "lower_tool", counted)
    monkeypatch.chdir(tmp_path)
    committed_project(tmp_path, "notes.toolc.yaml", TARGETED)
    assert sorted(made) == ["anthropic-strict:addNote", "gemini:addNote",
                            "openai-strict:addNote"]
