from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import toolc.runtime as rt
from runtime_support import function_set, names, write_module

pytestmark = pytest.mark.anyio


def admin_only(ctx: rt.RunContext[Any]) -> bool:
    return bool(ctx.deps["admin"])


async def test_shows_or_hides_the_whole_inner_set() -> None:
    toolset = rt.FilteredToolset(function_set("a", "b"), admin_only)
    admin = rt.RunContext(deps={"admin": True})
    guest = rt.RunContext(deps={"admin": False})
    assert names(await toolset.list_tools(admin)) == ["a", "b"]
    assert await toolset.list_tools(guest) == []
    assert (await toolset.call_tool(admin, "a", {"text": "hi"})).text_content == "hi"
    hidden = await toolset.call_tool(guest, "a", {"text": "hi"})
    assert hidden.is_error and hidden.text_content == "Unknown tool 'a'."


async def test_async_predicates_work() -> None:
    async def later(ctx: rt.RunContext[Any]) -> bool:
        return ctx.step >= 2

    toolset = rt.FilteredToolset(function_set("a"), later)
    assert await toolset.list_tools(rt.RunContext(deps=None, step=1)) == []
    assert names(await toolset.list_tools(rt.RunContext(deps=None, step=2))) == ["a"]


async def test_predicate_runs_once_per_turn() -> None:
    calls: list[int] = []

    def predicate(ctx: rt.RunContext[Any]) -> bool:
        calls.append(ctx.step)
        return True

    toolset = rt.FilteredToolset(function_set("a"), predicate)
    ctx = rt.RunContext(deps=None)
    await toolset.list_tools(ctx)
    await toolset.call_tool(ctx.for_call("c1"), "a", {"text": "x"})
    await toolset.call_tool(ctx.for_call("c2"), "a", {"text": "x"})
    assert calls == [0]
    await toolset.list_tools(ctx.next_turn())
    assert calls == [0, 1]


async def test_a_raising_predicate_is_a_clear_error_not_a_crash() -> None:
    def broken(ctx: rt.RunContext[Any]) -> bool:
        raise KeyError("role")

    toolset = rt.FilteredToolset(function_set("a"), broken, id="admin_tools")
    ctx = rt.RunContext.empty()
    with pytest.raises(rt.ToolsetError) as info:
        await toolset.list_tools(ctx)
    assert str(info.value) == (
        "the predicate test_a_raising_predicate_is_a_clear_error_not_a_crash.<locals>.broken "
        "of admin_tools failed: KeyError: 'role'"
    )
    result = await toolset.call_tool(ctx, "a", {"text": "x"})
    assert result.is_error
    assert result.text_content.startswith("a cannot run: the predicate ")
    assert "KeyError: 'role'" in result.text_content


async def test_a_predicate_must_return_a_bool() -> None:
    toolset = rt.FilteredToolset(function_set("a"), lambda ctx: "yes")
    with pytest.raises(rt.ToolsetError, match="returned str, not bool"):
        await toolset.list_tools(rt.RunContext.empty())


async def test_lazy_predicate_is_imported_at_first_use(user_code: Path) -> None:
    write_module(user_code, "user_predicates", "def never(ctx):\n    return False\n")
    toolset = rt.FilteredToolset(function_set("a"), rt.LazyRef("user_predicates", "never"))
    assert await toolset.list_tools(rt.RunContext.empty()) == []
    missing = rt.FilteredToolset(function_set("a"), rt.LazyRef("user_predicates", "gone"))
    result = await missing.call_tool(rt.RunContext.empty(), "a", {"text": "x"})
    assert result.is_error and "cannot import user_predicates:gone" in result.text_content
