"""What a generated module imports: exactly what its code uses."""

from __future__ import annotations

from toolc.generate.imports import (
    Uses,
    checking_imports,
    heads,
    import_order,
    pydantic_names,
    stand_in_names,
    typing_names,
)
from toolc.generate.layout import ANY, INT, Call, Lit, Raw, Sub, annotated, union
from toolc.generate.models import AliasDef, FieldDef, ModelDef


def _model(name: str, annotation: Sub | Raw) -> ModelDef:
    field = FieldDef("x", "x", annotation, annotation, Call("Field", ()), [])
    return ModelDef(name, None, {"extra": "forbid"}, [field])


def test_heads_finds_subscripts_and_calls_at_any_depth() -> None:
    node = Sub("list", (union(annotated(INT, {"ge": 1}), Sub("Literal", (Lit("a"),))),))
    assert heads(node, set()) == {"list", "Annotated", "Field", "Literal"}


def test_only_used_typing_names_are_imported() -> None:
    plain = [_model("A", Raw("int"))]
    uses = Uses({"A": {"Field"}})
    assert typing_names(plain, uses) == "TYPE_CHECKING, Any"
    literal = [_model("B", Sub("Literal", (Lit("a"),))), AliasDef("C", ANY)]
    uses = Uses({"B": {"Literal", "Field"}, "C": set()}, protocols=True, cast=True)
    # Protocol is imported for mypy only: at run time the module's is a recording stand-in
    assert typing_names(literal, uses) == "TYPE_CHECKING, Any, Literal, TypeAlias, cast"


def test_lower_case_aliases_import_type_alias_too() -> None:
    # a string alias is read as a type only when it says TypeAlias, whatever its name
    assert "TypeAlias" in typing_names([AliasDef("size", ANY)], Uses({"size": set()}))


def test_checking_imports_come_in_isort_sections() -> None:
    uses = Uses({"A": {"Field"}}, protocols=True, check_aliases=("_Predicate: ...",))
    assert checking_imports([_model("A", Raw("int"))], uses) == [
        "    from collections.abc import Awaitable, Callable",
        "    from typing import Protocol",
        "",
        "    from pydantic import BaseModel, ConfigDict, Field",
    ]
    assert checking_imports([], Uses({})) == []


def test_pydantic_names_per_block() -> None:
    assert pydantic_names([AliasDef("C", ANY)], {"C": {"Field"}}) == ["Field"]
    assert sorted(["cast", "Any", "TYPE_CHECKING"], key=import_order) == [
        "TYPE_CHECKING", "Any", "cast"]


def test_stand_ins_are_what_the_class_statements_use() -> None:
    alias_only = [AliasDef("C", ANY)]
    assert stand_in_names(alias_only, Uses({"C": {"Field"}})) == []
    models = [_model("A", Raw("int")), AliasDef("C", ANY)]
    uses = Uses({"A": {"Field"}, "C": {"Field"}}, protocols=True)
    assert stand_in_names(models, uses) == ["BaseModel", "ConfigDict", "Field", "Protocol"]
    no_fields = [ModelDef("E", None, {"extra": "allow"}, [])]
    assert stand_in_names(no_fields, Uses({"E": set()})) == ["BaseModel", "ConfigDict"]
