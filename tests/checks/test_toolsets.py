"""Kind-specific rules: mcp transports, external schemas, manager servers, handlers."""

from __future__ import annotations

from collections.abc import Callable

H = "toolc: 1\nmodule: m\n"


def test_mcp_needs_exactly_one_transport(codes: Callable[..., list[str]]) -> None:
    assert codes(H + "toolsets:\n  s: {kind: mcp, stdio: {command: x}}\n") == []
    assert codes(H + "toolsets:\n  s: {kind: mcp, http: {url: u}, stdio: {command: x}}\n") \
        == ["TC404"]


def test_manager_servers_are_mcp_toolsets(codes: Callable[..., list[str]]) -> None:
    text = H + ("toolsets:\n  s: {kind: mcp, stdio: {command: x}}\n"
                "  c: {kind: combined, toolsets: [s]}\n"
                "  g: {kind: mcp_manager, servers: {one: s, two: c}}\n")
    assert codes(text) == ["TC408"]


def test_handlers_are_needed_only_by_function_toolsets(codes: Callable[..., list[str]]) -> None:
    text = H + ("tools:\n  a: {description: A.}\ntoolsets:\n"
                "  s: {kind: mcp, stdio: {command: x}}\nexport: s\n")
    assert codes(text) == []
    assert codes(text.replace("export: s\n", "")) == ["TC310"]


def test_external_input_schema_must_be_an_object(codes: Callable[..., list[str]]) -> None:
    text = H + ("toolsets:\n  e:\n    kind: external\n    tools:\n"
                "      t: {description: T., input_schema: {type: array}}\n")
    assert codes(text) == ["TC405"]
