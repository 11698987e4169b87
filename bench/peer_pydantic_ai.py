"""pydantic-ai's side of the call-overhead figure: the same stack in its toolsets.

Imported only when pydantic-ai-slim is installed (bench/setup.sh), never by toolc.
No ``from __future__ import annotations`` here: pydantic-ai reads the handlers'
annotations at run time, and they must name real module-level types.
"""

from typing import Any, Literal

from pydantic import BaseModel, Field
from pydantic_ai import RunContext
from pydantic_ai.toolsets import CombinedToolset, FunctionToolset, WrapperToolset

Mode = Literal["fast", "slow", "auto"]


class Target(BaseModel):
    host: str = Field(description="The host name.")
    port: int = Field(description="The TCP port.", ge=1, le=65535)


async def tool0(ctx: RunContext[None], name: str, mode: Mode, target: Target,
                count: int = Field(10, ge=1, le=100), ratio: float | None = None) -> str:
    """The tool the benchmark calls."""
    return "ok"


async def tool1(ctx: RunContext[None], name: str, mode: Mode, target: Target,
                count: int = Field(10, ge=1, le=100), ratio: float | None = None) -> str:
    """A second tool, so the rename and the combination have work to do."""
    return "ok"


async def other(ctx: RunContext[None], name: str, mode: Mode, target: Target,
                count: int = Field(10, ge=1, le=100), ratio: float | None = None) -> str:
    """The other member's tool."""
    return "ok"


class PassThrough(WrapperToolset[None]):  # type: ignore[misc]  # Any where pydantic-ai is absent
    """A wrapper that only forwards, as bench_app.tools.PassThrough does for toolc."""

    async def call_tool(self, name: str, tool_args: dict[str, Any], ctx: Any, tool: Any) -> Any:
        return await super().call_tool(name, tool_args, ctx, tool)


def stack() -> CombinedToolset[None]:
    """function -> prefixed -> renamed -> filtered -> wrapper -> combined."""
    # pydantic-ai joins prefix and name with "_": prefix "p" gives "p_tool0".
    inner = FunctionToolset([tool0, tool1]).prefixed("p").renamed({"p_renamed": "p_tool1"})
    wrapped = PassThrough(inner.filtered(lambda ctx, tool_def: True))
    return CombinedToolset([wrapped, FunctionToolset([other])])
