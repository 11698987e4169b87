"""The support code generated modules use: validators and the lazy module machinery,
exercised on a real module object as a generated module sets it up."""

from __future__ import annotations

import ast
import pickle
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import toolc.runtime as rt
from pydantic import BaseModel
from toolc.runtime import _generated as rtg
from toolc.runtime import generated_support


def test_pydantic_is_imported_only_when_a_validator_is_made() -> None:
    tree = ast.parse(Path(generated_support.__file__).read_text(encoding="utf-8"))
    top = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert all("pydantic" not in (getattr(n, "module", None) or "") for n in top)


class Built:
    """Counts the builder calls of a fake generated module."""

    def __init__(self) -> None:
        self.calls: list[str] = []


@pytest.fixture
def module() -> Iterator[tuple[ModuleType, Built]]:
    """A module shaped like a generated one: groups of classes, toolsets, an export."""
    mod = ModuleType("lazy_probe")
    built = Built()
    ns = mod.__dict__

    def build_item() -> dict[str, Any]:
        built.calls.append("Item")

        class Item(BaseModel):
            __module__ = "lazy_probe"  # as if written in the module, like generated code
            name: str

        return {"Item": Item}

    def build_pair() -> dict[str, Any]:  # two names that refer to each other
        built.calls.append("Pair")
        lazy.need("Item")

        class Left(BaseModel):
            item: Any = None

        class Right(BaseModel):
            left: Any = None

        return {"Left": Left, "Right": Right}

    def build_app() -> rt.AbstractToolset[Any]:
        built.calls.append("app")
        return rt.FunctionToolset([], id="lazy_probe.app")

    # the builders, found by name as in a generated module
    ns.update(_build_Item=build_item, _build_Left=build_pair, _build_Right=build_pair,
              _toolset_app=build_app, _toolset_toolset=lambda: lazy.toolset("app"))
    lazy = rtg.LazyModule(ns)
    ns["_lazy"] = lazy
    ns["__getattr__"] = lazy.getattr
    ns["__dir__"] = lazy.dir
    sys.modules[mod.__name__] = mod
    try:
        yield mod, built
    finally:
        del sys.modules[mod.__name__]


def test_a_model_is_built_at_first_use_once_into_the_module(
        module: tuple[ModuleType, Built]) -> None:
    mod, built = module
    assert "Item" not in vars(mod)
    item = mod.Item
    assert mod.Item is item and vars(mod)["Item"] is item
    assert built.calls == ["Item"]
    assert item.__qualname__ == "Item"  # not build_item.<locals>.Item
    assert pickle.loads(pickle.dumps(item(name="x"))) == item(name="x")


def test_a_group_is_built_together_after_what_it_needs(
        module: tuple[ModuleType, Built]) -> None:
    mod, built = module
    assert mod.Right.__qualname__ == "Right"
    assert "Left" in vars(mod) and "Item" in vars(mod)
    assert built.calls == ["Pair", "Item"]
    mod.Left  # noqa: B018 -- already built: no second call
    assert built.calls == ["Pair", "Item"]


def test_model_and_toolset_return_the_module_attribute(
        module: tuple[ModuleType, Built]) -> None:
    mod, built = module
    lazy: rtg.LazyModule = mod._lazy
    assert lazy.model("Item") is mod.Item
    app = lazy.toolset("app")
    assert mod.toolset is app and mod.app is app
    assert built.calls == ["Item", "app"]


def test_a_stand_in_set_before_first_use_is_kept(module: tuple[ModuleType, Built]) -> None:
    mod, built = module
    stand_in = rt.FunctionToolset([], id="stand-in")
    mod.__dict__["app"] = stand_in  # what the importer does with pinned toolsets
    assert mod.toolset is stand_in
    assert mod._lazy.toolset("app") is stand_in
    assert built.calls == []


def test_an_unknown_name_is_an_attribute_error(module: tuple[ModuleType, Built]) -> None:
    mod, _ = module
    with pytest.raises(AttributeError, match=r"^module 'lazy_probe' has no attribute 'Nope'$"):
        mod.Nope  # noqa: B018
    assert not hasattr(mod, "Nope")


def test_a_name_asked_for_while_being_built_is_a_name_error() -> None:
    """A cycle across modules: pydantic takes the NameError as a reference for later."""
    ns: dict[str, Any] = {"__name__": "cyclic"}

    def build_a() -> dict[str, Any]:
        lazy.getattr("A")
        return {"A": int}

    ns["_build_A"] = build_a
    lazy = rtg.LazyModule(ns)
    with pytest.raises(NameError, match=r"^cyclic.A is still being built$"):
        lazy.getattr("A")
    # the failed build is forgotten: the next attempt builds again, not a cycle
    with pytest.raises(NameError, match="still being built"):
        lazy.getattr("A")
    assert "A" not in ns


def test_dir_lists_globals_and_everything_it_can_build(
        module: tuple[ModuleType, Built]) -> None:
    mod, built = module
    names = dir(mod)
    assert names == sorted(names)
    assert {"Item", "Left", "Right", "app", "toolset", "_lazy"} <= set(names)
    assert built.calls == []


def test_a_group_build_keeps_a_name_already_set(module: tuple[ModuleType, Built]) -> None:
    mod, built = module
    kept = object()
    mod.__dict__["Right"] = kept
    assert mod.Left.__qualname__ == "Left"
    assert mod.Right is kept
    assert built.calls == ["Pair", "Item"]
