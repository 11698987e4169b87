"""The eleven toolset kinds, one model each, told apart by ``kind``.

References to other toolsets (``inner``, ``toolsets``, ``servers``) are kept as written
(``name`` or ``othermodule.name``); the reference checks resolve them.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from .base import Expect, SpecModel
from .tools import ExternalToolSpec, PinnedToolSpec

ToolsetRef = Annotated[
    str, Expect("a toolset name (`name` or `othermodule.name`)"),
    Field(description="A toolset of this module, or `othermodule.name`."),
]
CodeRef = Annotated[
    str, Expect("a reference `package.module:attribute`"),
    Field(description="`package.module:attribute`; referenced, never imported while compiling."),
]


class FunctionToolset(SpecModel):
    """The listed tools of this module."""

    kind: Literal["function"]
    tools: Annotated[list[str], Expect("a list of tool names")]


class FilteredToolset(SpecModel):
    """The whole inner set, shown or hidden per turn by ``predicate(ctx) -> bool``."""

    kind: Literal["filtered"]
    inner: ToolsetRef
    predicate: CodeRef


class PreparedToolset(SpecModel):
    """Per turn, ``prepare(ctx, tools) -> tools`` may remove, reorder or edit tools."""

    kind: Literal["prepared"]
    inner: ToolsetRef
    prepare: CodeRef


class PrefixedToolset(SpecModel):
    """Every name becomes ``prefix + name``, the prefix taken literally."""

    kind: Literal["prefixed"]
    inner: ToolsetRef
    prefix: Annotated[str, Field(min_length=1)]


class RenamedToolset(SpecModel):
    """The named tools renamed; others pass unchanged."""

    kind: Literal["renamed"]
    inner: ToolsetRef
    names: Annotated[dict[str, str], Expect("a mapping of old names to new names")]


class WrapperToolset(SpecModel):
    """Every call goes through a ``WrapperToolset`` subclass."""

    kind: Literal["wrapper"]
    inner: ToolsetRef
    wrapper: CodeRef


class CombinedToolset(SpecModel):
    """The union of the member sets, in member order."""

    kind: Literal["combined"]
    toolsets: Annotated[list[str], Expect("a list of toolset names")]
    conflicts: Literal["error", "last_wins"] = "error"


class ApprovalRequiredToolset(SpecModel):
    """Every call pauses for approval."""

    kind: Literal["approval_required"]
    inner: ToolsetRef


class ExternalToolset(SpecModel):
    """Tools described with raw JSON Schema whose calls are handed to the caller."""

    kind: Literal["external"]
    tools: Annotated[dict[str, ExternalToolSpec], Expect("a mapping of tool names to tools")]


class StdioServer(SpecModel):
    command: Annotated[str, Field(min_length=1)]
    args: Annotated[list[str], Expect("a list of strings")] = Field(default_factory=list)
    env: Annotated[dict[str, str], Expect("a mapping of strings")] = Field(default_factory=dict)
    cwd: str | None = None


class HttpServer(SpecModel):
    url: Annotated[str, Field(min_length=1)]
    headers: Annotated[dict[str, str], Expect("a mapping of strings")] = Field(
        default_factory=dict)


class MCPToolset(SpecModel):
    """The tools of one MCP server, over stdio or streamable HTTP (exactly one).

    ``tools`` pins the server's tools (``toolc import`` writes it): then they are known
    when compiling, published in the golden files, and checked for drift with
    ``toolc diff --live``. Without it the set's tools are known only at run time.
    """

    kind: Literal["mcp"]
    stdio: Annotated[StdioServer | None, Expect("a mapping with `command`")] = None
    http: Annotated[HttpServer | None, Expect("a mapping with `url`")] = None
    tool_cache_ttl_ms: Annotated[int, Field(ge=0)] = 60000
    instructions: bool = True
    always_load: Annotated[
        bool, Field(description="`true`: clients with tool search load every tool of the "
                                "server upfront (`alwaysLoad` in a client's `mcpServers` "
                                "entry; `toolc import --config` keeps it).")] = False
    tools: Annotated[
        dict[str, PinnedToolSpec] | None,
        Expect("a mapping of tool names to pinned tools"),
        Field(description="The server's tools, pinned: published exactly as written."),
    ] = None


class MCPManagerToolset(SpecModel):
    """Several ``mcp`` toolsets connected together, their tools merged."""

    kind: Literal["mcp_manager"]
    servers: Annotated[dict[str, str], Expect("a mapping of server names to `mcp` toolsets")]
    conflicts: Literal["error", "last_wins"] = "error"


ToolsetSpec = (
    FunctionToolset | FilteredToolset | PreparedToolset | PrefixedToolset | RenamedToolset
    | WrapperToolset | CombinedToolset | ApprovalRequiredToolset | ExternalToolset
    | MCPToolset | MCPManagerToolset
)
AnyToolset = Annotated[ToolsetSpec, Field(discriminator="kind")]

KINDS: tuple[str, ...] = (
    "function", "filtered", "prepared", "prefixed", "renamed", "wrapper", "combined",
    "approval_required", "external", "mcp", "mcp_manager",
)
