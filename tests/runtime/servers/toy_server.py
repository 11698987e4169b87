"""A small MCP server for the runtime's tests, built with the mcp SDK's low-level Server.

Run as `python toy_server.py stdio [--prefix P] [--log FILE --after FILE]` (a stdio
subprocess), or build it in process with `build_server(prefix)` and serve it over streamable HTTP.

Tools (each name prefixed by P): echo(text), add(a, b) with structured output,
picture() (an image block), fail() (an error result), header() (the X-Toolc-Test HTTP
header), crash() (the process exits mid-call), sleep(seconds) (answers late, or never).
echo carries fields the SDK's Tool model does not know, sent as written.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

import anyio
import mcp_types as types
from mcp.server import Server

PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="


def tool_list(prefix: str) -> list[dict[str, Any]]:
    """The published tools, as JSON: the tests compare what clients see with these."""
    obj = {"type": "object"}
    return [
        {
            "name": f"{prefix}echo",
            "title": "Echo",
            "description": "Say the text back.",
            "inputSchema": {
                **obj,
                "properties": {"text": {"type": "string", "description": "What to say."}},
                "required": ["text"],
            },
            "annotations": {"readOnlyHint": True, "x-vendorHint": {"level": 2}},
            "_meta": {"com.example/owner": "tests", "nested": {"keep": [1, None]}},
            # Fields the SDK's Tool model does not know (or not all of): kept by proxies.
            "icons": [{"src": "https://example.com/echo.png", "x-theme": "dark"}],
            "x-vendor": {"tier": "gold", "limits": [1, None]},
        },
        {
            "name": f"{prefix}add",
            "description": "Add two integers.",
            "inputSchema": {
                **obj,
                "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
                "required": ["a", "b"],
            },
            "outputSchema": {
                **obj,
                "properties": {"sum": {"type": "integer", "description": "a + b"}},
                "required": ["sum"],
            },
        },
        {"name": f"{prefix}picture", "description": "One pixel.", "inputSchema": obj},
        {"name": f"{prefix}fail", "description": "Always an error result.", "inputSchema": obj},
        {"name": f"{prefix}crash", "description": "Exit mid-call.", "inputSchema": obj},
        {"name": f"{prefix}header", "description": "The X-Toolc-Test header.", "inputSchema": obj},
        {
            "name": f"{prefix}sleep",
            "description": "Answer after some seconds.",
            "inputSchema": {**obj, "properties": {"seconds": {"type": "number"}}},
        },
    ]


def build_server(prefix: str = "") -> Server[Any]:
    tools = tool_list(prefix)
    models = [types.Tool.model_validate(t) for t in tools]

    async def on_list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=models)

    async def send_tools_as_written(ctx: Any, call_next: Any) -> Any:
        """Put back what the SDK's result pass drops (fields its Tool model lacks), as a
        third-party server not written with this SDK would send them."""
        result = await call_next(ctx)
        if ctx.method == "tools/list" and isinstance(result, dict):
            result["tools"] = tools
        return result

    async def on_call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        name = params.name.removeprefix(prefix)
        args = params.arguments or {}
        if name == "echo":
            return types.CallToolResult(content=[types.TextContent(text=args["text"])])
        if name == "add":
            total = {"sum": args["a"] + args["b"]}
            return types.CallToolResult(
                content=[types.TextContent(text=str(total["sum"]))], structured_content=total
            )
        if name == "picture":
            return types.CallToolResult(
                content=[types.ImageContent(data=PIXEL, mime_type="image/png")]
            )
        if name == "fail":
            return types.CallToolResult(
                content=[types.TextContent(text="it failed on purpose")], is_error=True
            )
        if name == "header":
            headers = getattr(ctx.request, "headers", None) or {}
            value = headers.get("x-toolc-test", "(none)")
            return types.CallToolResult(content=[types.TextContent(text=value)])
        if name == "crash":
            os._exit(3)
        if name == "sleep":
            await anyio.sleep(float(args.get("seconds", 3600)))
            return types.CallToolResult(content=[types.TextContent(text="awake")])
        return types.CallToolResult(
            content=[types.TextContent(text=f"no tool {params.name}")], is_error=True
        )

    server = Server(
        "toy",
        instructions=f"Toy server {prefix or '(no prefix)'}: echo and add.",
        on_list_tools=on_list_tools,
        on_call_tool=on_call_tool,
    )
    server.middleware.append(send_tools_as_written)
    return server


async def serve_stdio(prefix: str, log: str | None, after: str | None) -> None:
    """Serve on stdin/stdout; with `log` and `after`, write `start` to `log`, then answer
    nothing until `after` (another toy server's log) says `start` too, then write
    `ready`: two such servers both become ready only if their connects overlap. One that
    waited in vain for a minute writes `ready alone` instead and serves anyway, so that
    a sequential connect fails the test's assertion rather than hanging it."""
    from mcp.server.stdio import stdio_server

    server = build_server(prefix)
    if log and after:
        _log(log, "start")
        _log(log, "ready" if await _started(after, AWAIT_OTHER_S) else "ready alone")
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


AWAIT_OTHER_S = 60.0


async def _started(log: str, patience_s: float) -> bool:
    with anyio.move_on_after(patience_s):
        while not (os.path.exists(log) and "start" in _events(log)):
            await anyio.sleep(0.01)
        return True
    return False


def _events(path: str) -> list[str]:
    with open(path, encoding="utf-8") as f:
        return f.read().splitlines()


def _log(path: str, event: str) -> None:
    with open(path, "a", encoding="utf-8") as f:
        f.write(f"{event}\n")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("transport", choices=["stdio"])
    parser.add_argument("--prefix", default="")
    parser.add_argument("--log")
    parser.add_argument("--after")
    opts = parser.parse_args()
    anyio.run(serve_stdio, opts.prefix, opts.log, opts.after)


if __name__ == "__main__":
    sys.exit(main())
