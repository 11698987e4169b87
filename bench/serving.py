"""Serving: in-process MCP round trips through toolc's server against a bare mcp Server.

Ours: the export of a generated module of N tools, served by `toolc serve`'s server
(`toolc.runtime.to_mcp_server`). Peer: a bare mcp low-level `Server` with hand-written
handlers: tools/list returns the same N published tools (toolc's golden files, loaded
once), tools/call looks the tool up, validates the arguments with a hand-written
pydantic model and calls the same handler. Both are reached by a real `mcp.Client`
connected in-process; the client has listed the tools before calling, as clients do.
Two figures, each at most 1.1x: a tools/call round trip, and a tools/list of N tools
(the client's cache bypassed).

Then through a real load balancer (HAProxy, else nginx: `balancer.py`): calls per second
with 1 and with 3 replicas behind it, `toolc serve --stateless` against the same bare
Server over the SDK's stateless streamable HTTP app (`bare_replica.py`), each set behind
its own balancer of the same configuration, driven by `--agents` clients at once (each
keeps its connection, as an agent does). Every process shares this machine's cores, the
clients too: the figures compare the two servers, not what more machines would give.

    bench/.venv/bin/python bench/serving.py [--tools 1000] [--calls 300] [--lists 10]
        [--agents 8] [--balanced-calls 400] [--no-balancer]
"""

from __future__ import annotations

import asyncio
import gc
import importlib
import json
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AsyncExitStack, contextmanager
from pathlib import Path
from typing import Any, Literal

from balancer import HOST, available, free_port, start_balancer
from harness import (
    BENCH,
    Figure,
    Side,
    bench_env,
    command_line,
    import_generated,
    parser,
    publish,
    tool,
    workdir,
)
from pydantic import BaseModel, Field, ValidationError
from synth import CALL_ARGS, module_name, write_project

TARGET = 1.1


class Target(BaseModel):
    host: str = Field(description="The host name.")
    port: int = Field(description="The TCP port.", ge=1, le=65535)


class Params(BaseModel):
    """The hand-written validator of the bare server (every synthetic tool has these)."""

    model_config = {"extra": "forbid"}
    count: int = Field(10, description="How many items to process.", ge=1, le=100)
    name: str = Field(description="The name of the item.", max_length=64)
    mode: Literal["fast", "slow", "auto"] = Field(description="How to process the items.")
    ratio: float | None = Field(None, description="The share of items to keep.", ge=0, le=1)
    target: Target = Field(description="Where to send the result.")


def bare_server(published: list[dict[str, Any]], handler: Any) -> Any:
    from mcp.server import Server

    names = {tool["name"] for tool in published}

    async def on_list_tools(ctx: Any, params: Any) -> Any:  # the SDK takes plain dicts
        # The 2026-07-28 protocol requires these three; toolc's server sends the same.
        return {"tools": published, "ttlMs": 0, "cacheScope": "private",
                "resultType": "complete"}

    async def on_call_tool(ctx: Any, params: Any) -> Any:
        if params.name not in names:
            return {"content": [{"type": "text", "text": f"Unknown tool {params.name}"}],
                    "isError": True, "resultType": "complete"}
        try:
            values = Params.model_validate(params.arguments or {})
        except ValidationError as exc:
            return {"content": [{"type": "text", "text": str(exc)}], "isError": True,
                    "resultType": "complete"}
        text = await handler(None, **values.__dict__)
        return {"content": [{"type": "text", "text": text}], "isError": False,
                "resultType": "complete"}

    return Server("bare", on_list_tools=on_list_tools, on_call_tool=on_call_tool)


Action = Callable[[Any], Awaitable[None]]


async def call_once(client: Any) -> None:
    result = await client.call_tool("tool0", CALL_ARGS)
    assert not result.is_error, result


def list_once(expected: int) -> Action:
    async def action(client: Any) -> None:
        result = await client.list_tools(cache_mode="bypass")
        assert len(result.tools) == expected and not result.next_cursor
    return action


async def sample(client: Any, action: Action, count: int) -> float:
    started = time.perf_counter()
    for _ in range(count):
        await action(client)
    return (time.perf_counter() - started) / count


