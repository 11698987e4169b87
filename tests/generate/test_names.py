"""Identifiers for spec names: valid, readable when they can be, never colliding."""

from __future__ import annotations

import importlib
import keyword
import sys
import warnings
from pathlib import Path

import pydantic
from generate_support import analyse_case, analyse_text
from hypothesis import given
from hypothesis import strategies as st
from toolc.generate import generate_project
from toolc.generate.names import (
    Scope,
    ascii_fold,
    camel,
    field_name,
    handler_names,
    is_parameter_name,
    is_plain_identifier,
    module_names,
    snake,
    type_refs,
)


def test_camel_case_class_stems() -> None:
    assert camel("readLog", lead="Tool") == "ReadLog"
    assert camel("read_log", lead="Tool") == "ReadLog"
    assert camel("my.tool-x", lead="Tool") == "MyToolX"
    assert camel("3d-render", lead="Tool") == "Tool3dRender"
    assert camel("größe", lead="Tool") == "Groe"
    assert camel("日本", lead="Tool") == "Tool"


def test_snake_identifiers() -> None:
    assert snake("my-field", lead="field") == "my_field"
    assert snake("_private", lead="field") == "private"
    assert snake("3d", lead="field") == "field_3d"
    assert snake("class", lead="field") == "class_"
    assert snake("---", lead="field") == "field"
    assert ascii_fold("größe") == "groe"


def test_field_names_avoid_what_a_model_or_the_handler_call_uses() -> None:
    scope = Scope()
    got = [field_name(raw, scope) for raw in
           ("lines", "self", "ctx", "model_config", "json", "model_dump_all", "Field",
            "str", "my-field", "my_field", "type", "match", "class")]
    assert got == ["lines", "self_", "ctx_", "model_config_", "json_", "field_model_dump_all",
                   "Field_", "str_", "my_field", "my_field2", "type", "match", "class_"]


@given(st.lists(st.text(min_size=1, max_size=12), max_size=20))
def test_field_names_are_identifiers_and_distinct(raws: list[str]) -> None:
    scope = Scope()
    names = [field_name(raw, scope) for raw in raws]
    assert len(set(names)) == len(names)
    for name in names:
        assert name.isidentifier() and name.isascii() and not keyword.iskeyword(name)
        assert not name.startswith("_")


def test_handlers_get_the_spec_names_wherever_python_takes_them() -> None:
    called = handler_names(["model_dump_x", "json", "ctx", "self", "_private", "größe",
                            "my-field", "my_field", "class", "3d", "__dunder", "type"])
    assert called.args == {
        "model_dump_x": "model_dump_x", "json": "json", "ctx": "ctx", "self": "self",
        "_private": "_private", "größe": "größe", "my-field": "my_field2",
        "my_field": "my_field", "class": "class_", "3d": "field_3d", "__dunder": "dunder",
        "type": "type"}
    assert (called.self_name, called.ctx_name) == ("_self", "_ctx")
    plain = handler_names(["lines"])
    assert (plain.args, plain.self_name, plain.ctx_name) == ({"lines": "lines"}, "self", "ctx")


def test_parameter_names_are_what_a_def_can_declare_as_written() -> None:
    assert all(map(is_parameter_name, ["model_dump_x", "_x", "größe", "match", "ctx"]))
    # a keyword; not an identifier; mangled in a class body; not in Python's own (NFKC) form
    assert not any(map(is_parameter_name, ["class", "a-b", "3d", "__x", "\ufb01le"]))


@given(st.lists(st.text(min_size=1, max_size=12), max_size=20))
def test_handler_names_are_distinct_parameter_names(raws: list[str]) -> None:
    called = handler_names(list(dict.fromkeys(raws)))
    names = [*called.args.values(), called.self_name, called.ctx_name]
    assert len(set(names)) == len(names)
    assert all(is_parameter_name(n) or n in ("_self", "_ctx") for n in names)
    assert all(name == raw for raw, name in called.args.items() if is_parameter_name(raw))


def test_scope_claims_every_suffix_of_a_stem() -> None:
    scope = Scope({"ReadLogHandler"})
    assert scope.claim("ReadLog", suffixes=("Params", "Handler")) == "ReadLog2"
    assert {"ReadLog2Params", "ReadLog2Handler"} <= scope.taken


def test_plain_identifiers() -> None:
    assert is_plain_identifier("readLog") and is_plain_identifier("match")
    assert not is_plain_identifier("class") and not is_plain_identifier("_x")
    assert not is_plain_identifier("größe") and not is_plain_identifier("a-b")


def test_module_names_follow_the_spec_order_and_reserve_the_modules_own() -> None:
    names = module_names(analyse_case("names").modules["names"])
    assert names.types == {"Any": "Any2", "size_class": "size_class"}
    assert names.toolsets == {"toolset": "toolset_", "all": "all", "rt": "rt_",
                              "dotted": "dotted"}
    assert names.tools == {"my.tool-x": "MyToolX", "class": "Class", "3d-render": "Tool3dRender",
                           "readLog": "ReadLog", "read_log": "ReadLog2", "toolset": "Toolset"}


