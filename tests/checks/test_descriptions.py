"""Descriptions on tools and on every property, their own or their type's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolc.diagnostics import Severity

H = "toolc: 1\nmodule: m\n"


def test_a_type_alias_lends_its_target_description(codes: Callable[..., list[str]]) -> None:
    text = H + ("types:\n  A: {type: B}\n  B: {type: string, description: B.}\ntools:\n"
                "  t: {description: T., handler: x.y:t, params: {p: {type: A}}}\n")
    assert codes(text) == []


def test_array_items_and_deep_properties(check: Callable[..., list]) -> None:
    text = H + ("tools:\n  t:\n    description: T.\n    handler: x.y:t\n    params:\n"
                "      p:\n        type: array\n        description: P.\n        items:\n"
                "          type: object\n          properties: {q: {type: string}}\n")
    (r,) = check(text)
    assert r[:3] == ("TC201", 13, 24) and r[3] == "property 'p.q' of tool 't' has no description"


def test_external_tools_get_warnings(analysed: Callable[..., Any]) -> None:
    reported, ir = analysed(H + "toolsets:\n  e:\n    kind: external\n    tools:\n      t:\n"
                       "        input_schema: {type: object, properties: {a: {}}}\n")
    assert [r[0] for r in reported] == ["TC201", "TC201"] and ir is not None
    from toolc.diagnostics import DiagnosticBag
    from toolc.frontend import analyse
    from toolc.loader import load_text

    bag = DiagnosticBag()
    analyse([load_text(H + "tools:\n  t: {handler: x.y:t}\n", "m.toolc.yaml")], bag)
    assert [d.severity for d in bag] == [Severity.ERROR]


def test_an_undescribed_type_of_another_module_is_reported_once_at_it() -> None:
    from toolc.diagnostics import DiagnosticBag
    from toolc.frontend import analyse
    from toolc.loader import load_text

    lib = load_text("toolc: 1\nmodule: lib\ntypes:\n  Id: {type: string}\n", "lib.toolc.yaml")
    app = load_text("toolc: 1\nmodule: app\ntools:\n  t:\n    description: T.\n"
                    "    handler: x.y:t\n    params:\n      a: {type: lib.Id}\n"
                    "      b: {type: lib.Id, description: Own.}\n", "app.toolc.yaml")
    bag = DiagnosticBag()
    analyse([lib, app], bag)
    [d] = bag
    assert d.code == "TC201" and d.span is not None and (d.span.path, d.span.line) == (
        "lib.toolc.yaml", 4)
    assert d.message == "type 'Id' has no description, nor has the property that uses it"
    assert d.notes[0] == "used by parameter 'a' of tool 't' (line 8 of app.toolc.yaml)"