async def measure(servers: tuple[Any, Any], action: Action, count: int, repeat: int,
                  sides: tuple[Side, Side], *, freeze: bool = True) -> None:
    from mcp import Client

    async with Client(servers[0]) as ours, Client(servers[1]) as peer:
        for client in (ours, peer):
            await client.list_tools(cache_mode="bypass")  # clients list before calling
            await sample(client, action, max(1, count // 10))  # warm-up
        if freeze:
            # Both servers, both clients and the golden tools live in this one process: a
            # full collection walks all of them, at whichever side happens to allocate
            # then. A listing of 1,000 tools allocates enough to set one off every few
            # lists, so without this the list figure measured where they fell (0.8 to 2.0
            # in one hour). Frozen, the set-up is out of the collector's way, as in a
            # long-running server (`toolc serve` freezes after start-up too).
            gc.collect()
            gc.freeze()
        try:
            for _ in range(repeat):
                sides[0].samples.append(await sample(ours, action, count))
                sides[1].samples.append(await sample(peer, action, count))
        finally:
            gc.unfreeze()


def build(root: Path, tools: int) -> tuple[Any, Any, list[dict[str, Any]], Any]:
    """toolc builds one module of ``tools`` tools; the project, its toolset, golden tools
    and handler."""
    project = write_project(root / "serving", tools, per_file=tools)
    toolc = tool("toolc")
    command = [str(toolc), "build"] if toolc else [sys.executable, "-m", "toolc", "build"]
    subprocess.run(command, cwd=project.root, env=bench_env(), check=True,
                   stdout=subprocess.DEVNULL)
    module: Any = import_generated(project.root, project.handlers, module_name(0))
    golden = project.output / "schemas" / module_name(0)
    published = [json.loads((golden / f"tool{i}.json").read_text()) for i in range(tools)]
    handler = importlib.import_module("bench_app.tools").handle
    return project, module.toolset, published, handler


def wait_listening(port: int, proc: subprocess.Popen[bytes], what: str) -> None:
    deadline = time.monotonic() + 120  # a bound for a busy machine, not a measurement
    while True:
        try:
            socket.create_connection((HOST, port), timeout=1).close()
            return
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"{what} did not start on port {port}") from None
            time.sleep(0.05)


@contextmanager
def fleets(root: Path, project: Any, tools: int) -> Iterator[dict[tuple[str, int], int]]:
    """Three toolc replicas and three bare ones; a balancer in front of the first one and
    of all three, for each side: {(side, replicas): the balancer's port}."""
    procs: list[subprocess.Popen[bytes]] = []
    env = bench_env(project.handlers)
    golden = project.output / "schemas" / module_name(0)
    toolc = tool("toolc")
    serve = [str(toolc)] if toolc else [sys.executable, "-m", "toolc"]
    argv = {"toolc": lambda port: [*serve, "serve", module_name(0), "--transport", "http",
                                   "--stateless", "--port", str(port), "--allow-host",
                                   f"{HOST}:*"],
            "bare": lambda port: [sys.executable, str(BENCH / "bare_replica.py"), str(port),
                                  str(golden), str(tools)]}
    try:
        ports: dict[str, list[int]] = {}
        for side, command in argv.items():
            ports[side] = [free_port() for _ in range(3)]
            for port in ports[side]:
                procs.append(subprocess.Popen(command(port), cwd=project.root, env=env,
                                              stdout=subprocess.DEVNULL,
                                              stderr=subprocess.DEVNULL))
                wait_listening(port, procs[-1], f"{side} replica")
        fronts: dict[tuple[str, int], int] = {}
        for side, backends in ports.items():
            for count in (1, 3):
                port = free_port()
                procs.append(start_balancer(root, port, backends[:count]))
                wait_listening(port, procs[-1], f"{available()} in front of {side}")
                fronts[side, count] = port
        yield fronts
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=60)


async def balanced(fronts: dict[tuple[str, int], int], agents: int, calls: int, repeat: int,
                   sides: dict[int, tuple[Side, Side]]) -> None:
    """Seconds per call through each balancer, `agents` clients calling at once;
    interleaved: toolc then bare, for 1 then 3 replicas, `repeat` times."""
    from mcp import Client

    async with AsyncExitStack() as stack:
        pools: dict[tuple[str, int], list[Any]] = {}
        for key, port in fronts.items():
            pools[key] = [await stack.enter_async_context(Client(f"http://{HOST}:{port}/mcp"))
                          for _ in range(agents)]
            for client in pools[key]:
                await client.list_tools()  # clients list before calling
        for round_ in range(repeat + 1):  # the first round warms up, unmeasured
            for count, (ours, peer) in sides.items():
                for side, into in (("toolc", ours), ("bare", peer)):
                    elapsed = await spread(pools[side, count], calls)
                    if round_:
                        into.samples.append(elapsed / calls)


