"""The `_meta` keys toolc publishes on a tool, and how they are merged into the spec's own.

MCP's key grammar (the spec's "Key name format", checked by the SDK's
`mcp/shared/extension.py`): an optional prefix of dot-separated labels and a `/`, then a
name. `toolc/` keys are toolc's own; `anthropic/` keys are the ones Claude Code reads.
Imported by the compiler too (the golden files carry the same keys): no imports here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# Calls of the tool pause for approval (`requires_approval`, or an `approval_required`
# set): a client's own permission flow can show it or pre-approve it.
REQUIRES_APPROVAL = "toolc/requiresApproval"
# Claude Code: load the tool upfront even when tool search defers the others.
ALWAYS_LOAD = "anthropic/alwaysLoad"
# Claude Code: words the tool search matches the tool by.
SEARCH_HINT = "anthropic/searchHint"
SEARCH_KEYS = (ALWAYS_LOAD, SEARCH_HINT)


def with_approval(meta: Mapping[str, Any] | None) -> dict[str, Any]:
    """``meta`` with the approval key set; the spec's own keys are kept."""
    return {**(meta or {}), REQUIRES_APPROVAL: True}
