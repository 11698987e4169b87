"""References to code, tools, toolsets and the export."""

from __future__ import annotations

from collections.abc import Callable

from toolc.checks.references import is_code_reference

H = "toolc: 1\nmodule: m\ntools:\n  a: {description: A., handler: app.tools:a}\n"


def test_code_reference_shape() -> None:
    assert is_code_reference("app.tools:read") and is_code_reference("app:Tools.read")
    for bad in ("app.tools.read", "app:", ":x", "app tools:x", "a.class:x", "a:b:c", "1a:b"):
        assert not is_code_reference(bad), bad


def test_cross_module_toolsets_resolve(codes: Callable[..., list[str]]) -> None:
    other = "toolc: 1\nmodule: o\ntoolsets:\n  s: {kind: function, tools: []}\n"
    mine = H + "toolsets:\n  w: {kind: approval_required, inner: o.s}\n  v: {kind: " \
               "approval_required, inner: m.w}\nexport: v\n"
    assert codes(mine, other) == []
    assert codes(mine.replace("o.s", "o.t"), other) == ["TC306"]
    assert codes(mine.replace("o.s", "x.s"), other) == ["TC307"]


def test_export_must_be_a_toolset_of_this_module(check: Callable[..., list]) -> None:
    other = "toolc: 1\nmodule: o\ntoolsets:\n  s: {kind: function, tools: []}\n"
    (r,) = check(H + "export: o.s\n", other)
    assert r[0] == "TC406" and r[3] == "`export` must name a toolset of this module, not 'o.s'"


def test_unknown_tool_that_is_an_external_one_says_so(check: Callable[..., list]) -> None:
    text = H + ("toolsets:\n  e:\n    kind: external\n    tools:\n      x: {description: X., "
                "input_schema: {type: object}}\n  f: {kind: function, tools: [a, x]}\n")
    (r,) = check(text)
    assert r[0] == "TC304" and r[1:3] == (10, 34)


def test_references_to_broken_parts_are_not_reported_again(codes: Callable[..., list[str]]) -> None:
    text = H + "  b: {descripton: B.}\ntoolsets:\n  bad: {kind: nope}\n" \
               "  f: {kind: function, tools: [a, b]}\n  w: {kind: approval_required, inner: bad}\n"
    assert codes(text) == ["TC101", "TC103"]


def test_thousands_of_unknown_tools_are_each_reported(check: Callable[..., list]) -> None:
    count = 3000
    tools = "".join(f"  t{i}:\n    description: T.\n    handler: app:t\n" for i in range(count))
    listed = ", ".join(f"u{i}" for i in range(count))
    reported = check(f"toolc: 1\nmodule: m\ntools:\n{tools}toolsets:\n"
                     f"  s: {{kind: function, tools: [{listed}]}}\nexport: s\n")
    assert [code for code, *_ in reported] == ["TC304"] * count
