"""``toolc call``: one tool called as an MCP client calls it, through the served path.

The target is opened as ``toolc serve`` opens it (:func:`toolc.serving.targets.open_target`:
a spec compiled as it is now, or a generated module), served by the same server
(``to_mcp_server``, with ``--deps`` / ``serve-deps`` made as ``toolc serve`` makes
them), and called by the real ``mcp.Client`` connected to it in process. So what is
validated, approved and returned is exactly what a client gets: the arguments are
checked against the published schema the server listed (the golden file's) by the
runtime's validator of record before they are sent, each problem said at its JSON
pointer, and by the served tool again, as for any client; an approval-required tool
asks through elicitation (answered on the terminal,
:mod:`toolc.commands.call_approval`), and the result is the one the client received
(its structured content checked against the output schema by the client, as any
client checks it). ``key=value`` words are typed by the tool's published input schema
(:mod:`toolc.commands.call_args`); the output is :mod:`toolc.commands.call_output`'s.

Exit codes: 0 a result, 1 an error result (``isError``), a call the server or client
refused, or specs with errors; 2 a usage error: an unknown tool (with a did-you-mean),
``--args`` that is not a JSON object, a word that cannot be typed, arguments the
published schema refuses, a target that is not there.
"""

from __future__ import annotations

import contextlib
import difflib
import logging
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from ..runtime import ToolsetError
from ..serving.targets import ServeError, named_callable, open_target, project_start
from .call_approval import TerminalApproval
from .call_args import ArgumentError, build_arguments, check_arguments, parse_args_json
from .call_output import inert, inert_line, render_listing, render_result
from .common import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, config_or_report

# tools/list pages followed at most (a server that always gives a next cursor must end).
MAX_PAGES = 1000


@dataclass(frozen=True, slots=True)
class CallRequest:
    """What the command line asks of the served toolset."""

    tool: str | None
    arguments: dict[str, Any]  # from --args
    words: tuple[str, ...]  # key=value, key:=JSON
    fmt: str
    list_tools: bool


@dataclass(frozen=True, slots=True)
class Outcome:
    code: int
    out: str = ""
    err: str = ""


def run_call(target: str, tool: str | None = None, words: Sequence[str] = (), *,
             args_json: str | None = None, list_tools: bool = False,
             deps: str | None = None, toolset_name: str | None = None, fmt: str = "text",
             yes: bool = False, out: TextIO | None = None, err: TextIO | None = None,
             stdin: TextIO | None = None) -> int:
    """Call ``tool`` of the toolset ``target`` serves (or, ``list_tools``, list them);
    the exit code. ``stdin``: where the approval's answer is read (a terminal)."""
    out, err = out or sys.stdout, err or sys.stderr
    if list_tools and (tool is not None or words or args_json is not None):
        err.write("error: --list lists what the target exports; it takes no TOOL or "
                  "arguments\n")
        return EXIT_USAGE
    try:
        request = CallRequest(tool, parse_args_json(args_json), tuple(words), fmt, list_tools)
    except ArgumentError as exc:
        err.write(f"error: {exc}\n")
        return EXIT_USAGE
    config = config_or_report("text", err, start=project_start(target))
    if config is None:
        return EXIT_ERRORS
    approval = TerminalApproval(yes=yes, stdin=stdin or sys.stdin, err=err)
    deps = deps or config.serve_deps
    try:
        with open_target(config, target, toolset_name, err) as chosen, _server_log(err):
            # lazy: loads anyio and mcp (about a second)
            import anyio

            # lazy: loads mcp (about a second)
            from ..runtime.mcp_server.toolset_server import to_mcp_server

            server = to_mcp_server(chosen.toolset, name=chosen.name,
                                   instructions=chosen.instructions,
                                   deps_factory=named_callable("--deps", deps) if deps else None)
            outcome: Outcome = anyio.run(_session, server, request, approval)
    except ServeError as exc:
        err.write(f"error: {exc}; the tool was not called\n")
        return exc.code
    except Exception as exc:  # noqa: BLE001  # entering the toolset failed: said, not a traceback
        err.write(f"error: the toolset could not be served: {_failure(exc)}\n")
        return EXIT_ERRORS
    except KeyboardInterrupt:  # Ctrl-C while the tool runs (at the prompt, it declines)
        err.write("toolc call: interrupted; the tool may have run in part\n")
        return EXIT_ERRORS
    if outcome.out:
        out.write(outcome.out + "\n")
    if outcome.err:
        err.write(outcome.err + "\n")
    return outcome.code


