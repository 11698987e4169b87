"""The questions the model builder asks of a schema."""

from __future__ import annotations

from generate_support import analyse_case
from toolc.generate.schemas import KEEPS_NAMED_TYPE, holds_object, recursive_aliases


def test_a_property_keeps_its_named_type_when_it_only_narrows_or_describes_it() -> None:
    assert {"description", "maxLength", "minimum", "required", "nullable"} <= KEEPS_NAMED_TYPE
    # these replace the named type's own keyword: the type may no longer hold the values
    assert not {"enum", "const", "properties", "items", "anyOf"} & KEEPS_NAMED_TYPE


def test_defaults_that_hold_objects() -> None:
    assert holds_object({"a": 1}) and holds_object([[{"a": 1}]])
    assert not holds_object([1, "a"]) and not holds_object([])


def test_only_recursive_types_that_are_not_objects_are_inexpressible() -> None:
    module = analyse_case("schemas").modules["schemas"]
    assert recursive_aliases(module) == {"Json"}  # Tree, Folder and File are models
