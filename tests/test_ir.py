"""The IR's toolsets: one frozen type per kind, each with exactly the keys of its kind."""

from __future__ import annotations

import dataclasses
import typing

import pytest
from toolc.diagnostics import Span
from toolc.ir import (
    ApprovalRequiredToolsetIR,
    CombinedToolsetIR,
    ExternalToolsetIR,
    FilteredToolsetIR,
    FunctionToolsetIR,
    MCPManagerToolsetIR,
    MCPToolsetIR,
    PrefixedToolsetIR,
    PreparedToolsetIR,
    Ref,
    RenamedToolsetIR,
    ToolsetIR,
    ToolsetKind,
    WrapperToolsetIR,
    WrappingToolsetIR,
    referred,
    user_code,
)
from toolc.model.toolsets import KINDS, WRAPPING_KINDS

COMMON = ("name", "module", "span", "published")
OWN_KEYS: dict[type, tuple[str, ...]] = {
    FunctionToolsetIR: ("tools",),
    FilteredToolsetIR: ("inner", "predicate"),
    PreparedToolsetIR: ("inner", "prepare"),
    PrefixedToolsetIR: ("inner", "prefix"),
    RenamedToolsetIR: ("inner", "names"),
    WrapperToolsetIR: ("inner", "wrapper"),
    ApprovalRequiredToolsetIR: ("inner",),
    CombinedToolsetIR: ("members", "conflicts"),
    ExternalToolsetIR: ("tools",),
    MCPToolsetIR: ("stdio", "http", "tool_cache_ttl_ms", "instructions", "always_load",
                   "pinned"),
    MCPManagerToolsetIR: ("servers", "conflicts"),
}
SPAN = Span("m.toolc.yaml", 3, 3, 4)
AT = {"name": "ts", "module": "m", "span": SPAN}
REF = Ref("pkg.mod", "fn")


def test_the_union_has_one_type_per_spec_kind() -> None:
    kinds = sorted(cls.kind for cls in typing.get_args(ToolsetIR))
    assert kinds == sorted(KINDS) == sorted(typing.get_args(ToolsetKind))
    assert set(typing.get_args(ToolsetIR)) == set(OWN_KEYS)
    assert sorted(cls.kind for cls in typing.get_args(WrappingToolsetIR)) == sorted(
        WRAPPING_KINDS)


@pytest.mark.parametrize("cls", list(OWN_KEYS), ids=lambda c: c.kind)
def test_each_kind_has_exactly_its_own_keys(cls: type) -> None:
    names = tuple(f.name for f in dataclasses.fields(cls))
    assert names == COMMON + OWN_KEYS[cls]
    assert "kind" not in names  # a class constant, not a key to set


def test_a_kind_takes_no_key_of_another() -> None:
    with pytest.raises(TypeError):
        FunctionToolsetIR(**AT, tools=("a",), inner="m.other")
    with pytest.raises(TypeError):
        MCPToolsetIR(**AT, tools=("a",))


def test_a_toolset_ir_is_frozen() -> None:
    ts = PrefixedToolsetIR(**AT, inner="m.base", prefix="x_")
    with pytest.raises(dataclasses.FrozenInstanceError):
        ts.prefix = "y_"
    assert ts.qualname == "m.ts"


def test_referred_names_what_each_kind_is_built_on() -> None:
    assert referred(ApprovalRequiredToolsetIR(**AT, inner="m.base")) == ("m.base",)
    assert referred(CombinedToolsetIR(**AT, members=("m.a", "o.b"))) == ("m.a", "o.b")
    assert referred(MCPManagerToolsetIR(**AT, servers=(("one", "m.s1"), ("two", "o.s2")))) == (
        "m.s1", "o.s2")
    assert referred(FunctionToolsetIR(**AT, tools=("a",))) == ()
    assert referred(MCPToolsetIR(**AT)) == ()


def test_user_code_is_the_predicate_prepare_or_wrapper() -> None:
    assert user_code(FilteredToolsetIR(**AT, inner="m.a", predicate=REF)) == REF
    assert user_code(PreparedToolsetIR(**AT, inner="m.a", prepare=REF)) == REF
    assert user_code(WrapperToolsetIR(**AT, inner="m.a", wrapper=REF)) == REF
    assert user_code(RenamedToolsetIR(**AT, inner="m.a", names=(("a", "b"),))) is None
    assert user_code(ExternalToolsetIR(**AT, tools=("a",))) is None
