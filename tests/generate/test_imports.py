"""What a generated module imports: exactly what its code uses."""

from __future__ import annotations

from toolc.generate.imports import (
    Uses,
    checking_imports,
    heads,
    import_order,
    pydantic_names,
    typing_names,
)
from toolc.generate.layout import ANY, INT, Call, Lit, Raw, Sub, annotated, union
from toolc.generate.models import AliasDef, FieldDef, ModelDef


def _model(name: str, annotation: Sub | Raw) -> ModelDef:
    field = FieldDef("x", annotation, annotation, Call("Field", ()), [])
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
    assert typing_names(literal, uses) == "TYPE_CHECKING, Any, Literal, Protocol, TypeAlias, cast"


def test_lower_case_aliases_need_no_type_alias_import() -> None:
    assert "TypeAlias" not in typing_names([AliasDef("size", ANY)], Uses({"size": set()}))


def test_checking_imports_come_in_isort_sections() -> None:
    uses = Uses({"A": {"Field"}}, protocols=True, check_aliases=("_Predicate: ...",))
    assert checking_imports([_model("A", Raw("int"))], uses) == [
        "    from collections.abc import Awaitable, Callable",
        "",
        "    from pydantic import BaseModel, ConfigDict, Field",
    ]
    assert checking_imports([], Uses({})) == []


def test_pydantic_names_per_block() -> None:
    assert pydantic_names([AliasDef("C", ANY)], {"C": {"Field"}}) == ["Field"]
    assert sorted(["cast", "Any", "TYPE_CHECKING"], key=import_order) == [
        "TYPE_CHECKING", "Any", "cast"]
