"""What every adapter needs and no framework provides: the framework-free part.

- `require(extra, module)`: import a framework, or say which extra installs it.
- `published_schema(definition)`: a private copy of the published input schema, so a
  framework that edits schemas in place (several do) cannot change the runtime's shared
  definitions; the copy is the same JSON, never a re-derivation.
- `target_view(target, definition, schema)`: the input schema of a provider target's
  view of the tool (what the build publishes as `schemas/<module>/<target>/<tool>.json`),
  or a `ValueError` saying what the build's check says it cannot carry; a call's
  arguments go back through `canonical_arguments` before the runtime validates them.
- `approval_names(toolset)`: the published names whose calls always ask for approval,
  for frameworks that must know before the call (the OpenAI Agents SDK).
- `pause_request(exc)`: the one request of a paused call.
- `FrameworkClient(framework)`: a call's `RunContext.client` where a framework, not an
  MCP client, made the call: progress and log messages as without a client, a question
  to the user or a sampling request refused, naming the framework
  (`toolc.runtime.client`); an adapter whose framework has an equivalent overrides it.
- `calling(policy)`: how a call's unexpected exceptions read. What a tool answers goes to
  a model provider, as from a server, so by default they read "internal error in tool X
  (ref N)" (the traceback logged under that ref), as `toolc serve` says them; an
  adapter's `expose_errors=True` sends their type and text.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from toolc.runtime.client import CallClient
from toolc.runtime.deferred import DeferredCallError, DeferredToolRequest
from toolc.runtime.definition import ToolDefinition
from toolc.runtime.dialects import TARGETS, lower_tool
from toolc.runtime.failures import FailurePolicy, reporting_failures
from toolc.runtime.toolsets.abstract import AbstractToolset, DelegatingToolset
from toolc.runtime.toolsets.approval import ApprovalRequiredToolset
from toolc.runtime.toolsets.combined import CombinedToolset
from toolc.runtime.toolsets.function import FunctionToolset
from toolc.runtime.toolsets.prefixed import PrefixedToolset
from toolc.runtime.toolsets.renamed import RenamedToolset

calling = reporting_failures


class FrameworkClient(CallClient):
    """Whoever made an adapter's call: a framework (named in what it cannot do)."""

    def __init__(self, framework: str) -> None:
        self.where = f"in {framework} (no MCP client made this call)"


def failure_policy(expose_errors: bool) -> FailurePolicy:
    """The policy an adapter's calls report unexpected exceptions by."""
    return FailurePolicy(expose=expose_errors)


def require(extra: str, module: str) -> ModuleType:
    """`module`, imported; an ImportError naming the extra when it is not installed."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"toolc.adapters needs {module!r} for this adapter: "
            f"pip install 'toolc[{extra}]'") from exc


def published_schema(definition: ToolDefinition) -> dict[str, Any]:
    """The published input schema as a fresh dict (a JSON round trip: equal by construction)."""
    copied: dict[str, Any] = json.loads(json.dumps(definition.input_schema))
    return copied


def target_view(target: str, definition: ToolDefinition, schema: dict[str, Any]
                ) -> dict[str, Any]:
    """The input schema of ``target``'s view of the tool whose published input schema is
    ``schema`` (see the module docstring)."""
    if target not in TARGETS:
        raise ValueError(f"unknown target {target!r}; known: {', '.join(TARGETS)}")
    tool: dict[str, Any] = {"name": definition.name, "inputSchema": schema}
    if definition.description is not None:
        tool["description"] = definition.description
    view = lower_tool(TARGETS[target], tool)
    if view.problems:
        raise ValueError(f"{definition.name} cannot be sent as {target}'s view:\n" + "\n".join(
            f"{f.pointer.removeprefix('/inputSchema') or '/'}: {f.says()}"
            for f in view.problems))
    lowered: dict[str, Any] = view.input_schema
    return lowered


def pause_request(exc: DeferredCallError) -> DeferredToolRequest:
    """The request of a paused call: one call pauses with exactly one request."""
    return exc.requests[0]


def approval_names(toolset: AbstractToolset[Any]) -> frozenset[str]:
    """Published names whose every call asks for approval, known without a call.

    Follows the runtime's own kinds (function tools with `requires_approval`,
    `approval_required` sets, prefixes, renames, combinations, wrappers). A name missing
    here that still pauses (a hand-written wrapper that raises `ApprovalRequiredError`)
    is refused by the adapters at call time, never run unapproved.
    """

    if isinstance(toolset, FunctionToolset):
        return frozenset(n for n, t in toolset.tools.items() if t.requires_approval)
    if isinstance(toolset, ApprovalRequiredToolset):
        return toolset.static_names() or frozenset()
    if isinstance(toolset, PrefixedToolset):
        return frozenset(toolset.prefix + n for n in approval_names(toolset.inner))
    if isinstance(toolset, RenamedToolset):
        return frozenset(_renamed(toolset.names, approval_names(toolset.inner)))
    if isinstance(toolset, CombinedToolset):
        return frozenset().union(*(approval_names(m) for m in toolset.toolsets))
    if isinstance(toolset, DelegatingToolset):  # filtered, prepared, wrappers
        return approval_names(toolset.inner)
    inner = getattr(toolset, "inner", None)  # a WrapperToolset subclass
    return approval_names(inner) if isinstance(inner, AbstractToolset) else frozenset()


def _renamed(names: Mapping[str, str], inner: frozenset[str]) -> list[str]:
    return [names.get(n, n) for n in inner]
