"""toolc.ir: one frozen type per toolset kind, each with exactly the keys of its kind; a
tool's published form is the runtime's wire shape."""

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
    ToolIR,
    ToolsetIR,
    ToolsetKind,
    WrapperToolsetIR,
    WrappingToolsetIR,
    referred,
    user_code,
)
from toolc.model.toolsets import KINDS
from toolc.runtime.definition import ToolDefinition
from toolc.runtime.metakeys import REQUIRES_APPROVAL

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
    wrapping = [cls.kind for cls in OWN_KEYS if "inner" in OWN_KEYS[cls]]
    assert sorted(cls.kind for cls in typing.get_args(WrappingToolsetIR)) == sorted(wrapping)


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


TOOL_SPAN = Span("specs/a.toolc.yaml", 1, 1)


def _tool(**fields: object) -> ToolIR:
    return ToolIR(name="readLog", module="logs", description="Read.",
                  input_schema={"type": "object"}, span=TOOL_SPAN, **fields)  # type: ignore[arg-type]


def test_a_compiled_tool_publishes_what_the_runtime_lists() -> None:
    tool = _tool(title="Read log", output_schema={"type": "object"},
                 annotations={"readOnlyHint": True}, meta={"k": 1}, extra={"icons": []})
    listed = ToolDefinition(name="readLog", description="Read.", input_schema={"type": "object"},
                            output_schema={"type": "object"}, title="Read log",
                            annotations={"readOnlyHint": True}, meta={"k": 1},
                            extra={"icons": []})
    assert list(tool.published().items()) == list(listed.published().items())


def test_approval_is_marked_in_meta_and_a_pinned_tool_without_description_has_none() -> None:
    tool = _tool(requires_approval=True, has_description=False, meta={"k": 1})
    assert tool.published() == {"name": "readLog", "inputSchema": {"type": "object"},
                                "_meta": {"k": 1, REQUIRES_APPROVAL: True}}
