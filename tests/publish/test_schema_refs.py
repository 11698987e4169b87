"""References written out so that every published schema resolves on its own, offline.

Each rule of toolc.publish.schema_refs, through the writer, and each result judged by jsonschema-rs
(the runtime's validator) with retrieval refused: a rewritten reference must not only
resolve but mean what the spec meant.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from toolc.loader import load_file, load_text
from toolc.model.named import TypeRegistry
from toolc.model.parse import parse_module
from toolc.publish.schema_files import LocalFiles
from toolc.publish.writer import SchemaWriter
from toolc.publish.written import Written


def refuse(uri: str) -> Any:
    raise AssertionError(f"retrieval of {uri}")


def _writer(text: str, path: Path | None = None, root: Path | None = None) -> tuple[Any, Any]:
    spec = "toolc: 1\nmodule: m\n" + text
    if path is None:
        loaded = load_text(spec, "m.toolc.yaml")
    else:
        path.write_text(spec, encoding="utf-8")
        loaded = load_file(str(path), path.name)
    parsed, diags = parse_module(loaded)
    assert diags == []
    registry = TypeRegistry([parsed], {"m": parsed})
    return parsed, SchemaWriter(registry.lookup, set(), LocalFiles(root))


def _input(text: str, path: Path | None = None, root: Path | None = None) -> Written:
    parsed, writer = _writer(text, path, root)
    return writer.input_schema(parsed, parsed.section("tools")["t"]["params"], False)


def _valid(schema: Any, instance: Any) -> bool:
    return jsonschema_rs.Draft202012Validator(schema, retriever=refuse).is_valid(instance)


PARAM_DEFS = """\
tools:
  t:
    params:
      x:
        description: X.
        $defs:
          a: {type: string}
        properties:
          y: {$ref: "#/$defs/a", description: Y.}
          z: {$ref: "#", description: Z., required: false}
