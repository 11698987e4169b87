"""Bearer tokens on ``/mcp``, through the SDK's own auth support (``mcp.server.auth``).

``--auth MODULE:FACTORY`` names a callable, imported from the project's python path and
called once at start, that returns a token verifier: an object with
``async verify_token(token) -> mcp.server.auth.provider.AccessToken | None`` (the SDK's
``TokenVerifier``). Then, as the MCP authorization spec asks of a resource server:

- every request to ``/mcp`` carries ``Authorization: Bearer <token>`` that the verifier
  accepts, unexpired, issued for this server (``AccessToken.resource`` is
  ``--public-url``: a token for another resource is refused) and holding every
  ``--auth-scope``; otherwise ``401`` (``403`` for a missing scope) with
  ``WWW-Authenticate: Bearer error=..., resource_metadata="..."``;
- the protected-resource metadata (RFC 9728) is served without a token at
  ``/.well-known/oauth-protected-resource`` + the public URL's path, naming
  ``--auth-issuer`` as the authorization server and the scopes;
- a verifier that raises refuses that token (logged), never a 500.

``/healthz`` needs no token. The principal a token names (client, issuer, subject) is
bound into approval questions, so one user's answer cannot approve another's call.
"""

from __future__ import annotations

import inspect
import logging
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from .targets import ServeError, named_callable

log = logging.getLogger("toolc.serve")


@dataclass(frozen=True, slots=True)
class BearerAuth:
    """How ``/mcp`` checks tokens: the verifier, and what the metadata publishes."""

    verifier: Any
    issuer: str
    resource: str  # the public URL of /mcp: the resource tokens must be issued for
    scopes: tuple[str, ...]


def check_url(flag: str, value: str) -> str:
    """``value`` if it is an absolute http(s) URL with a host, else ``ServeError``."""
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ServeError(f"{flag} {value!r}: write an absolute URL, http(s)://host[:port]/path")
    return value


def load_auth(reference: str | None, issuer: str | None, resource: str,
              scopes: tuple[str, ...]) -> BearerAuth | None:
    """The auth ``--auth`` asks for (its factory called now), or None without it."""
    if reference is None:
        return None
    if issuer is None:
        raise ServeError("--auth needs --auth-issuer URL: the authorization server clients "
                         "get their tokens from, which the protected-resource metadata names")
    check_url("--auth-issuer", issuer)
    factory = named_callable("--auth", reference)
    try:
        verifier = factory()
    except Exception as exc:  # noqa: BLE001  # user code at start-up: say what it raised
        raise ServeError(f"--auth: {reference}() raised {type(exc).__name__}: {exc}") from None
    if not inspect.iscoroutinefunction(getattr(verifier, "verify_token", None)):
        raise ServeError(
            f"--auth: {reference}() returned {type(verifier).__name__}, which has no "
            f"'async def verify_token(self, token)' (an mcp.server.auth.provider.TokenVerifier)")
    return BearerAuth(_Guarded(verifier), issuer, resource, scopes)


class _Guarded:
    """A verifier whose exceptions refuse the token instead of failing the request."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def verify_token(self, token: str) -> Any:
        try:
            return await self.inner.verify_token(token)
        except Exception:  # the user's verifier failed: refuse, log why
            log.warning("the token verifier raised; the token is refused", exc_info=True)
            return None


def protect(auth: BearerAuth, endpoint: Any, name: str) -> tuple[Any, list[Any], list[Any]]:
    """``endpoint`` behind the token check, the metadata routes, and the middleware that
    reads tokens (it runs for every route; only ``/mcp`` requires one)."""
    # lazy: loads mcp's auth (starlette, pydantic models)
    from mcp.server.auth.middleware.auth_context import AuthContextMiddleware
    from mcp.server.auth.middleware.bearer_auth import BearerAuthBackend, RequireAuthMiddleware
    from mcp.server.auth.routes import build_resource_metadata_url, create_protected_resource_routes
    from mcp.server.auth.settings import AuthSettings

    # lazy: loads starlette
    from starlette.middleware import Middleware
    from starlette.middleware.authentication import AuthenticationMiddleware

    # The SDK's settings keep a path-less issuer as written (issuers compare exactly).
    settings = AuthSettings.model_validate({
        "issuer_url": auth.issuer, "resource_server_url": auth.resource,
        "required_scopes": list(auth.scopes), "validate_token_resource": True})
    resource = settings.resource_server_url
    assert resource is not None
    middleware = [
        Middleware(AuthenticationMiddleware,
                   backend=BearerAuthBackend(auth.verifier, resource_server_url=resource)),
        Middleware(AuthContextMiddleware),
    ]
    guarded = RequireAuthMiddleware(endpoint, list(auth.scopes),
                                    build_resource_metadata_url(resource))
    routes = create_protected_resource_routes(
        resource_url=resource, authorization_servers=[settings.issuer_url],
        scopes_supported=list(auth.scopes) or None, resource_name=name)
    return guarded, routes, middleware
