"""``toolc lsp``: a Language Server Protocol server for specs, over stdio (pygls).

Diagnostics as you type (every rule of ``toolc validate``, in the same words, at the
same ranges, with their related places and fixes), hover (what the model reads of a
tool, parameter or type, its tokens, its change against the golden file), definition,
references, completion, code actions, rename and formatting. Above the stages: nothing
of the compiler imports this package, and pygls and lsprotocol (the ``lsp`` extra) are
imported only by it.
"""

from __future__ import annotations

from .server import ToolcServer, create_server, serve_stdio

__all__ = ["ToolcServer", "create_server", "serve_stdio"]
