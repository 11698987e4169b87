"""TC233/TC234: how deep toolsets nest, and how many tools one set may publish."""

from __future__ import annotations

from collections.abc import Callable

from toolc.loader import MAX_DEPTH

Reported = list[tuple[str, int, int, str]]
HEAD = ("toolc: 1\nmodule: m\ntools:\n  t:\n    description: T.\n    handler: app:t\n"
        "toolsets:\n")


def _chain(count: int, *, reverse: bool = False) -> str:
    """Sets s1..s<count>, each asking for approval around the one before, over s0."""
    sets = [f"  s{i}: {{kind: approval_required, inner: s{i - 1}}}\n"
            for i in range(1, count + 1)]
    if reverse:
        sets.reverse()
    return HEAD + "".join(sets) + "  s0: {kind: function, tools: [t]}\n" + f"export: s{count}\n"


def test_a_chain_of_thousands_of_toolsets_is_one_error_not_a_recursion_error(
        check: Callable[..., Reported]) -> None:
    # Written from the outside in, composing it recursed 3,000 sets deep: RecursionError.
    for reverse in (False, True):
        reported = check(_chain(3000, reverse=reverse))
        assert [(code, message) for code, _, _, message in reported] == [
            ("TC233", (f"toolset 's{MAX_DEPTH}' nests {MAX_DEPTH + 1} toolsets deep; at most "
                      f"{MAX_DEPTH} are allowed"))]


def test_toolsets_nested_to_the_bound_are_fine(
        analysed: Callable[..., tuple[Reported, object]]) -> None:
    reported, ir = analysed(_chain(MAX_DEPTH - 1))
    assert reported == [] and ir is not None


def test_sets_that_double_their_tools_at_each_level_stop_at_the_bound(
        check: Callable[..., Reported]) -> None:
    # 24 levels took minutes and gigabytes: 16 million published names.
    lines = [HEAD, "  s0: {kind: function, tools: [t]}\n"]
    for i in range(1, 25):
        lines.append(f"  a{i}: {{kind: prefixed, inner: s{i - 1}, prefix: a}}\n"
                     f"  b{i}: {{kind: prefixed, inner: s{i - 1}, prefix: b}}\n"
                     f"  s{i}: {{kind: combined, toolsets: [a{i}, b{i}]}}\n")
    reported = check("".join(lines) + "export: s0\n")
    assert [(code, message.split(";")[0]) for code, _, _, message in reported] == [
        ("TC234", "toolset 's17' would publish 131,072 tools")]
