"""Any toolset as an mcp low-level `Server`: `to_mcp_server(toolset)`.

- tools/list publishes each `ToolDefinition.published()` exactly, `page_size` at a
  time (`paging.py`: cursors, and invalid ones refused). The SDK re-validates
  results against the negotiated protocol's schema, which drops `null` values at the top
  level of `_meta` on 2026-07-28; a server middleware puts back whatever that pass
  dropped or changed, so the wire equals the definitions.
- tools/call runs the toolset (validation included: the low-level server validates
  nothing) and sends its result: error results, structured content, content blocks. A
  name the toolset does not show is a protocol error, invalid params (-32602), as the
  2025-11-25 revision says ("Unknown tool"), not an error result the model would read.
- A second `initialize` on a connection that has made its handshake (a stdio
  connection, an HTTP session) is refused (-32600): the first one's capabilities and
  version stand.
  A toolset failure becomes an error result; the server keeps serving. A `ToolError`'s
  message is sent as written; any other exception as "internal error in tool X (ref N)"
  (its traceback logged under that ref) unless `expose_errors=True`.
- Approval-required calls ask the user through MCP elicitation (`approval.py`); external
  tools cannot run here: an error result says so.
- A handler's `RunContext.client` is the call's MCP client (`served_client.py`): progress,
  log messages (`logging/setLevel` served for them), elicitation, sampling, cancellation.
- After each call the server lists the tools again; when a filtered or prepared set
  changed the list, clients hear `notifications/tools/list_changed`: declared as the
  `tools.listChanged` capability and sent on the connection before 2026-07-28, and
  published to `subscriptions/listen` streams (the only way that version allows) from
  2026-07-28. A handshake-era notification goes to the connection whose call changed the
  list (other connections see the new list at their next tools/list).
- `replace_toolset(server, toolset)` swaps the served set from outside any call (`toolc
  serve --reload`) and announces it to everyone: list_changed on every handshake-era
  connection that has made a request (tracked by a middleware, forgotten with the
  connection), and an event on the `subscriptions/listen` streams.
- The toolset is entered (MCP connections opened) in the server's lifespan. The
  server's instructions are `instructions=` (a module's description, under `toolc
  serve`) followed by the toolset's own (the upstream MCP servers' instructions), joined
  by a blank line: neither hides the other.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import Any

import mcp_types as types
from mcp.server import Server
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.lowlevel.server import NotificationOptions
from mcp.server.models import InitializationOptions
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ToolsListChanged
from mcp.shared.exceptions import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from toolc.runtime.context import RunContext
from toolc.runtime.deferred import (
    ApprovalRequiredError,
    DeferredCallError,
    ExternalCallRequired,
)
from toolc.runtime.definition import ToolDefinition
from toolc.runtime.failures import POLICY, FailurePolicy, failure_result
from toolc.runtime.mcp_server.approval import Approvals, run_approved
from toolc.runtime.mcp_server.approval_state import ApprovalStates
from toolc.runtime.mcp_server.paging import DEFAULT_PAGE_SIZE, page
from toolc.runtime.mcp_server.served_client import (
    Asked,
    InputRequired,
    LogLevels,
    Questions,
    ServedClient,
)
from toolc.runtime.results import ToolResult, UnknownToolResult
from toolc.runtime.toolsets.abstract import AbstractToolset, ToolsetError

logger = logging.getLogger("toolc.runtime")

# What this request's tools/list handler published, for the middleware around it.
_published_box: ContextVar[list[list[dict[str, Any]]] | None] = ContextVar(
    "toolc_published", default=None
)


class _ToolsetServer(Server[Any]):
    """A low-level Server that declares tools.listChanged and fills in late instructions."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._issued: list[InitializationOptions] = []
        self.bridge: _Bridge | None = None

    def create_initialization_options(
        self,
        notification_options: NotificationOptions | None = None,
        experimental_capabilities: dict[str, dict[str, Any]] | None = None,
        extensions: dict[str, dict[str, Any]] | None = None,
    ) -> InitializationOptions:
        options = super().create_initialization_options(
            notification_options or NotificationOptions(tools_changed=True),
            experimental_capabilities,
            extensions,
        )
        self._issued.append(options)
        return options

    def set_instructions(self, text: str) -> None:
        """Instructions known only once the toolset is entered (options made earlier too)."""
        before, self.instructions = self.instructions, text
        for options in self._issued:
            if options.instructions in (None, before):
                options.instructions = text


