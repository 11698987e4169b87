"""Who may talk to ``toolc serve --transport http``, and how the app is put together.

A browser page can reach a server on 127.0.0.1 through DNS rebinding (its own name
resolving to 127.0.0.1), so every request's ``Host`` and ``Origin`` are checked, whatever
the bind address, before anything else happens (a refused request opens no session).
The allowed set follows from the bind address and grows only by ``--allow-host`` and
``--allow-origin``. Binding anywhere but loopback needs ``--allow-remote``: there is no
authentication, so whoever reaches the port can call every tool.

Limits (see :mod:`toolc.serving.http_limits`): a cap on sessions that evicts the oldest idle one,
idle expiry, read timeouts for headers and bodies, and a body size limit. SSE streams
resume after a dropped connection (:mod:`toolc.serving.http_events`).

``--stateless`` answers each request on its own (the SDK's stateless streamable HTTP,
JSON responses), so that any replica behind a balancer can answer any request (what
spans requests: :mod:`toolc.serving.state_keys`). ``--auth`` requires bearer tokens
(:mod:`toolc.serving.http_auth`). ``GET /healthz`` answers ``200 {"status": "ok"}`` once
the toolset is entered, before every other check: a probe sends no token, and its Host
is a pod's address; it runs nothing and tells nothing beyond the server's name.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import re
import signal
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

log = logging.getLogger("toolc.serve")

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
HEALTH_PATH = "/healthz"


class BindRefused(Exception):
    """A bind address or allowance that needs a flag or is malformed (exit 2)."""


@dataclass(frozen=True, slots=True)
class HttpOptions:
    """Everything ``--transport http`` is configured by (the CLI's defaults live here)."""

    host: str = "127.0.0.1"
    port: int = 8000
    allow_remote: bool = False
    allow_hosts: tuple[str, ...] = ()
    allow_origins: tuple[str, ...] = ()
    max_sessions: int = 1000
    session_idle_timeout: float = 1800.0
    header_timeout: float = 10.0
    body_timeout: float = 30.0
    max_body_size: int = 4 * 1024 * 1024
    stateless: bool = False
    public_url: str | None = None  # where clients reach /mcp (a balancer's URL)
    state_key_file: str | None = None
    auth: str | None = None  # MODULE:FACTORY of a token verifier
    auth_issuer: str | None = None
    auth_scopes: tuple[str, ...] = ()

    @property
    def resource_url(self) -> str:
        """The URL clients reach /mcp at: ``--public-url``, else the bind address's."""
        shown = _as_host_name(self.host)
        return self.public_url or f"http://{shown}:{self.port}/mcp"


def is_loopback(address: str) -> bool:
    if address.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(address.strip("[]")).is_loopback
    except ValueError:
        return False


def _is_unspecified(address: str) -> bool:
    try:
        return ipaddress.ip_address(address.strip("[]")).is_unspecified
    except ValueError:
        return False


def check_bind(options: HttpOptions) -> str | None:
    """The warning to print for this bind address; raises BindRefused without the flag."""
    if is_loopback(options.host):
        return None
    if options.auth is not None:
        return (f"serving on {options.host}, reachable from other machines: every request "
                f"to /mcp needs a bearer token; put TLS in front (over plain HTTP a token "
                f"travels in the clear)")
    if not options.allow_remote:
        raise BindRefused(
            f"--host {options.host} is not a loopback address: anyone who can reach it could "
            f"call every tool (there is no authentication). Pass --auth to require tokens, or "
            f"--allow-remote to do it anyway.")
    return (f"serving on {options.host}, reachable from other machines: there is no "
            f"authentication, anyone who can reach port {options.port} can call every tool")


def _as_host_name(address: str) -> str:
    """An address as it is written in a Host header: lower case, IPv6 in brackets."""
    name = address.strip().lower()
    if ":" in name and not name.startswith("["):
        return f"[{name}]"
    return name


def split_host(value: str) -> tuple[str, str | None] | None:
    """A Host value as (name, port or None); None when it is malformed."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        name, rest = value[: end + 1], value[end + 1:]
        if end < 0 or (rest and not rest.startswith(":")):
            return None
        return name, rest[1:] if rest else None
    name, colon, port = value.partition(":")
    if ":" in port or not name:
        return None
    return name, port if colon else None


@dataclass(frozen=True, slots=True)
class HostPolicy:
    """The Host and Origin values a request may carry."""

    hosts: frozenset[str]  # exact "name" or "name:port"
    any_port: frozenset[str]  # names allowed with any port ("name:*")
    origins: frozenset[str]  # normalised origins

    def host_allowed(self, value: str | None) -> bool:
        parts = split_host(value) if value else None
        if parts is None:
            return False
        name, port = parts
        shown = f"{name}:{port}" if port is not None else name
        return shown in self.hosts or name in self.any_port

    def origin_allowed(self, value: str | None) -> bool:
        # No Origin: not a browser's cross-site request (non-browser clients send none).
        return value is None or normal_origin(value) in self.origins


def normal_origin(value: str) -> str:
    """An Origin compared the way browsers mean it: case-blind, default port dropped."""
    origin = value.strip().lower().rstrip("/")
    for scheme, port in (("http://", ":80"), ("https://", ":443")):
        if origin.startswith(scheme) and origin.endswith(port):
            return origin[: -len(port)]
    return origin


def _names_for(bind: str) -> list[str]:
    """The host names a bind address answers to by default."""
    if is_loopback(bind) or _is_unspecified(bind):  # 0.0.0.0 and :: are reached on loopback too
        return [*LOOPBACK_NAMES, _as_host_name(bind)]
    return [_as_host_name(bind)]


def host_policy(options: HttpOptions) -> HostPolicy:
    """What the bind address implies, extended by --allow-host and --allow-origin."""
    port = str(options.port)
    hosts: set[str] = set()
    any_port: set[str] = set()
    origins: set[str] = set()
    for name in _names_for(options.host):
        hosts.update((name, f"{name}:{port}"))
        origins.add(normal_origin(f"http://{name}:{port}"))
    for entry in options.allow_hosts:
        _allow_host(entry, port, hosts, any_port)
    if options.public_url is not None:  # the name clients (through a balancer) use
        parts = urlsplit(options.public_url)
        public = parts.netloc.rpartition("@")[2]
        if parts.scheme not in ("http", "https") or not public:
            raise BindRefused(f"--public-url {options.public_url!r}: write "
                              f"http(s)://host[:port]/path")
        _allow_host(public, port, hosts, any_port)
    for entry in options.allow_origins:
        if "://" not in entry and entry.strip().lower() != "null":
            raise BindRefused(f"--allow-origin {entry!r}: write scheme://host[:port]")
        origins.add(normal_origin(entry))
    return HostPolicy(frozenset(hosts), frozenset(any_port), frozenset(origins))


def _allow_host(entry: str, port: str, hosts: set[str], any_port: set[str]) -> None:
    """NAME allows NAME and NAME:PORT (the bound port); NAME:N exactly; NAME:* any port."""
    parts = split_host(_as_host_name(entry) if entry.count(":") > 1 else entry)
    if parts is None or not _valid_name(parts[0]) or (
            parts[1] is not None and not (parts[1] == "*" or parts[1].isdigit())):
        raise BindRefused(f"--allow-host {entry!r}: write a host name, NAME:PORT or NAME:*")
    name, given = parts
    if given == "*":
        any_port.add(name)
    elif given is not None:
        hosts.add(f"{name}:{given}")
    else:
        hosts.update((name, f"{name}:{port}"))


def _valid_name(name: str) -> bool:
    if name.startswith("["):
        try:
            return ipaddress.ip_address(name[1:-1]).version == 6
        except ValueError:
            return False
    return re.fullmatch(r"[a-z0-9_]([a-z0-9_.-]*[a-z0-9_])?", name) is not None


class HostOriginGuard:
    """ASGI middleware: refuse a request whose Host (421) or Origin (403) is not allowed."""

    def __init__(self, app: Any, policy: HostPolicy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket") or scope.get("path") == HEALTH_PATH:
            await self.app(scope, receive, send)
            return
        host, origin = _header(scope, b"host"), _header(scope, b"origin")
        if not self.policy.host_allowed(host):
            log.warning("refused a request with Host %r (allow it with --allow-host)", host)
            await _refuse(scope, receive, send, 421, "Invalid Host header")
        elif not self.policy.origin_allowed(origin):
            log.warning("refused a request with Origin %r (allow it with --allow-origin)", origin)
            await _refuse(scope, receive, send, 403, "Invalid Origin header")
        else:
            await self.app(_normalised(scope), receive, send)


def _normalised(scope: Any) -> Any:
    """Host and Origin as the checks compared them: the SDK checks again, case-sensitively."""
    headers = [(k, v.lower()) if k.lower() == b"host" else
               (k, normal_origin(v.decode("latin-1")).encode("latin-1"))
               if k.lower() == b"origin" else (k, v)
               for k, v in scope.get("headers") or ()]
    return {**scope, "headers": headers}


def _header(scope: Any, name: bytes) -> str | None:
    values: Iterable[tuple[bytes, bytes]] = scope.get("headers") or ()
    return next((v.decode("latin-1") for k, v in values if k.lower() == name), None)


async def _refuse(scope: Any, receive: Any, send: Any, status: int, text: str) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008})
        return
    # lazy: loads starlette
    from starlette.responses import PlainTextResponse

    await PlainTextResponse(text, status_code=status)(scope, receive, send)


def build_app(server: Any, options: HttpOptions, auth: Any = None) -> Any:
    """The Starlette app: /mcp through the capped session manager (behind the token
    check with ``auth``, a ``BearerAuth``), /healthz, all behind the guard."""
    # lazy: loads mcp (about a second)
    from mcp.server.streamable_http_manager import StreamableHTTPASGIApp
    from mcp.server.transport_security import TransportSecuritySettings

    # lazy: loads starlette
    from starlette.applications import Starlette
    from starlette.routing import Route

    # lazy: loads mcp, uvicorn (about a second)
    from .http_events import RETRY_MS
    from .http_limits import EvictingSessionManager

    policy = host_policy(options)
    # The SDK checks again inside the transport (after opening a session, hence the guard
    # in front); given the same exact lists, it agrees with the guard.
    settings = TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=sorted(policy.hosts | policy.any_port | {f"{n}:*" for n in policy.any_port}),
        allowed_origins=sorted(policy.origins))
    manager = EvictingSessionManager(
        app=server, security_settings=settings, max_sessions=options.max_sessions,
        session_idle_timeout=options.session_idle_timeout,
        max_request_body_size=options.max_body_size, retry_interval=RETRY_MS,
        stateless=options.stateless, json_response=options.stateless)
    endpoint: Any = StreamableHTTPASGIApp(manager)
    routes: list[Any] = [Route(HEALTH_PATH, endpoint=_health(server.name), methods=["GET"])]
    middleware: list[Any] = []
    if auth is not None:
        # lazy: 1 more toolc module (mcp's auth), only with --auth
        from .http_auth import protect

        endpoint, metadata, middleware = protect(auth, endpoint, server.name)
        routes += metadata
    routes.append(Route("/mcp", endpoint=endpoint))
    app = Starlette(routes=routes, middleware=middleware, lifespan=lambda _app: manager.run())
    return HostOriginGuard(app, policy)


def _health(name: str) -> Any:
    """``GET /healthz`` (HEAD too): served only once the lifespan entered the toolset."""
    # lazy: loads starlette
    from starlette.responses import Response

    body = json.dumps({"status": "ok", "server": name}).encode()

    async def health(request: Any) -> Any:
        return Response(body, media_type="application/json",
                        headers={"cache-control": "no-store"})

    return health


async def run_http(server: Any, options: HttpOptions,
                   beside: Callable[[], Any] | None = None, auth: Any = None) -> None:
    """Serve until ``until_signal`` stops uvicorn; ``beside``
    (``--reload``'s watch) runs alongside until then; ``auth`` (a ``BearerAuth``)
    requires tokens on /mcp."""
    # lazy: contextlib, only when this runs
    import contextlib

    # lazy: loads anyio
    import anyio

    # lazy: loads uvicorn
    import uvicorn

    # lazy: loads mcp, uvicorn (about a second)
    from .http_limits import timed_protocol

    config = uvicorn.Config(
        build_app(server, options, auth), host=options.host, port=options.port,
        log_level="warning", lifespan="on",
        http=timed_protocol(options.header_timeout, options.body_timeout))
    web = uvicorn.Server(config)
    if options.stateless:  # the SDK would log "Terminating session: None" for every request
        logging.getLogger("mcp.server.streamable_http").setLevel(logging.WARNING)
    # uvicorn would re-raise a caught SIGTERM after shutting down, killing the process
    # uncleanly; until_signal handles both signals instead.
    web.capture_signals = contextlib.nullcontext  # type: ignore[method-assign,assignment]

    def stop() -> None:
        web.should_exit = True

    shown = _as_host_name(options.host)
    async with anyio.create_task_group() as tg:
        await tg.start(until_signal, stop)
        if beside is not None:  # --reload's watch
            tg.start_soon(beside)
        log.info("serving %s at http://%s:%d/mcp%s", server.name, shown, options.port,
                 " (stateless)" if options.stateless else "")
        await web.serve()
        tg.cancel_scope.cancel()


async def until_signal(stop: Any, *, task_status: Any) -> None:
    """Call ``stop()`` on SIGINT or SIGTERM; started before serving, so none is missed."""
    # lazy: loads anyio
    import anyio

    with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        task_status.started()
        async for signum in signals:
            log.info("%s received, shutting down", signal.Signals(signum).name)
            stop()
            return
