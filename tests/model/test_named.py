"""How `type:` references find named types, within and across modules."""

from __future__ import annotations

from toolc.loader import load_text
from toolc.model.named import TypeRegistry
from toolc.model.parse import ParsedModule, parse_module


def _parsed(name: str, types: str) -> ParsedModule:
    parsed, _ = parse_module(load_text(f"toolc: 1\nmodule: {name}\ntypes:\n{types}",
                                       f"{name}.toolc.yaml"))
    return parsed


def test_local_qualified_and_foreign_references() -> None:
    a = _parsed("a", "  T: {type: string}\n")
    b = _parsed("b", "  T: {type: integer}\n  U: {type: boolean}\n")
    registry = TypeRegistry([a, b], {"a": a, "b": b})
    local = registry.lookup(a, "T")
    assert local is not None and local.qualname == "a.T" and local.span.line == 4
    assert registry.lookup(a, "a.T") is local
    assert registry.lookup(a, "b.U") is registry.local(b)["U"]
    assert registry.lookup(a, "U") is None and registry.lookup(a, "c.T") is None
    assert registry.lookup(a, "string") is None


def test_a_duplicate_module_sees_its_own_types_but_others_see_the_first() -> None:
    first, second = _parsed("a", "  T: {type: string}\n"), _parsed("a", "  V: {type: string}\n")
    other = _parsed("c", "  W: {type: string}\n")
    registry = TypeRegistry([first, second, other], {"a": first, "c": other})
    assert registry.lookup(second, "V") is not None
    assert registry.lookup(other, "a.V") is None and registry.lookup(other, "a.T") is not None