"""


def test_a_parameters_own_references_point_into_it_where_it_is_published() -> None:
    w = _input(PARAM_DEFS)
    x = w.schema["properties"]["x"]
    assert x["properties"]["y"]["$ref"] == "#/properties/x/$defs/a"
    assert x["properties"]["z"]["$ref"] == "#/properties/x"
    assert w.problems == []
    assert _valid(w.schema, {"x": {"y": "s", "z": {"y": "t"}}})
    assert not _valid(w.schema, {"x": {"y": 1}})
    assert not _valid(w.schema, {"x": {"y": "s", "z": {"y": 2}}})  # `#` is x, not the input


def test_nullable_moves_the_keywords_and_the_references_follow() -> None:
    w = _input(PARAM_DEFS.replace("        description: X.\n",
                                  "        description: X.\n        nullable: true\n"))
    x = w.schema["properties"]["x"]
    assert x["anyOf"][0]["properties"]["y"]["$ref"] == "#/properties/x/anyOf/0/$defs/a"
    assert x["anyOf"][0]["properties"]["z"]["$ref"] == "#/properties/x"  # null included
    assert _valid(w.schema, {"x": None}) and _valid(w.schema, {"x": {"y": "s", "z": None}})


def test_a_named_types_references_point_where_each_use_writes_it() -> None:
    w = _input("types:\n  R:\n    description: R.\n    $defs:\n      b: {type: integer}\n"
               "    properties:\n      lo: {$ref: '#/$defs/b', description: Lo.}\n"
               "tools:\n  t:\n    params:\n      one: {type: R}\n"
               "      two:\n        description: Two.\n        type: array\n"
               "        items: {type: R}\n")
    props = w.schema["properties"]
    assert props["one"]["properties"]["lo"]["$ref"] == "#/properties/one/$defs/b"
    assert props["two"]["items"]["properties"]["lo"]["$ref"] == \
        "#/properties/two/items/$defs/b"
    assert _valid(w.schema, {"one": {"lo": 1}, "two": [{"lo": 2}]})
    assert not _valid(w.schema, {"one": {"lo": 1}, "two": [{"lo": "x"}]})


def test_references_under_an_id_and_anchors_stay_as_written() -> None:
    w = _input("tools:\n  t:\n    params:\n      r:\n        description: R.\n"
               "        $id: 'urn:x:r'\n        $defs:\n          i: {type: string}\n"
               "        properties:\n          i: {$ref: '#/$defs/i', description: I.}\n"
               "      by: {$ref: 'urn:x:r', description: By.}\n"
               "      a: {$ref: '#here', description: A.}\n"
               "      h: {$anchor: here, type: integer, description: H.}\n")
    props = w.schema["properties"]
    assert props["r"]["properties"]["i"]["$ref"] == "#/$defs/i"
    assert props["by"]["$ref"] == "urn:x:r" and props["a"]["$ref"] == "#here"
    assert w.problems == []
    assert _valid(w.schema, {"r": {"i": "s"}, "by": {"i": "t"}, "a": 1, "h": 2})
    assert not _valid(w.schema, {"r": {"i": "s"}, "by": {"i": 3}, "a": 1, "h": 2})


def test_a_ref_inside_a_value_is_data() -> None:
    w = _input("tools:\n  t:\n    params:\n      v:\n        description: V.\n"
               "        const: {$ref: '#/x'}\n        examples: [{$ref: '#'}]\n")
    assert w.schema["properties"]["v"]["const"] == {"$ref": "#/x"}
    assert w.schema["properties"]["v"]["examples"] == [{"$ref": "#"}]


def test_dynamic_ref_pointers_are_rewritten_like_refs() -> None:
    w = _input("tools:\n  t:\n    params:\n      d:\n        description: D.\n"
               "        $defs:\n          s: {type: string}\n"
               "        items: {$dynamicRef: '#/$defs/s'}\n")
    assert w.schema["properties"]["d"]["items"]["$dynamicRef"] == "#/properties/d/$defs/s"


def test_names_are_percent_encoded_in_the_published_pointer() -> None:
    w = _input("tools:\n  t:\n    params:\n      'a b/ü':\n        description: X.\n"
               "        $defs:\n          a: {type: string}\n"
               "        items: {$ref: '#/$defs/a'}\n")
    ref = w.schema["properties"]["a b/ü"]["items"]["$ref"]
    assert ref == "#/properties/a%20b~1%C3%BC/$defs/a"
    assert _valid(w.schema, {"a b/ü": ["s"]}) and not _valid(w.schema, {"a b/ü": [1]})


def test_a_reference_to_nothing_is_a_located_problem() -> None:
    w = _input("tools:\n  t:\n    params:\n      x:\n        description: X.\n"
               "        items: {$ref: '#/$defs/none'}\n")
    [problem] = w.problems
    assert problem.code == "TC212" and problem.span.line == 8
    assert "'#/properties/x/$defs/none'" in problem.message


def test_a_url_is_refused_unless_the_document_declares_it() -> None:
    w = _input("tools:\n  t:\n    params:\n      x: {$ref: 'https://example.com/s.json', "
               "description: X.}\n")
    [problem] = w.problems
    assert problem.code == "TC210" and problem.span.line == 6


def test_returns_is_its_own_document() -> None:
    parsed, writer = _writer("tools:\n  t:\n    returns:\n      type: object\n"
                             "      $defs:\n        n: {type: integer}\n"
                             "      properties:\n        n: {$ref: '#/$defs/n'}\n")
    w = writer.document(parsed, parsed.section("tools")["t"]["returns"], "/outputSchema")
    assert w.schema["properties"]["n"]["$ref"] == "#/$defs/n" and w.problems == []


# -- local files ------------------------------------------------------------------------------


def test_a_local_file_is_embedded_with_its_own_references(tmp_path: Path) -> None:
    (tmp_path / "defs").mkdir()
    (tmp_path / "defs" / "geo.yaml").write_text(
        "$defs:\n  P:\n    type: object\n    properties:\n      x: {$ref: '#/$defs/C'}\n"
        "      l: {$ref: 'more.json#/$defs/L'}\n  C: {type: number}\n")
    (tmp_path / "defs" / "more.json").write_text(
        '{"$defs": {"L": {"type": "string"}, "Back": {"$ref": "geo.yaml"}}}')
    w = _input("tools:\n  t:\n    params:\n      p: {$ref: 'defs/geo.yaml#/$defs/P', "
               "description: P.}\n", tmp_path / "m.toolc.yaml", tmp_path)
    assert w.problems == []
    assert w.schema["properties"]["p"]["$ref"] == "#/$defs/defs~1geo.yaml/$defs/P"
    assert set(w.schema["$defs"]) == {"defs/geo.yaml", "defs/more.json"}
    assert _valid(w.schema, {"p": {"x": 1, "l": "a"}})
    assert not _valid(w.schema, {"p": {"x": 1, "l": 2}})


@pytest.mark.parametrize(("ref", "why"), [
    ("../out.json", "outside the project"),
    ("missing.json", "does not exist"),
    ("notes.txt", "not a .json or .yaml file"),
    ("bad.json", "not valid JSON"),
    ("list.yaml", "holds no schema"),
    ("url.json", "a URL; toolc never fetches one"),
    ("ok.json#/$defs/nope", "has nothing at '/$defs/nope'"),
])
def test_a_file_that_cannot_be_inlined_is_a_located_problem(tmp_path: Path, ref: str,
                                                           why: str) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (tmp_path / "out.json").write_text("{}")
    (project / "notes.txt").write_text("{}")
    (project / "bad.json").write_text("{")
    (project / "list.yaml").write_text("- 1\n")
    (project / "url.json").write_text('{"$ref": "https://example.com/x"}')
    (project / "ok.json").write_text('{"$defs": {}}')
    w = _input(f"tools:\n  t:\n    params:\n      x: {{$ref: '{ref}', description: X.}}\n",
               project / "m.toolc.yaml", project)
    assert [p.span.line for p in w.problems] == [6]
    assert why in w.problems[0].message, w.problems[0].message


def test_without_a_file_there_is_nothing_relative() -> None:
    w = _input("tools:\n  t:\n    params:\n      x: {$ref: 'a.json', description: X.}\n")
    assert w.problems[0].code == "TC211" and "not read from a file" in w.problems[0].message


def test_a_symlink_out_of_the_project_is_outside_it(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (tmp_path / "secret.json").write_text("{}")
    (project / "link.json").symlink_to(tmp_path / "secret.json")
    w = _input("tools:\n  t:\n    params:\n      x: {$ref: 'link.json', description: X.}\n",
               project / "m.toolc.yaml", project)
    assert "outside the project" in w.problems[0].message


def test_a_recursive_types_own_references_point_into_its_defs_entry() -> None:
    parsed, diags = parse_module(load_text(
        "toolc: 1\nmodule: m\ntypes:\n  T:\n    description: T.\n    type: object\n"
        "    $defs:\n      leaf: {type: integer}\n    properties:\n"
        "      v: {$ref: '#/$defs/leaf', description: V.}\n"
        "      kids: {type: array, items: {type: T}, description: K.}\n"
        "tools:\n  t:\n    params:\n      tree: {type: T}\n", "m.toolc.yaml"))
    assert diags == []
    registry = TypeRegistry([parsed], {"m": parsed})
    td = registry.lookup(parsed, "T")
    assert td is not None
    writer = SchemaWriter(registry.lookup, {td})
    w = writer.input_schema(parsed, parsed.section("tools")["t"]["params"], False)
    assert w.schema["properties"]["tree"]["properties"]["v"]["$ref"] == \
        "#/properties/tree/$defs/leaf"
    assert w.schema["$defs"]["T"]["properties"]["v"]["$ref"] == "#/$defs/T/$defs/leaf"
    assert w.problems == []
    assert _valid(w.schema, {"tree": {"v": 1, "kids": [{"v": 2, "kids": []}]}})
    assert not _valid(w.schema, {"tree": {"v": 1, "kids": [{"v": "x", "kids": []}]}})


def test_files_of_one_name_in_two_folders_are_two_entries(tmp_path: Path) -> None:
    for folder, kind in (("a", "string"), ("b", "integer")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "s.json").write_text(f'{{"type": "{kind}"}}')
    (tmp_path / "a" / "both.json").write_text('{"prefixItems": [{"$ref": "s.json"}, '
                                              '{"$ref": "../b/s.json"}]}')
    w = _input("tools:\n  t:\n    params:\n      x: {$ref: 'a/both.json', description: X.}\n",
               tmp_path / "m.toolc.yaml")  # no project: the spec's folder confines
    assert w.problems == []
    assert set(w.schema["$defs"]) == {"a/both.json", "a/s.json", "b/s.json"}


def test_a_file_nested_too_deeply_or_a_symlink_loop_is_a_problem_not_a_crash(
        tmp_path: Path) -> None:
    (tmp_path / "deep.json").write_text('{"items": ' * 400 + "{}" + "}" * 400)
    (tmp_path / "loop.json").symlink_to(tmp_path / "loop.json")
    w = _input("tools:\n  t:\n    params:\n      x: {$ref: deep.json, description: X.}\n"
               "      y: {$ref: loop.json, description: Y.}\n",
               tmp_path / "m.toolc.yaml", tmp_path)
    assert [p.code for p in w.problems] == ["TC211", "TC211"]
    assert "nested more than 200 levels" in w.problems[0].message


def test_an_anchor_declared_twice_in_one_document_is_a_problem_unless_it_is_one_type() -> None:
    w = _input("types:\n  C: {description: C., $anchor: c, type: string}\n"
               "tools:\n  t:\n    params:\n      a: {type: C}\n      b: {type: C}\n"
               "      r: {$ref: '#c', description: R.}\n")
    assert w.problems == [] and _valid(w.schema, {"a": "x", "b": "y", "r": "z"})
    w = _input("tools:\n  t:\n    params:\n      a: {$anchor: c, description: A.}\n"
               "      b: {$anchor: c, description: B.}\n"
               "      u:\n        description: U.\n        $id: 'urn:x:u'\n"
               "        properties: {v: {$anchor: c, description: V.}}\n")
    assert [(p.code, p.span.line) for p in w.problems] == [("TC215", 7)]  # not under $id


def test_a_pointer_written_without_percent_encoding_is_published_encoded() -> None:
    w = _input("tools:\n  t:\n    params:\n      x:\n        description: X.\n"
               "        $defs:\n          'a b': {type: string}\n"
               "        items: {$ref: '#/$defs/a b'}\n"
               "        contains: {$ref: '#/$defs/a%20b'}\n")
    x = w.schema["properties"]["x"]
    assert x["items"]["$ref"] == x["contains"]["$ref"] == "#/properties/x/$defs/a%20b"
    assert w.problems == [] and _valid(w.schema, {"x": ["s"]})
