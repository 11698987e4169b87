"""The ``toolc lsp`` command, for an editor to start (docs/editors.md): the language
server run on stdio (:func:`toolc.lsp.serve_stdio`), or exit 2 without the ``lsp`` extra."""

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
