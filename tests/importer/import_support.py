"""Helpers of the import tests: a project folder, the test server, real clients."""

from __future__ import annotations

import io
import json
import shlex
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from forkserver_support import python_cmd
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from net_support import start_on_free_port
from project_support import make_project
from toolc.importer.listing import list_raw

FIXTURES = Path(__file__).parent.parent / "fixtures" / "import"
# The test server's tools carry a NUL and a BOM in a description, to be carried exactly
# through import, build and serve: the invisible characters are an error where the build
# reads them (TC702, tests/checks/test_texts.py), off in these projects (never folded,
# it would be printed in full beside the folded lines these tests read).
SEVERITY = '\n[tool.toolc.severity]\ninvisible-character = "off"\n'


def import_project(root: Path) -> Path:
    """A toolc project without specs, the test server and its tools file copied in."""
    return make_project(root, output="generated", extra=SEVERITY,
                        files={name: (FIXTURES / name).read_bytes()
                               for name in ("server.py", "tools.json")})


def stdio_command(root: Path, tools: str = "tools.json") -> str:
    return shlex.join(python_cmd(str(root / "server.py"), str(root / tools), "stdio"))


def original_tools(path: Path = FIXTURES / "tools.json") -> dict[str, dict[str, Any]]:
    return {t["name"]: t for t in json.loads(path.read_text())["tools"]}


def run(action: Callable[..., int], **kwargs: Any) -> tuple[int, str, str]:
    """Call a toolc action with captured output: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    code = action(out=out, err=err, **kwargs)
    return code, out.getvalue(), err.getvalue()


def canonical(value: Any) -> Any:
    """Keys sorted at every level: equality then ignores key order only."""
    if isinstance(value, dict):
        return {k: canonical(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [canonical(v) for v in value]
    return value


def golden_tools(root: Path, module: str) -> dict[str, dict[str, Any]]:
    folder = root / "generated" / "schemas" / module
    return {t["name"]: t for t in (json.loads(p.read_text()) for p in folder.glob("*.json"))}


@contextmanager
def running(command: Callable[[int], list[str]], cwd: Path | None = None) -> Iterator[str]:
    """A subprocess serving streamable HTTP, ``command(port)`` on a free port; yields its
    URL, stops it after."""

    def start(port: int) -> subprocess.Popen[str]:
        return subprocess.Popen(command(port), cwd=cwd, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    proc, port = start_on_free_port(start)
    try:
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        try:
            proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()


def http_server(tools_file: Path) -> Any:
    return running(lambda port: python_cmd(str(FIXTURES / "server.py"), str(tools_file),
                                           "http", str(port)))


async def list_stdio(command: str, args: list[str], cwd: Path) -> list[dict[str, Any]]:
    """tools/list of a stdio server through a real client, as the JSON it sent."""
    async with Client(StdioServerParameters(command=command, args=args, cwd=str(cwd))) as c:
        return await list_raw(c)


async def list_http(url: str) -> list[dict[str, Any]]:
    async with Client(url) as c:
        return await list_raw(c)
