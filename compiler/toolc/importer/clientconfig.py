"""MCP client configurations: ``{"mcpServers": {name: {command, args, env} | {url, headers}}}``.

The shape Claude Desktop, Cursor, VS Code and others read. Each entry becomes a
:class:`~toolc.importer.listing.Server`. Keys other clients add are tolerated: ``cwd``
is kept, and so is ``alwaysLoad`` (Claude Code: the server's tools load upfront, never
deferred by tool search), as the ``mcp`` toolset's ``always_load``; ``type`` is checked
against the transport the entry describes (``sse`` is refused: the mcp SDK's client
speaks stdio and streamable HTTP); anything else
(``disabled``, ``autoApprove``, ``timeout``, ...) is ignored with a warning.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .listing import ImportFailure, Server, read_json

_STDIO_KEYS = ("command", "args", "env", "cwd")
_HTTP_KEYS = ("url", "headers")
_TYPES = {"stdio": "stdio", "http": "http", "streamable-http": "http",
          "streamableHttp": "http", "streamable_http": "http"}


def read_config(path: str | Path) -> tuple[list[Server], list[str]]:
    """The servers of a client configuration, in its order, and warnings about it."""
    data = read_json(path, "client configuration")
    where = str(path)
    servers = data.get("mcpServers") if isinstance(data, dict) else None
    if not isinstance(servers, dict):
        raise ImportFailure(f"{where}: expected {{\"mcpServers\": {{name: server, ...}}}}, "
                            "the shape MCP clients read")
    if not servers:
        raise ImportFailure(f"{where}: \"mcpServers\" is empty; there is nothing to import")
    warnings: list[str] = []
    found = [server_entry(name, entry, f"{where}: server {name!r}", warnings)
             for name, entry in servers.items()]
    return found, warnings


def server_entry(name: str, entry: Any, where: str, warnings: list[str]) -> Server:
    """One ``mcpServers`` entry as a Server; ImportFailure says what is wrong with it."""
    if not isinstance(entry, dict):
        raise ImportFailure(f"{where} must be an object with \"command\" or \"url\"")
    has_command, has_url = "command" in entry, "url" in entry
    if has_command == has_url:
        which = "both \"command\" and \"url\"" if has_command else "neither \"command\" nor \"url\""
        raise ImportFailure(f"{where} has {which}; give \"command\" (stdio) or \"url\" "
                            "(streamable HTTP)")
    kind = "stdio" if has_command else "http"
    _check_type(entry.get("type"), kind, where)
    known = _STDIO_KEYS if kind == "stdio" else _HTTP_KEYS
    ignored = [k for k in entry if k not in known and k not in ("type", "alwaysLoad")]
    if ignored:
        warnings.append(f"{where}: ignored {', '.join(repr(k) for k in ignored)}")
    always_load = _always_load(entry.get("alwaysLoad", False), where)
    if kind == "stdio":
        return Server(name, stdio=_stdio(entry, where), always_load=always_load)
    return Server(name, http=_http(entry, where), always_load=always_load)


def _always_load(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise ImportFailure(f"{where}: \"alwaysLoad\" must be true or false")
    return value


def _check_type(value: Any, kind: str, where: str) -> None:
    if value is None:
        return
    if value == "sse":
        raise ImportFailure(f"{where} uses the SSE transport, which toolc does not speak; "
                            "give the server's streamable HTTP URL")
    if _TYPES.get(value) != kind:
        raise ImportFailure(f"{where}: \"type\" is {value!r}, but the entry describes a "
                            f"{kind} server")


def _strings(value: Any, what: str, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ImportFailure(f"{where}: \"{what}\" must be a list of strings")
    return list(value)


def _string_map(value: Any, what: str, where: str) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise ImportFailure(f"{where}: \"{what}\" must be an object of strings")
    return dict(value)


def _text(value: Any, what: str, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ImportFailure(f"{where}: \"{what}\" must be a non-empty string")
    return value


def _stdio(entry: dict[str, Any], where: str) -> dict[str, Any]:
    out: dict[str, Any] = {"command": _text(entry["command"], "command", where)}
    if entry.get("args"):
        out["args"] = _strings(entry["args"], "args", where)
    if entry.get("env"):
        out["env"] = _string_map(entry["env"], "env", where)
    if entry.get("cwd") is not None:
        out["cwd"] = _text(entry["cwd"], "cwd", where)
    return out


def _http(entry: dict[str, Any], where: str) -> dict[str, Any]:
    url = _text(entry["url"], "url", where)
    if not url.startswith(("http://", "https://")):
        raise ImportFailure(f"{where}: \"url\" must be an http:// or https:// URL, got {url!r}")
    out: dict[str, Any] = {"url": url}
    if entry.get("headers"):
        out["headers"] = _string_map(entry["headers"], "headers", where)
    return out
