"""``toolc lsp``: the language server over stdio, for an editor to start (docs/editors.md)."""

from __future__ import annotations

import sys
from typing import TextIO

from .common import EXIT_USAGE

MISSING = ("error: toolc lsp needs pygls and lsprotocol: "
           "pip install 'toolc[lsp]'\n")


def run_lsp(err: TextIO | None = None) -> int:
    """Serve until the editor ends the session; exit 2 when the extra is not installed."""
    try:
        # lazy: pygls and lsprotocol (the `lsp` extra), only for this command
        from ..lsp import serve_stdio
    except ImportError:
        (err or sys.stderr).write(MISSING)
        return EXIT_USAGE
    return serve_stdio()
