from __future__ import annotations

from typing import Any, Self

import pytest
import toolc.runtime as rt


def test_published_has_the_mcp_keys_and_leaves_absent_ones_out() -> None:
    full = rt.ToolDefinition(
        name="readLog",
        description="Read.",
        input_schema={"type": "object"},
        output_schema={"type": "object", "properties": {}},
        title="Read log",
        annotations={"readOnlyHint": True},
        meta={"k": None},
    )
    assert full.published() == {
        "name": "readLog",
        "title": "Read log",
        "description": "Read.",
        "inputSchema": {"type": "object"},
        "outputSchema": {"type": "object", "properties": {}},
        "annotations": {"readOnlyHint": True},
        "_meta": {"k": None},
    }
    bare = rt.ToolDefinition("t", None, {"type": "object"})
    assert bare.published() == {"name": "t", "inputSchema": {"type": "object"}}


def test_extra_fields_are_published_verbatim_after_the_known_keys() -> None:
    extra = {"icons": [{"src": "i.png"}], "x-vendor": {"n": [1, None]}}
    tool = rt.ToolDefinition("t", "d", {"type": "object"}, meta={"k": 1}, extra=extra)
    published = tool.published()
    assert list(published) == ["name", "description", "inputSchema", "_meta", "icons", "x-vendor"]
    assert published["x-vendor"] is extra["x-vendor"]
    assert tool.renamed("u").published()["icons"] == [{"src": "i.png"}]
    assert tool != rt.ToolDefinition("t", "d", {"type": "object"}, meta={"k": 1})


def test_a_known_key_in_extra_is_published_as_given() -> None:
    tool = rt.ToolDefinition("t", None, {"type": "object"}, extra={"title": None})
    assert list(tool.published().items()) == [
        ("name", "t"), ("inputSchema", {"type": "object"}), ("title", None)
    ]


def test_published_shares_the_schemas_it_was_given() -> None:
    schema = {"type": "object"}
    assert rt.ToolDefinition("t", "d", schema).published()["inputSchema"] is schema


def test_renamed_changes_only_the_name() -> None:
    tool = rt.ToolDefinition("a", "d", {"type": "object"}, title="A")
    assert tool.renamed("b") == rt.ToolDefinition("b", "d", {"type": "object"}, title="A")


class Recording(rt.AbstractToolset[Any]):
    def __init__(self) -> None:
        self.events: list[str] = []

    async def list_tools(self, ctx: rt.RunContext[Any]) -> list[rt.ToolDefinition]:
        return []

    async def call_tool(
        self, ctx: rt.RunContext[Any], name: str, args: dict[str, Any]
    ) -> rt.ToolResult:
        return rt.ToolResult.text(name)

    async def get_instructions(self, ctx: rt.RunContext[Any]) -> str | None:
        return "be brief"

    async def __aenter__(self) -> Self:
        self.events.append("enter")
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.events.append("exit")


@pytest.mark.anyio
async def test_delegating_base_forwards_everything(ctx: rt.RunContext[None]) -> None:
    inner = Recording()
    outer = rt.DelegatingToolset(inner, id="outer")
    async with outer as entered:
        assert entered is outer
        assert inner.events == ["enter"]
        assert (await outer.call_tool(ctx, "x", {})).text_content == "x"
        assert await outer.get_instructions(ctx) == "be brief"
    assert inner.events == ["enter", "exit"]
    assert outer.label == "outer"
    assert rt.DelegatingToolset(inner).label == "DelegatingToolset(Recording)"


@pytest.mark.anyio
async def test_defaults_of_the_contract(ctx: rt.RunContext[None]) -> None:
    toolset = Recording()
    assert rt.AbstractToolset.static_names(toolset) is None
    assert await rt.AbstractToolset.get_instructions(toolset, ctx) is None


class _Held(rt.AbstractToolset[None]):
    """A kind with a resource: only the two hooks are its own."""

    def __init__(self) -> None:
        self.events: list[object] = []

    async def list_tools(self, ctx: rt.RunContext[None]) -> list[rt.ToolDefinition]:
        return []

    async def call_tool(self, ctx: rt.RunContext[None], name: str,
                        args: dict[str, Any]) -> rt.ToolResult:
        raise AssertionError("not called")

    async def enter_resources(self) -> None:
        self.events.append("enter")

    async def exit_resources(self, exc_info: Any) -> None:
        self.events.append(exc_info[1])


def test_a_kind_says_what_entering_and_leaving_do_and_wrappers_pass_the_reason_on() -> None:
    import anyio

    held = _Held()
    wrapped = rt.PrefixedToolset(held, "p")

    async def scenario() -> None:
        async with wrapped as entered:
            assert entered is wrapped
        with pytest.raises(KeyError):
            async with wrapped:
                raise KeyError("why")

    anyio.run(scenario)
    assert held.events[:2] == ["enter", None]
    assert held.events[2] == "enter" and isinstance(held.events[3], KeyError)


def test_the_async_with_dunders_are_written_once_in_the_contract() -> None:
    import toolc.runtime.mcp.pinned  # noqa: F401 - its PinnedToolset is a kind too

    def kinds(cls: type) -> list[type]:
        return [cls, *(k for sub in cls.__subclasses__() for k in kinds(sub))]

    toolc_kinds = [k for k in kinds(rt.AbstractToolset) if k.__module__.startswith("toolc.")]
    assert len(toolc_kinds) > 5
    own = [k.__qualname__ for k in toolc_kinds[1:] if {"__aenter__", "__aexit__"} & vars(k).keys()]
    assert own == []
