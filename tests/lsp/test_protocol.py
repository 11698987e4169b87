"""The server's protocol lets go of what it kept for a notification once it is handled:
an editor sends one per keystroke (``textDocument/didChange``) for hours."""

from __future__ import annotations

from typing import Any

from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from toolc.lsp.server import Protocol, ToolcServer


def pinged(server: LanguageServer, times: int) -> dict[Any, Any]:
    """What the protocol still holds after ``times`` notifications handled, as didChange
    is, by a generator handler."""
    seen: list[object] = []

    @server.feature("toolc/ping")
    def ping(*args: object) -> Any:
        seen.append(args)
        yield from ()

    for _ in range(times):
        server.protocol._handle_notification("toolc/ping", None)
    assert len(seen) == times
    return dict(server.protocol._request_futures)


def test_no_future_is_kept_for_a_handled_notification() -> None:
    assert isinstance(ToolcServer().protocol, Protocol)
    assert pinged(ToolcServer(), 50) == {}


def test_pygls_s_own_protocol_keeps_them() -> None:
    """The defect the subclass works round; when a pygls release fixes it, this test
    fails and Protocol can go."""
    server = LanguageServer("t", "1", protocol_cls=LanguageServerProtocol)
    assert len(pinged(server, 50)) == 50
