"""Helpers shared by the runtime tests: tools built like generated code builds them, and
real MCP servers (the toy server as a stdio subprocess, or over streamable HTTP on
127.0.0.1 with uvicorn in a thread). conftest.py puts this folder on sys.path."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path
from typing import Any

import toolc.runtime as rt
from forkserver_support import python_args
from net_support import listening_socket
from pydantic import BaseModel, ConfigDict, Field

SERVERS = Path(__file__).parent / "servers"
TOY_SERVER = SERVERS / "toy_server.py"


class EchoParams(BaseModel):
    """What generated code makes: types only; the published schema decides validity."""

    model_config = ConfigDict(extra="ignore")
    text: str = Field(description="What to say.")
    times: int = Field(default=1, description="How often.")


ECHO_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "text": {"type": "string", "description": "What to say.", "maxLength": 20},
        "times": {
            "type": "integer",
            "description": "How often.",
            "minimum": 1,
            "maximum": 3,
            "default": 1,
        },
    },
    "required": ["text"],
    "additionalProperties": False,
}


async def echo(ctx: rt.RunContext[Any], text: str, times: int) -> str:
    return " ".join([text] * times)


def make_tool(
    name: str = "echo",
    handler: Any = echo,
    *,
    params_model: Any = EchoParams,
    input_schema: Any = None,
    **kwargs: Any,
) -> rt.Tool:
    """A tool as generated code builds one (description derived from the name)."""
    return rt.Tool(
        name,
        f"The {name} tool.",
        params_model=params_model,
        handler=handler,
        input_schema=input_schema if input_schema is not None else ECHO_SCHEMA,
        **kwargs,
    )


def function_set(*names: str, handler: Any = echo, id: str | None = None) -> rt.FunctionToolset:
    return rt.FunctionToolset([make_tool(n, handler) for n in names], id=id)


def names(tools: list[rt.ToolDefinition]) -> list[str]:
    return [t.name for t in tools]


# -- real MCP servers ---------------------------------------------------------------


def toy_stdio(prefix: str = "", **kwargs: Any) -> rt.MCPToolset:
    """The toy server as a stdio subprocess (started at first use)."""
    args = [str(TOY_SERVER), "stdio"] + (["--prefix", prefix] if prefix else [])
    return rt.MCPToolset(stdio=rt.StdioServer(sys.executable, python_args(*args)), **kwargs)


class HttpToy:
    """The toy server over streamable HTTP, uvicorn in a thread on 127.0.0.1."""

    def __init__(self, prefix: str) -> None:
        import uvicorn

        # Listening already, so that no other process can take the port meanwhile.
        self.socket = listening_socket()
        self.port = int(self.socket.getsockname()[1])
        app = toy_module().build_server(prefix).streamable_http_app()
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="error")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, args=([self.socket],),
                                       daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 120
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the HTTP toy server did not start")
            time.sleep(0.01)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(120)
        assert not self.thread.is_alive(), "the HTTP toy server did not stop"


def write_module(directory: Path, name: str, source: str) -> str:
    """Write a user module `name` into `directory` (on sys.path in the tests)."""
    (directory / f"{name}.py").write_text(source, encoding="utf-8")
    return name


def toy_module() -> Any:
    """The toy server module (for its published tool list)."""
    sys.path.insert(0, str(SERVERS))
    try:
        import toy_server
    finally:
        sys.path.remove(str(SERVERS))
    return toy_server
