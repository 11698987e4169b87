"""Handlers, predicate, prepare function and wrapper of tests/fixtures/valid/every_kind."""

from __future__ import annotations

from typing import Any

from generated_every_kind import base, kinds
from toolc import runtime as rt


def ping(ctx: rt.RunContext[Any]) -> str:
    return "pong"


def lookup(ctx: rt.RunContext[Any], *, where: base.Address) -> base.Address:
    return base.Address(street=where.street.upper(), city=where.city.upper())


async def remove(ctx: rt.RunContext[Any], *, key: str) -> str:
    return f"removed {key}"


def always(ctx: rt.RunContext[Any]) -> bool:
    return True


async def by_name(
    ctx: rt.RunContext[Any], tools: list[rt.ToolDefinition]
) -> list[rt.ToolDefinition]:
    return sorted(tools, key=lambda tool: tool.name)


class Logged(rt.WrapperToolset):
    """Marks every result, so a test can see that calls went through the wrapper."""

    async def call_tool(
        self, ctx: rt.RunContext[Any], name: str, args: dict[str, Any], next: rt.CallNext
    ) -> rt.ToolResult:
        result = await next(ctx, name, args)
        return rt.ToolResult([*result.content, rt.TextContent(f"(logged {name})")],
                             result.structured_content, result.is_error)


def adopt(ctx: rt.RunContext[Any], *, pet: kinds.Pet) -> str:
    owner = pet.owner.name if pet.owner else "nobody"
    return f"{pet.name} of {owner}, with {len(pet.owner.pets) if pet.owner else 0} friends"
