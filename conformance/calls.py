"""Every instance of every built group, called through a real MCP client, classified.

One server per generated module (`toolc.runtime.to_mcp_server` of its `toolset`), one
in-process `mcp.Client` on it; each instance is sent as `{"x": instance}`. The handler
records what it received, so "the handler ran" is known, not guessed from the text.

Classes: `agree`; `invalid-reached-handler`; `valid-refused` (an invalid-arguments error
for a valid instance); `valid-changed` (the handler ran, but with another value);
`crash` (an error result that is not an invalid-arguments message); `exception` (the
call itself raised). The listed inputSchema is also checked on its own with `jsonschema`
(no retrieval): `published-unresolvable`, `published-rejects-valid`,
`published-accepts-invalid`. Each instance is called once more through the Python
toolset API (`toolset.call_tool`), whose contract is that it never raises: `api` records
an exception. Any connection the process tries is refused and recorded.
"""

from __future__ import annotations

import importlib
import json
import re
import socket
import sys
from pathlib import Path
from typing import Any

from project import HANDLERS, OUTPUT, ModuleState
from translate import differences, same

CLASSES = ("agree", "invalid-reached-handler", "valid-refused", "valid-changed", "crash",
           "exception")
# The first line of an invalid-arguments error result (today: "Invalid arguments:").
INVALID_ARGUMENTS = re.compile(
    r"\binvalid (approved )?arguments\b|\barguments (are|were) (invalid|not valid)\b",
    re.IGNORECASE)
MAX_TEXT = 1500

# -- no network: every connection (and name lookup) is refused and remembered -------------

NETWORK: list[str] = []


def _refuse(kind: str) -> Any:
    def refused(*args: Any, **kwargs: Any) -> Any:
        NETWORK.append(f"{kind} {args[1] if kind == 'connect' else args[0]!r}")
        raise ConnectionRefusedError(f"conformance harness: no network ({kind})")
    return refused


def forbid_network() -> None:
    socket.socket.connect = _refuse("connect")
    socket.socket.connect_ex = _refuse("connect")
    socket.getaddrinfo = _refuse("getaddrinfo")
    socket.create_connection = _refuse("create_connection")


# -- the published schema on its own -------------------------------------------------------

def _validator(schema: dict[str, Any]) -> Any:
    from jsonschema import Draft202012Validator
    from referencing import Registry
    from referencing.exceptions import NoSuchResource

    def no_retrieval(uri: str) -> Any:
        raise NoSuchResource(ref=uri)

    return Draft202012Validator(schema, registry=Registry(retrieve=no_retrieval))


def published_verdict(schema: dict[str, Any], instance: Any, valid: bool) -> tuple[str, str]:
    """(class, detail) of the listed input schema on ``{"x": instance}``; ("", "") if fine."""
    from referencing.exceptions import Unresolvable

    try:
        ok = _validator(schema).is_valid({"x": instance})
    except Unresolvable as exc:
        return "published-unresolvable", f"{type(exc).__name__}: {exc}"[:MAX_TEXT]
    except Exception as exc:  # noqa: BLE001 - a schema jsonschema cannot use at all
        return "published-unresolvable", f"{type(exc).__name__}: {exc}"[:MAX_TEXT]
    if ok == valid:
        return "", ""
    return ("published-rejects-valid", "") if valid else ("published-accepts-invalid", "")


# -- calls ---------------------------------------------------------------------------------

def _text(result: Any) -> str:
    parts = [getattr(block, "text", "") for block in (result.content or [])]
    return "\n".join(p for p in parts if p)[:MAX_TEXT]


def classify(valid: bool, ran: bool, received: Any, instance: Any, is_error: bool,
             text: str) -> str:
    if ran:
        if not valid:
            return "invalid-reached-handler"
        return "agree" if same(received, instance) else "valid-changed"
    first = text.strip().split("\n", 1)[0]
    if is_error and INVALID_ARGUMENTS.search(first):
        return "valid-refused" if valid else "agree"
    return "crash"


