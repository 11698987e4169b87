"""Call overhead: one call through prefixed -> renamed -> filtered -> wrapper -> combined.

Both sides run the same stack around the same async handler (it returns "ok"), with
the same arguments validated on the way in (five parameters, an enum, bounds, a
nested object): toolc's generated module `stack` (bench/synth.py's STACK_SPEC, built
by `toolc build`), and pydantic-ai's toolsets called through its ToolManager
(`handle_call`, as an agent run calls tools). One sample is the mean of a batch of
calls in one event loop; medians over the samples. Target: toolc at most 0.25x.

    bench/.venv/bin/python bench/call_overhead.py [--calls 5000] [--repeat 7]
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

from harness import (
    Figure,
    Side,
    bench_env,
    command_line,
    has_module,
    import_generated,
    parser,
    publish,
    tool,
    workdir,
)
from synth import CALL_ARGS, CALL_NAME, write_stack_project

TARGET = 0.25
Call = Callable[[int], Awaitable[None]]


async def toolc_caller(toolset: Any) -> Call:
    from toolc import runtime as rt

    ctx = rt.RunContext.empty()
    await toolset.__aenter__()
    await toolset.list_tools(ctx)  # a turn lists its tools, then calls them
    first = await toolset.call_tool(ctx.for_call("check"), CALL_NAME, dict(CALL_ARGS))
    assert not first.is_error and first.content[0].text == "ok", first

    async def calls(n: int) -> None:
        for i in range(n):
            await toolset.call_tool(ctx.for_call(f"call{i}"), CALL_NAME, CALL_ARGS)
    return calls


async def pydantic_ai_caller() -> Call:
    from peer_pydantic_ai import stack as make_stack
    from pydantic_ai import RunContext
    from pydantic_ai.messages import ToolCallPart
    from pydantic_ai.models.test import TestModel
    from pydantic_ai.tool_manager import ToolManager
    from pydantic_ai.usage import RunUsage

    stack = make_stack()
    await stack.__aenter__()
    ctx = RunContext(deps=None, model=TestModel(), usage=RunUsage())
    manager = await ToolManager(stack).for_run_step(ctx)  # a turn lists its tools
    first = await manager.handle_call(ToolCallPart(CALL_NAME, dict(CALL_ARGS), tool_call_id="check"))
    assert first == "ok", first

    async def calls(n: int) -> None:
        for i in range(n):
            await manager.handle_call(ToolCallPart(CALL_NAME, CALL_ARGS, tool_call_id=f"call{i}"))
    return calls


async def measure(ours: Call, peer: Call | None, calls: int, repeat: int,
                  ours_side: Side, peer_side: Side | None) -> None:
    async def sample(fn: Call) -> float:
        started = time.perf_counter()
        await fn(calls)
        return (time.perf_counter() - started) / calls

    await sample(ours)
    if peer is not None:
        await sample(peer)
    for _ in range(repeat):
        ours_side.samples.append(await sample(ours))
        if peer is not None and peer_side is not None:
            peer_side.samples.append(await sample(peer))


def load_stack(root: Any) -> Any:
    """Build the stack spec with toolc and import the generated module."""
    project = write_stack_project(root / "call_overhead")
    toolc = tool("toolc")
    command = [str(toolc), "build"] if toolc else [sys.executable, "-m", "toolc", "build"]
    subprocess.run(command, cwd=project.root, env=bench_env(), check=True,
                   stdout=subprocess.DEVNULL)
    return import_generated(project.root, project.handlers, "stack").toolset  # type: ignore[attr-defined]


def main(argv: list[str] | None = None) -> Figure:
    p = parser(__doc__.split("\n\n")[0], repeat=7)
    p.add_argument("--calls", type=int, default=5000, help="calls per sample (default 5000)")
    args = p.parse_args(argv)
    with workdir(args.workdir) as root:
        toolset = load_stack(root)
        ours = Side("toolc runtime, generated stack")
        peer = Side("pydantic-ai ToolManager.handle_call") if has_module("pydantic_ai") else None

        async def run() -> None:
            ours_call = await toolc_caller(toolset)
            peer_call = await pydantic_ai_caller() if peer is not None else None
            await measure(ours_call, peer_call, args.calls, args.repeat, ours, peer)

        asyncio.run(run())
    figure = Figure("call overhead: 5-level stack with validation vs pydantic-ai", ours, peer,
                    TARGET, "<= 0.25x",
                    command_line("call_overhead.py", args, {"calls": 5000, "repeat": 7}))
    if peer is None:
        figure.notes.append("pydantic-ai-slim is not installed here (bench/setup.sh installs it)")
    publish(figure, args)
    return figure


if __name__ == "__main__":
    main(sys.argv[1:])
