"""The resolved project: one immutable IR that feeds both publication and generation.

``resolve`` builds it from validated spec models once every check has passed, so the
published schemas and the generated code come from the same data and cannot disagree.
Everything here is plain, frozen and already resolved: named types are written out in
the published schemas, references point at real tools and toolsets, published names are
computed. Spans point back at the spec for every later diagnostic (certification).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from .diagnostics import Span

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
    # The name the spec says the tool had before (`renamed_from`), and where it says so:
    # the diff reports the old published name's tool as renamed (toolc.diff.renames).
    renamed_from: str | None = None
    renamed_from_span: Span | None = None

    def span_at(self, pointer: str) -> Span:
        """Where the spec writes what ``pointer`` (into the published tool) finds: the
        nearest node or keyword at or above it that the spec writes (a description: its
        text), else the tool."""
        if pointer == "/name":
            return self.name_span or self.span
        while pointer:
            span = self.description_spans.get(pointer) or self.spec_spans.get(pointer)
            if span is not None:
                return span
            pointer = pointer[:pointer.rindex("/")]
        return self.span

    def published(self) -> dict[str, JSON]:
        """The tool as MCP ``tools/list`` shows it: the runtime's wire shape
        (:func:`toolc.runtime.definition.published_tool`), with the approval marker in
        ``_meta`` as the runtime lists it (toolc.runtime.metakeys)."""
        # lazy: toolc.runtime's package imports pydantic, which a no-op build,
        # answered from its cache, never needs
        from .runtime.definition import published_tool
        from .runtime.metakeys import with_approval

        meta = with_approval(self.meta) if self.requires_approval else self.meta
        return published_tool(self.name, self.input_schema, title=self.title,
                              description=self.description if self.has_description else None,
                              output_schema=self.output_schema, annotations=self.annotations,
                              meta=meta, extra=self.extra)


@dataclass(frozen=True, slots=True)
class TypeIR:
    """A named type: its spec schema (for generation) and its written-out schema."""

    name: str
    module: str
    spec: dict[str, JSON]
    schema: dict[str, JSON]
    span: Span
    recursive: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolsetBase:
    """What every declared toolset has; each kind below adds only its own keys.

    References to other toolsets (``inner``, ``members``, ``servers``) hold qualified
    names ``module.toolset``. ``published`` is the list of published tool names when
    known at compile time (``None`` for mcp sets without pinned tools, and for anything
    built on them).
    """

    kind: ClassVar[ToolsetKind]  # each kind's own, a constant of its class
    name: str
    module: str
    span: Span
    published: tuple[str, ...] | None = None

    @property
    def qualname(self) -> str:
        return f"{self.module}.{self.name}"


@dataclass(frozen=True, slots=True, kw_only=True)
class FunctionToolsetIR(ToolsetBase):
    kind: ClassVar[Literal["function"]] = "function"
    tools: tuple[str, ...]                      # tool names of this module


@dataclass(frozen=True, slots=True, kw_only=True)
class WrappingToolsetBase(ToolsetBase):
    """A toolset that wraps exactly one other (its `inner`)."""

    inner: str


@dataclass(frozen=True, slots=True, kw_only=True)
class FilteredToolsetIR(WrappingToolsetBase):
    kind: ClassVar[Literal["filtered"]] = "filtered"
    predicate: Ref


@dataclass(frozen=True, slots=True, kw_only=True)
class PreparedToolsetIR(WrappingToolsetBase):
    kind: ClassVar[Literal["prepared"]] = "prepared"
    prepare: Ref


@dataclass(frozen=True, slots=True, kw_only=True)
class PrefixedToolsetIR(WrappingToolsetBase):
    kind: ClassVar[Literal["prefixed"]] = "prefixed"
    prefix: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RenamedToolsetIR(WrappingToolsetBase):
    kind: ClassVar[Literal["renamed"]] = "renamed"
    names: tuple[tuple[str, str], ...]          # (old, new) in written order


@dataclass(frozen=True, slots=True, kw_only=True)
class WrapperToolsetIR(WrappingToolsetBase):
    kind: ClassVar[Literal["wrapper"]] = "wrapper"
    wrapper: Ref


@dataclass(frozen=True, slots=True, kw_only=True)
class ApprovalRequiredToolsetIR(WrappingToolsetBase):
    kind: ClassVar[Literal["approval_required"]] = "approval_required"


@dataclass(frozen=True, slots=True, kw_only=True)
class CombinedToolsetIR(ToolsetBase):
    kind: ClassVar[Literal["combined"]] = "combined"
    members: tuple[str, ...]
    conflicts: Literal["error", "last_wins"] = "error"


@dataclass(frozen=True, slots=True, kw_only=True)
class ExternalToolsetIR(ToolsetBase):
    kind: ClassVar[Literal["external"]] = "external"
    tools: tuple[str, ...]                      # the module's tools this set defines


@dataclass(frozen=True, slots=True, kw_only=True)
class MCPToolsetIR(ToolsetBase):
    kind: ClassVar[Literal["mcp"]] = "mcp"
    stdio: dict[str, JSON] | None = None        # {command, args, env, cwd}
    http: dict[str, JSON] | None = None         # {url, headers}
    tool_cache_ttl_ms: int = 60000
    instructions: bool = True
    always_load: bool = False                   # every tool published `anthropic/alwaysLoad`
    pinned: tuple[ToolIR, ...] | None = None    # the pinned tools, as the server gives them


@dataclass(frozen=True, slots=True, kw_only=True)
class MCPManagerToolsetIR(ToolsetBase):
    kind: ClassVar[Literal["mcp_manager"]] = "mcp_manager"
    servers: tuple[tuple[str, str], ...]        # (server name, qualified toolset)
    conflicts: Literal["error", "last_wins"] = "error"


# The kinds that wrap one other toolset (the subclasses of WrappingToolsetBase).
WrappingToolsetIR = (
    FilteredToolsetIR | PreparedToolsetIR | PrefixedToolsetIR | RenamedToolsetIR
    | WrapperToolsetIR | ApprovalRequiredToolsetIR
)
# One declared toolset: exactly the keys of its kind (``kind`` tells them apart too).
ToolsetIR = (
    FunctionToolsetIR | CombinedToolsetIR | ExternalToolsetIR | MCPToolsetIR
    | MCPManagerToolsetIR | WrappingToolsetIR
)


def referred(ts: ToolsetIR) -> tuple[str, ...]:
    """The qualified names of the toolsets ``ts`` is built on, in written order."""
    match ts:
        case WrappingToolsetBase():
            return (ts.inner,)
        case CombinedToolsetIR():
            return ts.members
        case MCPManagerToolsetIR():
            return tuple(qualified for _, qualified in ts.servers)
        case _:
            return ()


def user_code(ts: ToolsetIR) -> Ref | None:
    """The user code ``ts`` itself calls: a predicate, prepare function or wrapper class."""
    match ts:
        case FilteredToolsetIR():
            return ts.predicate
        case PreparedToolsetIR():
            return ts.prepare
        case WrapperToolsetIR():
            return ts.wrapper
        case _:
            return None


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
    version: str | None = None     # the spec's `version`: the served `serverInfo.version`

    @property
    def imports(self) -> tuple[str, ...]:
        """Other spec modules this one refers to (types or toolsets), sorted."""
        found = {ref.split(".")[0] for ts in self.toolsets.values() for ref in referred(ts)}
        found.discard(self.name)
        found.update(self.type_imports)
        return tuple(sorted(found))

    def mcp_sets(self, *, pinning_only: bool = False) -> list[MCPToolsetIR]:
        """The module's ``mcp`` toolsets in their order, the one place they are chosen:
        every one (what certification stands in for), or with ``pinning_only`` those
        that pin their tools (what ``serve --pinned`` and drift checks look at)."""
        return [ts for ts in self.toolsets.values()
                if isinstance(ts, MCPToolsetIR) and (ts.pinned is not None or not pinning_only)]


@dataclass(frozen=True, slots=True)
class SpecInputs:
    """What the analysis of one spec read besides the spec, so that a build can tell
    whether it would read the same (``toolc.reuse.components``)."""

    schema_files: tuple[str, ...] = ()   # those its `$ref`s inline (keys of schema_files)
    # Each module name the handler check looked up, and what it found there.
    code: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass(frozen=True, slots=True)
class ProjectIR:
    modules: dict[str, ModuleIR]   # sorted by module name
    # The schema files `$ref`s named, inlined into the published schemas: their path
    # (relative to the project) -> sha256 of what was read, so a cached build sees edits.
    schema_files: dict[str, str] = field(default_factory=dict)
    inputs: dict[str, SpecInputs] = field(default_factory=dict)  # by spec, as shown


    def stand_in_targets(self, *, unpinned: bool = False) -> dict[str, list[tuple[str, MCPToolsetIR]]]:
        """Per module, the ``mcp`` toolsets a ``PinnedToolset`` stands in for, by module
        attribute (``toolc.runtime.mcp.pinned.stand_in_pinned``): those that pin their tools,
        and with ``unpinned`` the others too (what certification does)."""
        found = {}
        for module in self.modules.values():
            sets = module.mcp_sets(pinning_only=not unpinned)
            if sets:
                attributes = module.python_names.toolsets
                found[module.name] = [(attributes[ts.name], ts) for ts in sets]
        return found