async def call_module(root: Path, module: ModuleState) -> list[dict[str, Any]]:
    """One row per instance of the module's built groups."""
    from mcp import Client
    from toolc.runtime import to_mcp_server

    built = [g for g in module.groups if g.status == "built"]
    if not built:
        return []
    handlers = sys.modules[HANDLERS]
    rows: list[dict[str, Any]] = []
    try:
        generated = importlib.import_module(f"{OUTPUT}.{module.module}")
        server = to_mcp_server(generated.toolset)
    except Exception as exc:  # noqa: BLE001 - the whole module failed: every call fails
        return [_row(module, g, t, "exception", f"import/serve: {type(exc).__name__}: {exc}")
                for g in built for t in g.group.tests]
    try:
        async with Client(server) as client:
            listed = {t.name: t for t in (await client.list_tools()).tools}
            for g in built:
                tool = listed.get(g.tool)
                schema = dict(tool.input_schema) if tool is not None else {}
                g.published = schema.get("properties", {}).get("x")
                for test in g.group.tests:
                    row = await _call(client, module, g, test, schema, handlers)
                    row["api"] = await _api_call(generated.toolset, g.tool, test.data, handlers)
                    rows.append(row)
    except Exception as exc:  # noqa: BLE001 - the connection failed: the rest is unanswered
        done = {(r["tool"], r["test"]) for r in rows}
        rows.extend(_row(module, g, t, "exception", f"connection: {type(exc).__name__}: {exc}")
                    for g in built for t in g.group.tests if (g.tool, t.description) not in done)
    return rows


async def _call(client: Any, module: ModuleState, g: Any, test: Any,
                schema: dict[str, Any], handlers: Any) -> dict[str, Any]:
    handlers.CALLS.clear()
    del NETWORK[:]
    try:
        result = await client.call_tool(g.tool, {"x": test.data})
    except Exception as exc:  # noqa: BLE001 - the call itself failed
        row = _row(module, g, test, "exception", f"{type(exc).__name__}: {exc}"[:MAX_TEXT])
    else:
        ran = bool(handlers.CALLS)
        received = handlers.CALLS[-1].get("x") if ran else None
        text = _text(result)
        outcome = classify(test.valid, ran, received, test.data, bool(result.is_error), text)
        what = ("handler ran" if ran else "error result" if result.is_error
                else "success without running the handler")
        row = _row(module, g, test, outcome, text, happened=what)
        if ran and not same(received, test.data):
            row["received"] = received
            row["changed_at"] = differences(test.data, received)
    row["network"] = list(NETWORK)
    published, detail = published_verdict(schema, test.data, test.valid) if schema else (
        "published-unresolvable", "the tool is not listed")
    row["published"] = published
    if detail:
        row["published_error"] = detail
    return row


async def _api_call(toolset: Any, tool: str, instance: Any, handlers: Any) -> str:
    """What escaped `call_tool` of the Python API, if anything ("" when it returned)."""
    from toolc.runtime import RunContext

    handlers.CALLS.clear()
    try:
        await toolset.call_tool(RunContext.empty(), tool, {"x": instance})
    except Exception as exc:  # noqa: BLE001 - exactly what the contract forbids
        return f"{type(exc).__name__}: {exc}"[:MAX_TEXT]
    return ""


def _row(module: ModuleState, g: Any, test: Any, outcome: str, text: str,
         happened: str = "exception") -> dict[str, Any]:
    number = next(i for i, t in enumerate(g.group.tests) if t is test)
    return {"case": f"{module.file.name}#{g.group.index}/{number}",
            "file": module.file.name, "group": g.group.description, "tool": g.tool,
            "schema": g.group.schema, "test": test.description, "instance": test.data,
            "valid": test.valid, "class": outcome, "happened": happened, "error": text,
            "network": [], "published": "", "api": ""}


def jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, default=repr))
