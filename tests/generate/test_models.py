"""Schemas -> pydantic models: a tool refuses what its published schema refuses (the
validator of record), its model converts everything the schema accepts into the
handler's types, and the models carry every description."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, get_args

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples
from pydantic import BaseModel
from schema_instances import json_values
from toolc.generate.names import module_names
from toolc.ir import ProjectIR, ToolIR

Load = Callable[[str], Any]

VALID = {  # the smallest arguments `everything` accepts
    "text": "hi", "tags": ["a"], "mode": None, "version": "v1", "email": "a@b",
    "point": {"x": 1, "y": 2}, "labels": {}, "either": 3, "exactly": "xyz", "shape": None,
}


@pytest.fixture(scope="module")
def schemas(importable: Load) -> Any:
    return importable("schemas.schemas")


def _everything(schemas: Any) -> Any:
    app = schemas.toolset
    while not hasattr(app, "tools"):
        app = app.inner
    return app.tools["everything"]


def _refused(schemas: Any, args: dict[str, Any]) -> str:
    problems = _everything(schemas).validator.problems(args)
    assert problems, f"accepted: {args}"
    return "\n".join(problems)


@pytest.mark.parametrize(("change", "why"), [
    ({"text": ""}, "- text: "),                               # minLength
    ({"count": 7}, "- count: 7 is not a multiple of 5"),      # multipleOf
    ({"count": 100}, "- count: 100 is greater than or equal to the maximum of 100"),
    ({"tags": []}, "- tags: [] has less than 1 item"),        # minItems
    ({"tags": ["123456789"]}, "- tags[0]: "),                 # items' maxLength
    ({"version": "v2"}, "- version: "),                       # const
    ({"mode": "medium"}, "- mode: "),                         # enum with null
    ({"email": "nope"}, "- email: \"nope\" does not match"),  # a named type's pattern
    ({"backup": None}, "- backup: null is not of type"),      # optional, not nullable
    ({"backup": "a@" + "b" * 39}, "- backup: "),              # overlay beats the type
    ({"level": 4}, "- level: 4 is not one of 1, 2, 3"),       # integer enum
    ({"level": True}, "- level: true is not one of 1, 2, 3"), # true is not 1 in JSON
    ({"point": {"x": 1, "y": 2, "z": 3}}, "- point: Additional properties"),
    ({"labels": dict.fromkeys("abcdef", "v")}, "- labels: "),  # maxProperties
    ({"exactly": "abc"}, "- exactly: "),                      # lookahead (ECMA-262)
    ({"exactly": -1}, "- exactly: "),
    ({"shape": {"radius": 0}}, "- shape: "),                  # exclusiveMinimum in anyOf
    ({"unknown": 1}, "- (arguments): Additional properties"),  # the input object is closed
])
def test_everything_refuses_what_the_schema_refuses(schemas: Any, change: dict[str, Any],
                                                    why: str) -> None:
    assert why in _refused(schemas, {**VALID, **change})
    # and what it accepted, its model converts
    schemas.EverythingParams.model_validate(VALID)


def test_union_branches_are_named_by_their_titles(schemas: Any) -> None:
    params = schemas.EverythingParams.model_validate({**VALID, "reason": {"why": "later"}})
    assert type(params.reason) is schemas.EverythingParamsReasonNotPlanned
    assert type(params.reason).__doc__ == "Not to be done."
    # the model reads why its value fits neither branch, each named by its title
    assert _refused(schemas, {**VALID, "reason": {"of": "one"}}).splitlines() == [
        '- reason: {"of":"one"} matches none of the 2 branches of oneOf:',
        "  - 'Duplicate' (branch 1): of: \"one\" is not of type \"integer\"",
        "  - 'Not planned' (branch 2): \"why\" is a required property"]


def test_a_nullable_union_tells_the_model_each_branch(schemas: Any) -> None:
    # Shape (anyOf: circle, square) made nullable: the three branches a value may take
    assert _refused(schemas, {**VALID, "shape": {"radius": 0}}).splitlines()[-4:] == [
        '- shape: {"radius":0} matches none of the 3 branches of anyOf:',
        "  - branch 1.1 (object): radius: 0 is less than or equal to the minimum of 0",
        ("  - branch 1.2 (object): Additional properties are not allowed ('radius' was "
        'unexpected); "side" is a required property'),
        '  - branch 2 (null): {"radius":0} is not of type "null"']


def test_everything_accepts_and_fills_in_defaults(schemas: Any) -> None:
    params = schemas.EverythingParams.model_validate(
        {**VALID, "ratio": None, "shape": {"side": 2}, "tree": {"label": "t"},
         "folder": {"name": "f", "files": [{"name": "a", "folder": {"name": "g"}}]}})
    assert (params.count, params.flag, params.level, params.backup) == (10, False, 2, None)
    assert type(params.settings) is schemas.EverythingParamsSettings  # a dict default,
    assert params.settings.depth == 1                                 # validated
    assert type(params.shape) is schemas.ShapeOption2
    assert params.tree.children == []
    assert type(params.folder.files[0].folder) is schemas.Folder


def test_additional_properties_are_kept_and_typed_by_their_schema(schemas: Any) -> None:
    params = schemas.LooseParams.model_validate(
        {"known": "k", "other": 1, "scores": {"best": 3, "worst": 1}})
    assert params.model_extra == {"other": 1}  # additional_params: passed on to the handler
    assert params.scores.model_extra == {"worst": 1}


def test_the_published_nulls_are_the_models_nulls(schemas: Any) -> None:
    ok = schemas.EverythingParams.model_validate({**VALID, "anything": None})
    assert ok.anything is None  # a schema without a type accepts null
    assert "- tree: null is not of type" in _refused(schemas, {**VALID, "tree": None})


def _tools(projects: dict[str, ProjectIR]) -> list[tuple[str, ToolIR]]:
    return [(f"{case}.{module.name}", tool)
            for case, project in projects.items() if case != "wrong_handler"
            for module in project.modules.values()
            for tool in module.tools.values() if not tool.external]


@settings(max_examples=examples(25), deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_every_schema_valid_argument_is_accepted(data: st.DataObject, importable: Load,
                                                 projects: dict[str, ProjectIR]) -> None:
    """Whatever the published input schema allows, the model validates."""
    for where, tool in _tools(projects):
        model = _model_for(importable(where), tool)
        args = data.draw(json_values(tool.input_schema), label=tool.name)
        model.model_validate(args)


def _model_for(generated: Any, tool: ToolIR) -> type[BaseModel]:
    """The params model the tool's rt.Tool validates with."""
    for name in generated.__all__:
        if name.endswith("Params"):
            model = getattr(generated, name)
            aliases = [f.alias or n for n, f in model.model_fields.items()]
            if aliases == list(tool.input_schema["properties"]):
                return model
    raise AssertionError(f"no params model for {tool.name}")


