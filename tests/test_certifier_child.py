"""toolc.certifier_child: the certifying process's own rules, without forking one
(tests/test_certifier.py forks real ones)."""

from __future__ import annotations

from toolc.certifier_child import module_closure


def test_the_closure_follows_imports_through_cycles_and_keeps_unknown_names() -> None:
    imports = {"a": ("b",), "b": ("c", "a"), "c": (), "d": ("a",)}
    assert module_closure("a", lambda m: imports.get(m, ())) == {"a", "b", "c"}
    assert module_closure("d", lambda m: imports.get(m, ())) == {"a", "b", "c", "d"}
    assert module_closure("new", lambda m: imports.get(m, ())) == {"new"}
