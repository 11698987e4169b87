"""The support code generated modules use: the lazy module machinery, exercised on a
real module run from source written the way a generated module is."""

from __future__ import annotations

import ast
import sys
import typing
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Annotated, Any

import pytest
import toolc.runtime as rt
from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic.fields import FieldInfo
from toolc.runtime import _generated as rtg
from toolc.runtime._generated import lazy_module


def test_pydantic_is_imported_only_when_a_validator_is_made() -> None:
    tree = ast.parse(Path(lazy_module.__file__).read_text(encoding="utf-8"))
    top = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert all("pydantic" not in (getattr(n, "module", None) or "") for n in top)


SOURCE = r'''
from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias

from toolc import runtime as rt
from toolc.runtime import _generated as rtg

if TYPE_CHECKING:
    from pydantic import BaseModel, Field
else:
    _classes = rtg.ClassRecorder()
    (BaseModel,) = _classes.stand_ins("BaseModel")

CALLS: list[str] = []  # the toolset builders called
TITLE = "Level"  # a string, but no alias: left as it is


class Item(BaseModel):
    name: str
    level: Level = "low"


class Left(BaseModel):  # Left and Right refer to each other
    right: Right | None = None
    item: Item | None = None


class Right(BaseModel):
    left: Left | None = None


Level: TypeAlias = """Annotated[Literal["low", "high"], Field(description="How loud.")]"""
Items: TypeAlias = """Annotated[list[Item], Field(description="Some items.")]"""
Loud: TypeAlias = r"""Annotated[Level | None, Field(description="A level,\nor none.")]"""


def _toolset_app() -> rt.AbstractToolset[Any]:
    CALLS.append("app")
    return rt.FunctionToolset([], id="lazy_probe.app")


def _toolset_toolset() -> rt.AbstractToolset[Any]:
    return _lazy.toolset("app")


if not TYPE_CHECKING:
    _lazy = rtg.LazyModule(
        globals(),
        _classes,
        needs={"Item": ["Level"], "Left": ["Item"], "Items": ["Item"], "Loud": ["Level"]},
        cycles=[["Left", "Right"]],
    )
    __getattr__ = _lazy.getattr
    __dir__ = _lazy.dir
'''


@pytest.fixture
def module() -> Iterator[ModuleType]:
    """A module shaped like a generated one: models, aliases, toolsets, an export."""
    mod = ModuleType("lazy_probe")
    sys.modules[mod.__name__] = mod
    try:
        exec(compile(SOURCE, "<lazy_probe>", "exec"), mod.__dict__)  # noqa: S102
        yield mod
    finally:
        del sys.modules[mod.__name__]


def _description(alias: Any) -> str | None:
    assert typing.get_origin(alias) is Annotated
    (field,) = alias.__metadata__
    assert isinstance(field, FieldInfo)  # pydantic's own Field, not a recording
    return field.description


def test_an_alias_is_its_text_until_first_use_then_made_once(module: ModuleType) -> None:
    assert "Level" not in vars(module)  # taken out of the globals: the module makes it
    level = module.Level
    assert vars(module)["Level"] is level and module.Level is level
    assert typing.get_args(level)[0] == typing.Literal["low", "high"]
    assert _description(level) == "How loud."
    assert TypeAdapter(level).validate_python("high") == "high"
    with pytest.raises(ValidationError):
        TypeAdapter(level).validate_python("loud")
    assert vars(module)["TITLE"] == "Level"  # a string that is no alias stays


def test_an_alias_naming_a_model_makes_the_model_first(module: ModuleType) -> None:
    items = module.Items
    assert {"Item", "Level"} <= set(vars(module))  # and what the model needs
    assert _description(items) == "Some items."
    (item,) = TypeAdapter(items).validate_python([{"name": "a", "level": "high"}])
    assert isinstance(item, module.Item) and item.level == "high"
    with pytest.raises(ValidationError):
        TypeAdapter(items).validate_python([{"name": "a", "level": "loud"}])