def _descriptions(schema: Any, pointer: str = "") -> dict[str, str]:
    """Every property description in a published schema, by dotted property path."""
    found: dict[str, str] = {}
    if isinstance(schema, dict):
        for name, prop in (schema.get("properties") or {}).items():
            path = f"{pointer}.{name}" if pointer else name
            if isinstance(prop, dict) and "description" in prop:
                found[path] = prop["description"]
            found.update(_descriptions(prop, path))
            for branch in prop.get("anyOf", []) if isinstance(prop, dict) else []:
                found.update(_descriptions(branch, path))
    return found


def _model_descriptions(model: type[BaseModel], pointer: str = "",
                        seen: frozenset[type[BaseModel]] = frozenset()) -> dict[str, str]:
    """Every field description of a model and the models in it, by alias path."""
    found: dict[str, str] = {}
    for name, info in model.model_fields.items():
        path = f"{pointer}.{info.alias or name}" if pointer else (info.alias or name)
        if info.description is not None:
            found[path] = info.description
        for nested in _models_in(info.annotation):
            if nested not in seen:  # a recursive type: its fields are listed once
                found.update(_model_descriptions(nested, path, seen | {model}))
    return found


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in get_args(annotation) for m in _models_in(arg)]


@pytest.mark.parametrize("case", ["names", "schemas", "workbench"])
def test_every_description_arrives_exactly(case: str, importable: Load,
                                           projects: dict[str, ProjectIR]) -> None:
    for module in projects[case].modules.values():
        generated = importable(f"{case}.{module.name}")
        assert generated.__doc__ == module.description
        for tool in module.tools.values():
            published = _descriptions(tool.input_schema)
            carried = _model_descriptions(_model_for(generated, tool))
            # (recursive types are published through $defs: their inner levels are not
            # walked here; the model's own copy is checked where the type is defined)
            assert {k: carried.get(k) for k in published} == published
        python_names = module_names(module).types
        for named in module.types.values():
            value = getattr(generated, python_names[named.name])
            if not isinstance(value, type):  # an alias: Annotated[..., Field(description)]
                assert get_args(value)[1].description == named.spec["description"]
            if named.schema.get("type") == "object":
                found = [getattr(generated, n) for n in generated.__all__
                         if getattr(getattr(generated, n), "__doc__", None)
                         == named.schema["description"]]
                assert found, named.name


def test_tricky_text_arrives_exactly(importable: Load, projects: dict[str, ProjectIR]) -> None:
    """Quotes, backslashes, template syntax, controls, bidi and emoji, byte for byte."""
    module = projects["names"].modules["names"]
    names = importable("names.names")
    assert names.__doc__ == module.description
    for text in ('"""', "'''", "\\", "{{ jinja }}", "{% if x %}", "\t", "\n", "\r", "\x01",
                 "\x1b", "\x7f", "🎉", "שלום", "\u202e", "\u00a0", "\u2028"):
        assert text in names.__doc__
    assert names.__doc__.endswith('quote"')
    assert names.Any2.__doc__ == module.types["Any"].spec["description"]
    assert names.Any2.__doc__.endswith("\\")
    tool = module.tools["my.tool-x"]
    assert names.MyToolXHandler.__doc__ == tool.description
    assert names.MyToolXParams.model_fields["class_"].alias == "class"
    assert names.MyToolXParams.model_fields["groe"].alias == "größe"