def to_mcp_server(
    toolset: AbstractToolset[Any],
    *,
    name: str = "toolc",
    deps: Any = None,
    instructions: str | None = None,
    expose_errors: bool = False,
    deps_factory: Callable[[], Any] | None = None,
    version: str = "",
    page_size: int = DEFAULT_PAGE_SIZE,
    approval_states: ApprovalStates | None = None,
) -> Server[Any]:
    """Serve `toolset` as an mcp low-level Server; `deps` goes into every RunContext.

    `name` and `version` are the `serverInfo` clients see; tools/list answers in pages
    of `page_size` tools.

    `deps_factory` instead makes the deps: once per client session where the protocol
    has sessions (before 2026-07-28: a stdio connection, a streamable HTTP
    `Mcp-Session-Id`), once for the whole server where it has none (2026-07-28) and for
    the server's own instructions; predicates, prepare functions and handlers get them.

    An unexpected exception of a tool reaches the client as "internal error in tool X
    (ref N)", its traceback logged under that ref; `expose_errors=True` sends its type
    and message instead (see `toolc.runtime.failures`).

    `approval_states` signs and redeems the states of 2026-07-28 questions, toolc's
    approvals and the handlers' own (`toolc.runtime.mcp_server.approval_state`): by default
    under a key of this process;
    replicas that answer each other's requests are given one `ApprovalStates(keys=...)`
    with the key they share.
    """
    if page_size < 1:
        raise ValueError(f"page_size must be at least 1, not {page_size}")
    bridge = _Bridge(toolset, deps, instructions, FailurePolicy(expose=expose_errors),
                     approval_states or ApprovalStates(audience=name))
    bridge.deps_factory = deps_factory
    bridge.page_size = page_size
    server = _ToolsetServer(
        name,
        version=version,
        instructions=instructions,
        lifespan=bridge.lifespan,
        on_list_tools=bridge.on_list_tools,
        on_call_tool=bridge.on_call_tool,
        on_subscriptions_listen=ListenHandler(bridge.bus),
    )
    server.middleware.append(bridge.keep_definitions)
    # (added, not passed to the constructor: that warns that logging is deprecated from
    # 2026-07-28, where the SDK does not route the method anyway)
    server.add_request_handler("logging/setLevel", types.SetLevelRequestParams,
                               bridge.levels.on_set_level)
    server.bridge = bridge
    return server


async def replace_toolset(server: Server[Any], toolset: AbstractToolset[Any]) -> None:
    """Serve `toolset` from now on (entered by the caller) and tell every client the
    list changed: `notifications/tools/list_changed` on each handshake-era connection
    that has made a request, and a `ToolsListChanged` event on `subscriptions/listen`
    streams. For `toolc serve --reload`; calls in flight finish on the old set."""
    bridge = server.bridge if isinstance(server, _ToolsetServer) else None
    if bridge is None:
        raise TypeError("replace_toolset needs a server made by to_mcp_server")
    await bridge.replace(toolset)


async def listed_names(server: Server[Any]) -> list[str]:
    """The names tools/list shows now, as to a client without a session (for a log line:
    what `toolc serve --reload` still serves after a broken save)."""
    bridge = server.bridge if isinstance(server, _ToolsetServer) else None
    if bridge is None:
        raise TypeError("listed_names needs a server made by to_mcp_server")
    return [tool["name"] for tool in await bridge.published(bridge.run_context())]


