"""Name rules for tools, and identifiers for types and toolsets."""

from __future__ import annotations

from collections.abc import Callable

from toolc.checks.names import name_level, name_problem

H = "toolc: 1\nmodule: m\n"


def test_name_problem_tells_mcp_from_portable() -> None:
    assert name_problem("read_log-2") is None
    assert name_problem("") == ("TC301", "is empty")
    assert name_problem("a b") == ("TC301", "contains ' '")
    assert name_problem("a" * 129) == ("TC301", "is 129 characters long (at most 128)")
    assert name_problem("a.b") == ("TC302", "contains '.'")
    assert name_problem("a" * 65) == ("TC302", "is 65 characters long (at most 64)")
    assert [name_level(n) for n in ("ok", "a.b", "a b")] == [0, 1, 2]


def test_tool_names_of_tools_and_external_tools(codes: Callable[..., list[str]]) -> None:
    assert codes(H + "tools:\n  a/b: {description: A., handler: x.y:z}\n") == ["TC301"]
    assert codes(H + "toolsets:\n  e:\n    kind: external\n    tools:\n      'x.y': "
                 "{description: X., input_schema: {type: object}}\n") == ["TC302"]


def test_identifiers(codes: Callable[..., list[str]]) -> None:
    assert codes(H + "types:\n  object: {type: string}\n") == ["TC311"]
    assert codes(H + "toolsets:\n  for: {kind: function, tools: []}\n") == ["TC311"]
    assert codes(H + "toolsets:\n  good_name: {kind: function, tools: []}\n") == []


def test_external_tool_names_are_unique_in_the_module(codes: Callable[..., list[str]]) -> None:
    ext = ("  {n}:\n    kind: external\n    tools:\n      t: {{description: T., "
           "input_schema: {{type: object}}}}\n")
    assert codes(H + "toolsets:\n" + ext.format(n="e1") + ext.format(n="e2")) == ["TC312"]
