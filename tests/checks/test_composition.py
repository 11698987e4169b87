"""Static composition: published names, collisions, renames and cycles."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

H = ("toolc: 1\nmodule: m\ntools:\n  a: {description: A., handler: x.y:a}\n"
     "  b: {description: B., handler: x.y:b}\ntoolsets:\n"
     "  ab: {kind: function, tools: [a, b]}\n  ba: {kind: function, tools: [b, a]}\n")


def _published(analysed: Callable[..., Any], text: str, name: str) -> Any:
    reported, ir = analysed(text)
    assert ir is not None, reported
    return ir.modules["m"].toolsets[name].published  # type: ignore[attr-defined]


def test_last_wins_keeps_the_later_tool_at_its_own_place(analysed: Callable[..., Any]) -> None:
    text = H + "  c: {kind: combined, conflicts: last_wins, toolsets: [ab, ba]}\nexport: c\n"
    assert _published(analysed, text, "c") == ("b", "a")


def test_prefix_and_rename_compose(analysed: Callable[..., Any]) -> None:
    text = H + ("  p: {kind: prefixed, inner: ab, prefix: x_}\n"
                "  r: {kind: renamed, inner: p, names: {x_a: first}}\nexport: r\n")
    assert _published(analysed, text, "r") == ("first", "x_b")


def test_collisions_are_grouped_per_member(check: Callable[..., list]) -> None:
    (r,) = check(H + "  c: {kind: combined, toolsets: [ab, ba]}\nexport: c\n")
    assert r[0] == "TC402" and r[1:3] == (9, 38)
    assert r[3] == "member 'ba' of toolset 'c' publishes 'b', 'a', already published by member 'ab'"


def test_renames_are_not_checked_against_sets_known_only_at_run_time(
        codes: Callable[..., list[str]]) -> None:
    text = H + ("  s: {kind: mcp, http: {url: 'http://127.0.0.1:1/mcp'}}\n"
                "  r: {kind: renamed, inner: s, names: {anything: else}}\n")
    assert codes(text) == []


def test_a_name_made_worse_by_a_prefix_is_reported_once_at_the_prefix(
        check: Callable[..., list]) -> None:
    (r,) = check(H + "  p: {kind: prefixed, inner: ab, prefix: 'x.'}\nexport: p\n")
    assert r[0] == "TC302" and r[1:3] == (9, 42) and "'x.a', 'x.b'" in r[3]


def test_a_name_already_bad_is_not_blamed_on_the_prefix(codes: Callable[..., list[str]]) -> None:
    text = ("toolc: 1\nmodule: m\ntools:\n  a.b: {description: A., handler: x.y:a}\n"
            "toolsets:\n  f: {kind: function, tools: [a.b]}\n"
            "  p: {kind: prefixed, inner: f, prefix: x_}\nexport: p\n")
    assert codes(text) == ["TC302"]


def test_self_reference_is_a_cycle(check: Callable[..., list]) -> None:
    (r,) = check(H + "  s: {kind: approval_required, inner: s}\n")
    assert r[0] == "TC401" and r[3] == "toolset 's' closes a cycle: s -> s"


PINNED = ("toolc: 1\nmodule: m\ntoolsets:\n"
          "  one: {kind: mcp, http: {url: 'http://127.0.0.1:1/mcp'}, tools: {ping: {input_schema: "
          "{type: object}, description: Ping.}, a: {input_schema: {type: object}, "
          "description: A.}}}\n"
          "  two: {kind: mcp, http: {url: 'http://127.0.0.1:2/mcp'}, tools: {ping: {input_schema: "
          "{type: object}, description: Ping.}}}\n")


def test_a_manager_refuses_a_name_two_servers_give(check: Callable[..., list]) -> None:
    (r,) = check(PINNED + "  g: {kind: mcp_manager, servers: {first: one, second: two}}\n"
                 "export: g\n")
    assert r[0] == "TC402" and "server 'second' of toolset 'g' publishes 'ping'" in r[3]


def test_a_manager_with_last_wins_lets_the_later_server_win(
        analysed: Callable[..., Any]) -> None:
    text = PINNED + ("  g: {kind: mcp_manager, conflicts: last_wins, servers: {first: one, "
                     "second: two}}\nexport: g\n")
    assert _published(analysed, text, "g") == ("a", "ping")