class _Bridge:
    """The handlers of one server: toolset calls, approvals, list-changed tracking."""

    def __init__(self, toolset: AbstractToolset[Any], deps: Any, instructions: str | None,
                 failures: FailurePolicy, states: ApprovalStates) -> None:
        self.toolset = toolset
        self.failures = failures
        self.deps = deps
        self.instructions = instructions
        self.bus = InMemorySubscriptionBus()
        self.step = 0
        self.listed: list[dict[str, Any]] | None = None  # the last published listing
        self.fixed: bool | None = None  # True: no call can change the listing
        self._last: tuple[list[ToolDefinition], list[dict[str, Any]]] = ([], [])
        self.approvals = Approvals(states)
        self.levels = LogLevels()          # what each connection asked to hear
        self.questions = Questions(states)  # a handler's questions, from 2026-07-28
        self.deps_factory: Callable[[], Any] | None = None
        self.page_size = DEFAULT_PAGE_SIZE
        # Each session's deps, forgotten with the session.
        self._session_deps: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()
        self.connections: weakref.WeakSet[Any] = weakref.WeakSet()  # handshake-era clients

    def run_context(self, call_id: str | None = None, session: Any = None) -> RunContext[Any]:
        return RunContext(deps=self.deps_of(session), step=self.step, tool_call_id=call_id)

    def deps_of(self, session: Any) -> Any:
        """The deps of `session` (made at its first request), or the server's own."""
        if self.deps_factory is None:
            return self.deps
        key = self if session is None else session
        if key not in self._session_deps:
            self._session_deps[key] = self.deps_factory()
        return self._session_deps[key]

    @asynccontextmanager
    async def lifespan(self, server: Server[Any]) -> AsyncIterator[dict[str, Any]]:
        async with self.toolset:
            if isinstance(server, _ToolsetServer):
                upstream = await self._toolset_instructions()
                text = "\n\n".join(t for t in (self.instructions, upstream) if t)
                if text and text != self.instructions:
                    server.set_instructions(text)
            yield {}

    async def _toolset_instructions(self) -> str | None:
        try:
            return await self.toolset.get_instructions(self.run_context())
        except Exception:
            logger.warning("the toolset's instructions are not available", exc_info=True)
            return None

    # -- tools/list -------------------------------------------------------------------

    async def published(self, ctx: RunContext[Any]) -> list[dict[str, Any]]:
        tools: list[ToolDefinition] = await self.toolset.list_tools(ctx)
        # Definitions are shared and immutable: the same ones publish the same dicts.
        last_tools = self._last[0]
        if len(tools) != len(last_tools) or any(
            a is not b for a, b in zip(tools, last_tools, strict=True)
        ):
            self._last = (tools, [tool.published() for tool in tools])
        return list(self._last[1])

    async def on_list_tools(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> dict[str, Any]:
        try:
            tools = await self.published(self.run_context(session=_session_of(ctx)))
        except ToolsetError as exc:  # may quote a predicate's exception: masked like a tool's
            shown = str(exc) if self.failures.expose else self.failures.masked(
                "listing the tools", exc)
            raise MCPError(types.INTERNAL_ERROR, shown) from exc
        self.listed = tools
        listed, cursor = page(tools, params.cursor if params is not None else None,
                              self.page_size)
        box = _published_box.get()
        if box is not None:
            box.append(listed)
        # ttlMs 0: a filtered or prepared set may change at any call, never cache it.
        result: dict[str, Any] = {"tools": listed, "ttlMs": 0, "cacheScope": "private",
                                  "resultType": "complete"}
        if cursor is not None:
            result["nextCursor"] = cursor
        return result

    async def keep_definitions(
        self, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        """Put back what the SDK's per-version result pass dropped from the definitions;
        and remember each handshake-era connection, so that a change made outside any
        call (a reload) reaches it (forgotten with the connection). One middleware for
        both: each layer costs every request an extra await."""
        method = ctx.method
        if method == "initialize":  # a handshake-era connection's first request
            connection = _session_of(ctx)
            if connection is not None:
                _refuse_second_initialize(connection)
                self.connections.add(connection)
        if method != "tools/list":
            return await call_next(ctx)
        box: list[list[dict[str, Any]]] = []
        token = _published_box.set(box)
        try:
            result = await call_next(ctx)
        finally:
            _published_box.reset(token)
        wire_tools = result.get("tools") if isinstance(result, dict) else None
        if not box or not isinstance(result, dict) or not isinstance(wire_tools, list):
            return result
        by_name = {tool["name"]: tool for tool in box[0]}
        result["tools"] = [_restored(t, by_name.get(t.get("name"))) for t in wire_tools]
        return result

    # -- tools/call -------------------------------------------------------------------

    async def on_call_tool(
        self, ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> dict[str, Any] | types.InputRequiredResult:
        self.step += 1
        asked = Asked() if params.request_state is None else await self.questions.resume(
            params)  # (2026-07-28: the answers of earlier rounds)
        if isinstance(asked, ToolResult):
            return {**asked.to_wire(), "resultType": "complete"}
        name, args = params.name, params.arguments or {}
        deps = self.deps if self.deps_factory is None else self.deps_of(_session_of(ctx))
        run_ctx = RunContext(deps=deps, step=self.step,
                             tool_call_id=None if ctx.request_id is None else str(ctx.request_id),
                             client=ServedClient(ctx, self.levels, asked))
        # (the failure policy set by hand, not by a context manager: this runs at every
        # served call, and the calls it makes cost as much as the rest of toolc's share)
        token = POLICY.set(self.failures)
        try:
            try:
                result = await self._call(run_ctx, name, args)
            except ApprovalRequiredError as paused:  # (the policy still applies to approving)
                outcome = await self._approve(ctx, params, run_ctx, paused, asked)
                if isinstance(outcome, types.InputRequiredResult):
                    return outcome
                result = outcome
        except InputRequired as pending:  # 2026-07-28: the handler asked the client
            outcome = self.questions.ask(params, pending, asked)
            if isinstance(outcome, types.InputRequiredResult):
                return outcome
            result = outcome
        finally:
            POLICY.reset(token)
        if type(result) is UnknownToolResult:  # a protocol error, not a result to read
            raise MCPError(types.INVALID_PARAMS, result.text_content)
        if self.listed is not None and self.fixed is not True:  # (no await when fixed)
            await self._notify_if_changed(ctx)
        return {**result.to_wire(), "resultType": "complete"}

    async def _approve(self, ctx: ServerRequestContext[Any], params: types.CallToolRequestParams,
                       run_ctx: RunContext[Any], paused: ApprovalRequiredError, asked: Asked
                       ) -> ToolResult | types.InputRequiredResult:
        """Ask the user (`approval.py`), unless they approved this call in an earlier
        round of its questions; a question the approved handler asks next carries that."""
        if asked.approved:
            return await run_approved(run_ctx, params, paused, self._call)

        async def call(approved: RunContext[Any], name: str, args: dict[str, Any]) -> ToolResult:
            asked.approved = True
            return await self._call(approved, name, args)

        return await self.approvals.approve(ctx, params, run_ctx, paused, call)

    async def _call(self, run_ctx: RunContext[Any], name: str, args: dict[str, Any]) -> ToolResult:
        """The toolset's result; every failure but a pending approval as an error result."""
        try:
            return await self.toolset.call_tool(run_ctx, name, args)
        except ApprovalRequiredError:
            raise
        except ExternalCallRequired:
            return ToolResult.error(
                f"{name} is an external tool: its caller runs it, and this server cannot."
            )
        except DeferredCallError as exc:
            return ToolResult.error(f"{name} cannot run here: {exc}")
        except Exception as exc:  # noqa: BLE001  # a ToolError as written, others masked
            return failure_result(name, exc)

    # -- list changed -------------------------------------------------------------------

    async def replace(self, toolset: AbstractToolset[Any]) -> None:
        self.toolset = toolset
        self.fixed = None  # decided again for the new set
        self._last = ([], [])
        self.listed = None
        await self.bus.publish(ToolsListChanged())
        for connection in list(self.connections):
            try:
                await connection.send_tool_list_changed()
            except Exception:  # a closed connection: it will list again
                logger.debug("list_changed not delivered", exc_info=True)

    async def _notify_if_changed(self, ctx: ServerRequestContext[Any]) -> None:
        if self.listed is None:
            return  # nobody listed yet: nothing to be out of date
        if self.fixed is None:  # decided once, after entering (lazy wrappers resolved)
            self.fixed = self.toolset.listing_is_fixed()
        if self.fixed:
            return  # listing again would cost O(tools) per call to find no change
        try:
            now = await self.published(self.run_context(session=_session_of(ctx)))
        except ToolsetError:
            return  # the next tools/list reports it
        if now == self.listed:
            return
        self.listed = now
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            await self.bus.publish(ToolsListChanged())
        else:
            await ctx.session.send_tool_list_changed()


def _refuse_second_initialize(connection: Any) -> None:
    """A connection that made its handshake keeps it (the SDK commits an initialize
    only when no middleware refuses it, so the first one's state stands). What counts is
    an initialize recorded, not a connection ready: a stateless HTTP request's connection
    is born ready, and its initialize is the first and only one."""
    if getattr(connection, "client_params", None) is not None:
        raise MCPError(types.INVALID_REQUEST,
                       "This connection is initialized already: a client initializes once "
                       "per connection (over HTTP: a new session, without Mcp-Session-Id).")


def _session_of(ctx: ServerRequestContext[Any]) -> Any:
    """The client connection a request belongs to; None when the protocol has none
    (from 2026-07-28 each request stands alone).

    `ServerSession` objects are made per request; the SDK's `Connection` behind them is
    the one per client (read from the session: the SDK has no public accessor yet).
    """
    if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
        return None
    return getattr(ctx.session, "_connection", None)


def _restored(wire: dict[str, Any], published: dict[str, Any] | None) -> dict[str, Any]:
    """The published definition itself (its order too), plus any key the SDK added."""
    if published is None:
        return wire
    if wire.keys() <= published.keys():  # the usual case: nothing added by the SDK
        return published
    return {**published, **{k: v for k, v in wire.items() if k not in published}}