async def spread(clients: list[Any], calls: int) -> float:
    import anyio

    share = [calls // len(clients) + (i < calls % len(clients)) for i in range(len(clients))]

    async def agent(client: Any, count: int) -> None:
        for _ in range(count):
            await call_once(client)

    started = time.perf_counter()
    async with anyio.create_task_group() as tg:
        for client, count in zip(clients, share, strict=True):
            tg.start_soon(agent, client, count)
    return time.perf_counter() - started


def balanced_figures(root: Path, project: Any, args: Any, reproduce: str) -> list[Figure]:
    if args.no_balancer:
        return []
    if available() is None:
        print("serving: neither haproxy nor nginx is installed: no figures through a balancer")
        return []
    sides = {count: (Side(f"toolc serve --stateless, {count} replica(s)"),
                     Side(f"bare mcp Server, {count} replica(s)")) for count in (1, 3)}
    with fleets(root, project, args.tools) as fronts:
        asyncio.run(balanced(fronts, args.agents, args.balanced_calls, args.repeat, sides))
    figures = []
    for count, (ours, peer) in sides.items():
        figure = Figure(f"serving: tools/call through {available()}, {count} replica(s), "
                        f"{args.agents} agents, vs bare mcp Server", ours, peer, TARGET,
                        "<= 1.1x", reproduce)
        figure.notes.append(f"calls per second: toolc {1 / ours.median:.0f}, "
                            f"bare {1 / peer.median:.0f}")
        figures.append(figure)
    return figures


def main(argv: list[str] | None = None) -> list[Figure]:
    p = parser(__doc__.split("\n\n")[0], tools=1000, repeat=5)
    p.add_argument("--calls", type=int, default=300, help="tools/call per sample")
    p.add_argument("--lists", type=int, default=10, help="tools/list per sample")
    p.add_argument("--no-freeze", action="store_true",
                   help="leave the set-up to the collector (the method before 2026-12-01)")
    p.add_argument("--agents", type=int, default=8,
                   help="clients calling at once through the balancer")
    p.add_argument("--balanced-calls", type=int, default=400,
                   help="tools/call through the balancer per sample")
    p.add_argument("--no-balancer", action="store_true",
                   help="skip the figures through a load balancer")
    args = p.parse_args(argv)
    from toolc.runtime import to_mcp_server

    defaults = {"tools": 1000, "repeat": 5, "calls": 300, "lists": 10, "no_freeze": False,
                "agents": 8, "balanced_calls": 400, "no_balancer": False}
    reproduce = command_line("serving.py", args, defaults)
    with workdir(args.workdir) as root:
        project, toolset, published, handler = build(root, args.tools)
        call_sides = (Side("toolc server, tools/call"), Side("bare mcp Server, tools/call"))
        list_sides = (Side(f"toolc server, tools/list of {args.tools}"),
                      Side(f"bare mcp Server, tools/list of {args.tools}"))

        async def run() -> None:
            servers = (to_mcp_server(toolset, name="toolc"), bare_server(published, handler))
            freeze = not args.no_freeze
            await measure(servers, call_once, args.calls, args.repeat, call_sides, freeze=freeze)
            await measure(servers, list_once(args.tools), args.lists, args.repeat, list_sides,
                          freeze=freeze)

        asyncio.run(run())
        through = balanced_figures(root, project, args, reproduce)
    figures = [
        Figure("serving: tools/call round trip vs bare mcp Server", call_sides[0],
               call_sides[1], TARGET, "<= 1.1x", reproduce),
        Figure(f"serving: tools/list of {args.tools} tools vs bare mcp Server", list_sides[0],
               list_sides[1], TARGET, "<= 1.1x", reproduce),
        *through,
    ]
    for figure in figures:
        publish(figure, args)
    return figures


if __name__ == "__main__":
    main(sys.argv[1:])
