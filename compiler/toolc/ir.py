"""The resolved project: one immutable IR that feeds both publication and generation.

``resolve`` builds it from validated spec models once every check has passed, so the
published schemas and the generated code come from the same data and cannot disagree.
Everything here is plain, frozen and already resolved: named types are written out in
the published schemas, references point at real tools and toolsets, published names are
computed. Spans point back at the spec for every later diagnostic (certification).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .diagnostics import Span
from .runtime.metakeys import with_approval

JSON = Any  # a JSON value: dict / list / str / int / float / bool / None

ToolsetKind = Literal[
    "function", "filtered", "prepared", "prefixed", "renamed", "wrapper", "combined",
    "approval_required", "external", "mcp", "mcp_manager",
]


@dataclass(frozen=True, slots=True)
class Ref:
    """``package.module:attribute`` where the attribute may be dotted (``Class.method``)."""

    module: str
    attr: str

    def __str__(self) -> str:
        return f"{self.module}:{self.attr}"


@dataclass(frozen=True, slots=True)
class ToolIR:
    """One tool as the model will see it, plus what the generated code needs to run it."""

    name: str
    module: str                      # the spec module that defines it
    description: str
    input_schema: dict[str, JSON]    # published inputSchema, in written order
    span: Span                       # the tool's key in the spec
    title: str | None = None
    output_schema: dict[str, JSON] | None = None   # published outputSchema
    annotations: dict[str, JSON] | None = None
    meta: dict[str, JSON] | None = None
    handler: Ref | None = None
    # Calls pause for approval: the tool's own `requires_approval`, or (in a module's
    # ``exported_tools``) an `approval_required` set it is published through.
    requires_approval: bool = False
    additional_params: bool = False
    formats: bool = False            # calls assert `format` keywords (`format: assert`)
    external: bool = False           # defined by an `external` toolset: raw schema, no handler
    # Pinned from an MCP server (an `mcp` toolset's `tools`): the toolset that pins it, and
    # the server's other tool fields, published at the top level as given. A pinned tool
    # whose server gives no description publishes none (``has_description`` false).
    pinned_by: str | None = None
    extra: dict[str, JSON] | None = None
    has_description: bool = True
    # The spec's own schemas, toolc additions included, before named types are written
    # out (``None`` for external tools). The generator uses them to name pydantic models
    # after named types; the published schemas above are what goes on the wire.
    params_spec: dict[str, JSON] | None = None
    returns_spec: dict[str, JSON] | None = None
    # Where each description of the published tool comes from: JSON pointer into the
    # published tool (e.g. "/inputSchema/properties/lines/description") -> spec span.
    description_spans: dict[str, Span] = field(default_factory=dict)
    # Where each node and keyword of the published schemas is written in the spec (JSON
    # pointer into the published tool -> the key's span), for reviews in spec terms.
    spec_spans: dict[str, Span] = field(default_factory=dict)
    # Where the published name was made, when a set renamed the tool on its way to the
    # export (the `prefix` or `names` entry of the last one), and how to say so.
    name_span: Span | None = None
    named_by: str | None = None

    def published(self) -> dict[str, JSON]:
        """The tool as MCP ``tools/list`` shows it, absent fields left out, in MCP's order
        (then a pinned tool's other fields, as its server gave them)."""
        out: dict[str, JSON] = {"name": self.name}
        if self.title is not None:
            out["title"] = self.title
        if self.has_description:
            out["description"] = self.description
        out["inputSchema"] = self.input_schema
        if self.output_schema is not None:
            out["outputSchema"] = self.output_schema
        if self.annotations is not None:
            out["annotations"] = self.annotations
        if self.requires_approval:  # as the runtime lists it (toolc.runtime.metakeys)
            out["_meta"] = with_approval(self.meta)
        elif self.meta is not None:
            out["_meta"] = self.meta
        if self.extra:
            out.update(self.extra)
        return out


@dataclass(frozen=True, slots=True)
class TypeIR:
    """A named type: its spec schema (for generation) and its written-out schema."""

    name: str
    module: str
    spec: dict[str, JSON]
    schema: dict[str, JSON]
    span: Span
    recursive: bool = False


@dataclass(frozen=True, slots=True)
class ToolsetIR:
    """One declared toolset. Only the keys of its ``kind`` are set.

    ``inner`` and ``members`` hold qualified names ``module.toolset``; ``tools`` holds the
    tool names of this module (function) or the external tools (external).
    ``published`` is the list of published tool names when known at compile time
    (``None`` for mcp sets without pinned tools, and for anything built on them).
    """

    name: str
    module: str
    kind: ToolsetKind
    span: Span
    tools: tuple[str, ...] = ()
    inner: str | None = None
    members: tuple[str, ...] = ()
    conflicts: Literal["error", "last_wins"] = "error"
    prefix: str | None = None
    names: tuple[tuple[str, str], ...] = ()     # renamed: (old, new) in written order
    predicate: Ref | None = None
    prepare: Ref | None = None
    wrapper: Ref | None = None
    stdio: dict[str, JSON] | None = None        # {command, args, env, cwd}
    http: dict[str, JSON] | None = None         # {url, headers}
    tool_cache_ttl_ms: int = 60000
    instructions: bool = True
    always_load: bool = False                   # mcp: every tool published `anthropic/alwaysLoad`
    servers: tuple[tuple[str, str], ...] = ()   # mcp_manager: (server name, qualified toolset)
    published: tuple[str, ...] | None = None
    pinned: tuple[ToolIR, ...] | None = None    # mcp: the pinned tools, as the server gives them

    @property
    def qualname(self) -> str:
        return f"{self.module}.{self.name}"


@dataclass(frozen=True, slots=True)
class PythonNames:
    """The identifiers of one generated module, allocated once by ``resolve`` (the rules
    are in ``toolc.generate.names``): generate, certification and ``toolc serve`` read
    them here, so they cannot disagree about what a module's attributes are called."""

    modules: dict[str, str] = field(default_factory=dict)   # other spec module -> import name
    types: dict[str, str] = field(default_factory=dict)     # named type -> class or alias
    toolsets: dict[str, str] = field(default_factory=dict)  # toolset -> module attribute
    tools: dict[str, str] = field(default_factory=dict)     # tool -> Params/Handler/Result stem
    taken: frozenset[str] = frozenset()                     # all of them, and the reserved


@dataclass(frozen=True, slots=True)
class ModuleIR:
    name: str
    path: str                      # the spec file, as diagnostics show it
    description: str | None
    types: dict[str, TypeIR]
    tools: dict[str, ToolIR]       # every tool the module defines, external ones included
    toolsets: dict[str, ToolsetIR] # in written order; an implicit export is added as "toolset"
    export: str                    # name of the exported toolset in ``toolsets``
    exported_tools: tuple[ToolIR, ...] = ()  # what the export can ever show, published names
    type_imports: tuple[str, ...] = ()       # other modules whose named types this one uses
    # Certification lists the export under each of these too: (name, deps factory).
    certify_contexts: tuple[tuple[str, Ref], ...] = ()
    python_names: PythonNames = field(default_factory=PythonNames)  # set by resolve

    @property
    def imports(self) -> tuple[str, ...]:
        """Other spec modules this one refers to (types or toolsets), sorted."""
        found = {ts.inner.split(".")[0] for ts in self.toolsets.values()
                 if ts.inner and ts.inner.split(".")[0] != self.name}
        found.update(self.type_imports)
        for ts in self.toolsets.values():
            for ref in ts.members + tuple(q for _, q in ts.servers):
                if ref.split(".")[0] != self.name:
                    found.add(ref.split(".")[0])
        return tuple(sorted(found))


@dataclass(frozen=True, slots=True)
class ProjectIR:
    modules: dict[str, ModuleIR]   # sorted by module name
    # The schema files `$ref`s named, inlined into the published schemas: their path
    # (relative to the project) -> sha256 of what was read, so a cached build sees edits.
    schema_files: dict[str, str] = field(default_factory=dict)
