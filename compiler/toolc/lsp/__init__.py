"""The language server for specs (the Language Server Protocol, on pygls), as
:func:`create_server` puts it together and :func:`serve_stdio` runs it for ``toolc lsp``.

What it offers the editor: diagnostics as you type (every rule of ``toolc validate``, in
the same words, at the same ranges, with their related places and fixes), hover (what
the model reads of a tool, parameter or type, its tokens, its change against the golden
file), definition, references, completion, code actions, rename and formatting. Above
the stages: nothing of the compiler imports this package, and pygls and lsprotocol (the
``lsp`` extra) are imported only by it.
"""

from __future__ import annotations

from .features import register
from .server import ToolcServer


def create_server() -> ToolcServer:
    """The server with every feature registered (:mod:`.features`)."""
    server = ToolcServer()
    register(server)
    return server


def serve_stdio() -> int:
    """Run the server on stdin and stdout until the client ends it."""
    server = create_server()
    try:
        server.start_io()
    finally:
        server.worker.shutdown(wait=False, cancel_futures=True)
    return 0


__all__ = ["ToolcServer", "create_server", "serve_stdio"]