def test_other_modules_are_found_in_toolsets_and_types() -> None:
    project = analyse_case("every_kind")
    assert module_names(project.modules["kinds"]).modules == {"base": "base"}
    assert module_names(project.modules["base"]).modules == {"kinds": "kinds"}


def test_type_refs_walk_schema_positions_only() -> None:
    schema = {"type": "object", "properties": {
        "a": {"type": "Point"}, "b": {"type": "array", "items": {"type": "geo.Shape"}},
        "c": {"anyOf": [{"type": "string"}, {"type": "Tag"}]},
        "d": {"type": "object", "default": {"type": "not.AType"}},
        "type": {"type": "string", "enum": ["x.y"]}}}
    assert type_refs(schema) == ["Point", "geo.Shape", "Tag"]


def test_names_the_module_itself_uses_are_never_handed_out() -> None:
    """A toolset named like a builtin the module calls, or like one of its imports."""
    project = analyse_text("""toolc: 1
module: shadows
tools:
  ping: {description: Ping., handler: "pkg.mod:ping"}
toolsets:
  sorted: {kind: function, tools: [ping]}
  getattr: {kind: prefixed, inner: sorted, prefix: p_}
  cast: {kind: prefixed, inner: getattr, prefix: q_}
export: cast
""")
    names = module_names(project.modules["shadows"])
    assert names.toolsets == {"sorted": "sorted_", "getattr": "getattr_", "cast": "cast_"}


def _pydantic_reserved() -> list[str]:
    """What the installed pydantic warns about or refuses as a field name: every public
    attribute of BaseModel (its metaclass's too) and its protected namespaces."""
    base = pydantic.BaseModel
    names = {n for n in [*dir(base), *dir(type(base))]
             if not n.startswith("_") and hasattr(base, n)}
    return sorted(names | {"model_dump_all", "model_validate_later", "model_foo"})


def test_a_field_pydantic_reserves_is_aliased_and_makes_no_warning(tmp_path: Path) -> None:
    reserved = _pydantic_reserved()
    params = "".join(f"      {name}: {{type: string, description: The {name}.}}\n"
                     for name in reserved)
    project = analyse_text("toolc: 1\nmodule: reserved_fields\ntools:\n  t:\n"
                           "    description: T.\n    handler: app:t\n    params:\n" + params)
    package = tmp_path / "generated_reserved"
    package.mkdir()
    for rel, text in generate_project(project).items():
        (package / rel).write_text(text, encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a shadowing or protected-namespace warning fails
            module = importlib.import_module("generated_reserved.reserved_fields")
            model = module.TParams
            given = {name: f"value of {name}" for name in reserved}
            made = model.model_validate(given)
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m.startswith("generated_reserved")]:
            del sys.modules[name]
    assert made.model_dump(by_alias=True) == given
    assert not set(model.model_fields) & set(reserved) - {"model_foo"}


def test_a_handler_receives_each_parameter_by_the_spec_name(tmp_path: Path) -> None:
    """pydantic's reserved names, ``ctx``, ``self`` and ``_private`` arrive as written; a
    keyword or a name Python cannot take arrives by the one the Protocol declares."""
    import asyncio
    import json

    from toolc import runtime as rt

    written = [*_pydantic_reserved(), "model_dump_x", "ctx", "self", "_private", "größe",
               "match"]
    other = {"class": "class_", "my-field": "my_field", "3d": "field_3d", "__x": "x"}
    params = "".join(f"      {json.dumps(name)}: {{type: string, description: The {name}.}}\n"
                     for name in [*written, *other])
    project = analyse_text("toolc: 1\nmodule: spec_names\ntools:\n  t:\n"
                           "    description: T.\n    handler: spec_names_app:t\n"
                           "    params:\n" + params)
    package = tmp_path / "generated_spec_names"
    package.mkdir()
    for rel, text in generate_project(project).items():
        (package / rel).write_text(text, encoding="utf-8")
    (tmp_path / "spec_names_app.py").write_text(
        "import json\n\n\ndef t(context, /, **params):\n"
        "    return json.dumps(params, ensure_ascii=False)\n", encoding="utf-8")
    given = {name: f"value of {name}" for name in [*written, *other]}
    sys.path.insert(0, str(tmp_path))
    try:
        module = importlib.import_module("generated_spec_names.spec_names")
        result = asyncio.run(module.toolset.call_tool(rt.RunContext(deps=None), "t", given))
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m.startswith(("generated_spec_names",
                                                               "spec_names_app"))]:
            del sys.modules[name]
    assert not result.is_error, result.text_content
    received = json.loads(result.text_content)
    assert received == {other.get(name, name): value for name, value in given.items()}
    protocol = (package / "spec_names.py").read_text(encoding="utf-8")
    for name in ["model_dump", "model_dump_x", "json", "ctx", "self", "_private", "größe",
                 *other.values()]:
        assert f"        {name}: str,\n" in protocol, name
    assert "        _self,\n        _ctx: rt.RunContext[Any],\n" in protocol