async def _session(server: Any, request: CallRequest, approval: TerminalApproval) -> Outcome:
    """List the tools, then call one, as the client the server is connected to."""
    # lazy: loads mcp (about a second)
    from mcp import Client

    # lazy: loads mcp (about a second)
    from mcp.shared.exceptions import MCPError

    async with Client(server, elicitation_callback=approval) as client:
        try:
            tools = await _listed(client)
        except MCPError as exc:
            return Outcome(EXIT_ERRORS, err=f"error: listing the tools failed: {inert(str(exc))}")
        if request.list_tools:
            return Outcome(EXIT_OK, render_listing(server.name, tools, request.fmt))
        try:
            name, arguments = _arguments(server.name, request, tools)
        except ArgumentError as exc:
            return Outcome(EXIT_USAGE, err=f"error: {exc}")
        try:
            result = await client.call_tool(name, arguments)
        except MCPError as exc:
            return Outcome(EXIT_ERRORS, err=f"error: the server refused the call: "
                                            f"{inert(str(exc))}")
        except RuntimeError as exc:  # the client's own check of the structured content
            return Outcome(EXIT_ERRORS, err=f"error: the client refused the result: "
                                            f"{inert(str(exc))}")
    wire = result.model_dump(by_alias=True, mode="json", exclude_none=True)
    shown = render_result(wire, request.fmt)
    if not result.is_error:
        return Outcome(EXIT_OK, shown)
    note = "" if request.fmt == "json" else \
        f"toolc call: {inert_line(name)} returned an error result (isError)"
    return Outcome(EXIT_ERRORS, shown, note)


async def _listed(client: Any) -> list[dict[str, Any]]:
    """Every tool the server lists (all pages), as the client received it."""
    tools: list[dict[str, Any]] = []
    cursor: str | None = None
    for _ in range(MAX_PAGES):
        page = await client.list_tools(cursor=cursor)
        tools.extend(t.model_dump(by_alias=True, mode="json", exclude_none=True)
                     for t in page.tools)
        cursor = page.next_cursor
        if not cursor:
            break
    return tools


def _arguments(server: str, request: CallRequest,
               tools: Sequence[Mapping[str, Any]]) -> tuple[str, dict[str, Any]]:
    """The tool named and its arguments, typed and checked by its published schema; an
    ArgumentError for a tool that is not there (or none named), a word that cannot be
    typed, or arguments the schema refuses."""
    names = [str(t.get("name")) for t in tools]
    listed = ", ".join(inert_line(n) for n in sorted(names)) or "(none)"
    if request.tool is None:
        raise ArgumentError(f"name the tool to call (--list shows each with its "
                            f"description): {listed}")
    found = next((t for t in tools if t.get("name") == request.tool), None)
    if found is None:
        close = difflib.get_close_matches(request.tool, names, n=1)
        hint = f" (did you mean '{inert_line(close[0])}'?)" if close else ""
        raise ArgumentError(f"{inert_line(server)} has no tool '{inert_line(request.tool)}'"
                            f"{hint}; its tools: {listed}")
    schema = found.get("inputSchema")
    schema = schema if isinstance(schema, dict) else {}
    arguments = build_arguments(request.arguments, request.words, request.tool, schema)
    check_arguments(request.tool, arguments, schema)
    return request.tool, arguments


def _failure(exc: BaseException) -> str:
    """What went wrong, in words: a toolset's own error as it says it, anything else with
    its type (an exception group: its first leaf, which anyio's task groups wrap)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = str(exc) if isinstance(exc, ToolsetError) else f"{type(exc).__name__}: {exc}"
    return inert(text)


class _InertFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        return inert(super().format(record))


@contextlib.contextmanager
def _server_log(err: TextIO) -> Iterator[None]:
    """The server's log on stderr while the call runs, as ``toolc serve`` shows it: the
    traceback of a masked failure is there, under the ref the result names."""
    handler = logging.StreamHandler(err)
    handler.setFormatter(_InertFormatter("toolc call: server %(levelname)s %(message)s"))
    logger = logging.getLogger("toolc.runtime")
    logger.addHandler(handler)
    try:
        yield
    finally:
        logger.removeHandler(handler)