def test_an_alias_naming_another_alias_makes_that_one_first(module: ModuleType) -> None:
    loud = module.Loud
    level, none = typing.get_args(typing.get_args(loud)[0])
    assert vars(module)["Level"] is level and none is type(None)
    assert _description(loud) == "A level,\nor none."  # its escape, kept raw
    assert TypeAdapter(loud).validate_python("low") == "low"
    assert TypeAdapter(loud).validate_python(None) is None
    with pytest.raises(ValidationError):
        TypeAdapter(loud).validate_python("loud")


def test_a_model_naming_an_alias_makes_the_alias_first(module: ModuleType) -> None:
    item = module.Item
    assert "Level" in vars(module)
    assert issubclass(item, BaseModel)
    assert item.model_fields["level"].description == "How loud."
    with pytest.raises(ValidationError):
        item.model_validate({"name": "a", "level": "loud"})


def test_a_cycle_is_made_together_after_what_it_needs(module: ModuleType) -> None:
    right = module.Right
    assert {"Left", "Item", "Level"} <= set(vars(module))
    left = module.Left.model_validate({"right": {"left": {}}, "item": {"name": "a"}})
    assert isinstance(left.right, right) and isinstance(left.right.left, module.Left)


def test_model_and_toolset_return_the_module_attribute(module: ModuleType) -> None:
    lazy: rtg.LazyModule = module._lazy
    assert lazy.model("Item") is module.Item
    app = lazy.toolset("app")
    assert module.toolset is app and module.app is app
    assert module.CALLS == ["app"]


def test_a_stand_in_set_before_first_use_is_kept(module: ModuleType) -> None:
    stand_in = rt.FunctionToolset([], id="stand-in")
    module.__dict__["app"] = stand_in  # what the importer does with pinned toolsets
    assert module.toolset is stand_in
    assert module._lazy.toolset("app") is stand_in
    assert module.CALLS == []


def test_an_alias_set_before_first_use_is_kept_and_used(module: ModuleType) -> None:
    module.__dict__["Level"] = int
    assert module.Level is int
    assert TypeAdapter(module.Loud).validate_python(3) == 3


def test_an_unknown_name_is_an_attribute_error(module: ModuleType) -> None:
    with pytest.raises(AttributeError, match=r"^module 'lazy_probe' has no attribute 'Nope'$"):
        module.Nope  # noqa: B018
    assert not hasattr(module, "Nope")


def test_a_name_asked_for_while_being_made_is_a_name_error() -> None:
    """A cycle across modules: pydantic takes the NameError as a reference for later."""
    ns: dict[str, Any] = {"__name__": "cyclic", "__annotations__": {"A": "TypeAlias"},
                          "A": "again('A')"}
    lazy = rtg.LazyModule(ns)
    ns["again"] = lazy.getattr
    with pytest.raises(NameError, match=r"^cyclic.A is still being built$"):
        lazy.getattr("A")
    # the failed attempt is forgotten: the next one makes it again, not a cycle
    with pytest.raises(NameError, match="still being built"):
        lazy.getattr("A")
    assert "A" not in ns


def test_dir_lists_globals_and_everything_it_can_make(module: ModuleType) -> None:
    names = dir(module)
    assert names == sorted(names)
    assert {"Item", "Left", "Right", "Level", "Items", "Loud", "app", "toolset",
            "_lazy"} <= set(names)
    assert "Level" not in vars(module) and module.CALLS == []


def test_a_toolset_the_module_builds_takes_no_more_tools(module: ModuleType) -> None:
    """Its tools are the spec's, as the golden files publish them: one added in Python
    would be served, and certified by no build."""
    with pytest.raises(RuntimeError) as info:
        module.app.add_tool(rt.Tool("late", "Late.", handler=len, input_schema={}))
    assert str(info.value) == (
        "lazy_probe.app: cannot add tool 'late': generated module lazy_probe built the set: "
        "its members are the spec's, as the golden files publish them; add to the spec, or "
        "combine this set with one of your own in a CombinedToolset"
    )
    assert list(module.app.tools) == []
