"""What the analysis of a project learns, for the checks and the stages after them.

The analysis steps (:mod:`toolc.checks.steps`) compute each fact once and return it;
:class:`ProjectFacts` holds them all, frozen. The checks read it and report; resolve
(:mod:`toolc.resolve`) and the front end read it after them. Where computing a fact and
finding a problem are one walk (the schema walk, the bounds, composition, the handler
lookups), the step keeps what it found as :class:`StepFinding` records, which the check that
declares their code reports.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..diagnostics import Fix, Related, Severity, Span
from ..model.named import TypeDef, TypeRegistry
from ..model.parse import ParsedModule
from ..model.toolsets import ToolsetSpec
from ..publish.schema_files import LocalFiles
from ..publish.writer import SchemaWriter
from ..publish.written import Written
from .parsed import ClientView, ModuleNames, ParsedProject

if TYPE_CHECKING:
    from ..python_source import SourceIndex


@dataclass(frozen=True, slots=True)
class StepFinding:
    """A problem an analysis step found, as the check that declares its code reports it."""

    code: str
    message: str
    span: Span | None
    notes: tuple[str, ...] = ()
    severity: Severity | None = None
    fixes: tuple[Fix, ...] = ()
    related: tuple[Related, ...] = ()


@dataclass(eq=False, slots=True)
class SchemaRoot:
    """One schema document of the spec: a type, a tool's params or returns, a raw schema.

    Made by the schema walk, which alone fills ``errors`` and ``refs`` as it walks it."""

    module: ParsedModule
    kind: str                 # "type", "params", "returns", "external", or for a tool
                              # pinned in an mcp toolset "pinned" (input) / "pinned_output"
    owner: str                # the type's or the tool's name
    node: Any                 # as loaded (for "params": the mapping of parameters)
    span: Span                # where the schema (or the `params` mapping) is written
    type_def: TypeDef | None = None
    toolset: str | None = None  # the toolset that defines the tool (pinned tools)
    errors: int = 0           # problems the walk found that make writing it out meaningless
    refs: list[tuple[TypeDef, Span, bool]] = field(default_factory=list)  # (type, at, alias)

    @property
    def raw(self) -> bool:
        """Plain JSON Schema (an external or pinned tool's): no toolc additions, published
        as written."""
        return self.kind in ("external", "pinned", "pinned_output")

    @property
    def pinned(self) -> bool:
        """A schema of a tool pinned from an MCP server: someone else's, kept as given."""
        return self.kind in ("pinned", "pinned_output")

    def describe(self) -> str:
        if self.kind == "pinned":
            return f"pinned tool '{self.owner}' of toolset '{self.toolset}'"
        if self.kind == "pinned_output":
            return (f"the `output_schema` of pinned tool '{self.owner}' of toolset "
                    f"'{self.toolset}'")
        if self.kind == "type":
            return f"type '{self.owner}'"
        if self.kind == "returns":
            return f"the `returns` of tool '{self.owner}'"
        if self.kind == "external":
            return f"external tool '{self.owner}'"
        return f"tool '{self.owner}'"


@dataclass(slots=True)
class ToolKey:
    """A tool of a module: one of its ``tools``, or a tool of one of its external toolsets."""

    module: ParsedModule
    name: str
    external_toolset: str | None = None
    pinned_toolset: str | None = None   # an mcp toolset that pins the tool


@dataclass(slots=True)
class Entry:
    """One tool a toolset publishes, under its published name."""

    name: str
    tool: ToolKey
    approval: bool = False   # published through an `approval_required` set
    # Each prefix or rename on the way: (the name after it, where it is written, what it
    # is), so a rule on published names can point at the step that broke it.
    steps: tuple[tuple[str, Span, str], ...] = ()


@dataclass(slots=True)
class Composition:
    """The tools a toolset publishes; ``complete`` is false when some are only known at run time."""

    entries: list[Entry]
    complete: bool


ToolsetKey = tuple[int, str]  # (id of the parsed module, toolset name)


@dataclass(frozen=True, slots=True)
class MissingRename:
    """A `renamed` set's ``names`` entry for a tool its inner set does not publish (TC403;
    its near miss is looked for when it is reported, in the order suggestions are made)."""

    toolset: str
    old: str
    present: tuple[str, ...]   # what the inner set publishes
    at: Span


@dataclass(frozen=True, slots=True)
class TypeCycles:
    """Cycles among named types: each closing reference with the cycle's members."""

    alias_cycles: tuple[tuple[Span, tuple[TypeDef, ...]], ...]      # TC208
    recursive_cycles: tuple[tuple[Span, tuple[TypeDef, ...]], ...]  # TC206
    alias_cycle_types: frozenset[TypeDef]   # on a cycle of mere aliases: no structure
    recursive_types: frozenset[TypeDef]     # published through `$defs`


class WrittenSchemas:
    """Each schema document's published form, written once (``steps.write_clean`` writes
    every clean one, in the order of the roots; resolve may ask for a root a severity
    setting let through). A memo of the writer, whose output depends on the specs alone."""

    __slots__ = ("_done", "writer")

    def __init__(self, project: ParsedProject, recursive: AbstractSet[TypeDef]):
        self.writer = SchemaWriter(project.registry.lookup, recursive, project.files)
        self._done: dict[int, Written] = {}   # id(root) -> written schema

    def write(self, root: SchemaRoot) -> Written:
        done = self._done.get(id(root))
        if done is None:
            done = self._done[id(root)] = self._write(root)
        return done

    def _write(self, root: SchemaRoot) -> Written:
        w = self.writer
        if root.kind == "params":
            tool = root.module.tools.get(root.owner)
            additional = bool(tool and tool.additional_params)
            return w.input_schema(root.module, root.node, additional)
        if root.kind == "returns":
            return w.document(root.module, root.node, "/outputSchema")
        assert root.type_def is not None
        return w.type_schema(root.type_def)


@dataclass(frozen=True, slots=True)
class ProjectFacts:
    """Everything the analysis learnt about one project (see the module docstring)."""

    project: ParsedProject
    roots: tuple[SchemaRoot, ...]                     # every schema document, in spec order
    type_roots: Mapping[TypeDef, SchemaRoot]
    # Properties left without a description by their undescribed named type (TC201,
    # reported once per type): (what the property is, its key).
    undescribed_uses: Mapping[TypeDef, tuple[tuple[str, Span], ...]]
    type_cycles: TypeCycles
    out_of_bounds: frozenset[SchemaRoot]              # too deep or too large (TC230, TC231)
    clean_roots: frozenset[SchemaRoot]  # no problem in it nor in a type it uses, even indirectly
    schemas: WrittenSchemas
    deep_toolsets: frozenset[ToolsetKey]              # past the nesting bound: not composed
    compositions: Mapping[ToolsetKey, Composition]
    missing_renames: tuple[MissingRename, ...]
    code_index: SourceIndex | None                    # what the handler lookups looked up
    # module -> the specs (as shown) of the references to it held back (an unread spec
    # may declare it), in the order found
    held: Mapping[str, tuple[str, ...]]
    found: tuple[StepFinding, ...]                        # the steps' findings, in order

    # -- what the parsed project has ---------------------------------------------------------

    @property
    def modules(self) -> list[ParsedModule]:
        return self.project.modules

    @property
    def by_name(self) -> ModuleNames:
        return self.project.by_name

    @property
    def registry(self) -> TypeRegistry:
        return self.project.registry

    @property
    def files(self) -> LocalFiles:
        return self.project.files

    @property
    def clients(self) -> ClientView:
        return self.project.clients

    def find_toolset(self, parsed: ParsedModule, ref: str) -> tuple[ParsedModule, str] | None:
        return self.project.find_toolset(parsed, ref)

    def toolset(self, parsed: ParsedModule, name: str) -> ToolsetSpec | None:
        return self.project.toolset(parsed, name)

    def module_named(self, name: str) -> ParsedModule | None:
        return self.project.module_named(name)

    def unknown_module(self, module: str) -> bool:
        return self.project.unknown_module(module)

    @property
    def recursive_types(self) -> frozenset[TypeDef]:
        return self.type_cycles.recursive_types

    @property
    def alias_cycle_types(self) -> frozenset[TypeDef]:
        return self.type_cycles.alias_cycle_types

    @property
    def writer(self) -> SchemaWriter:
        return self.schemas.writer

    def clean(self, root: SchemaRoot) -> bool:
        """No problem in the root nor in any named type it uses, even indirectly."""
        return root in self.clean_roots

    def write(self, root: SchemaRoot) -> Written:
        """The published form of ``root`` (written once, then reused)."""
        return self.schemas.write(root)


@dataclass(slots=True)
class Walk:
    """The schema document being walked, and what the walk finds in it (into the lists
    the walk of every document shares)."""

    project: ParsedProject
    root: SchemaRoot
    found: list[StepFinding]
    # named type -> the properties it leaves undescribed (see ProjectFacts)
    undescribed: dict[TypeDef, list[tuple[str, Span]]]
    held: list[tuple[str, Span]]   # (module, at): references held back for an unread spec

    @property
    def toolc(self) -> bool:
        return not self.root.raw

    def report(self, code: str, message: str, span: Span, *, notes: tuple[str, ...] = (),
               severity: Severity | None = None, fixes: tuple[Fix, ...] = ()) -> None:
        """A finding that does not stop the document from being written out."""
        self.found.append(StepFinding(code, message, span, notes, severity, fixes))

    def error(self, code: str, message: str, span: Span, notes: tuple[str, ...] = (),
              fixes: tuple[Fix, ...] = ()) -> None:
        """A problem of the schema; only a warning in a pinned tool's, which is published
        exactly as its server gives it whatever toolc thinks of it."""
        self.root.errors += 1
        if self.root.pinned:
            self.report(code, message, span, severity=Severity.WARNING,
                        notes=(*notes, PINNED_NOTE), fixes=fixes)
        else:
            self.report(code, message, span, notes=notes, fixes=fixes)


PINNED_NOTE = "a pinned tool is published exactly as its MCP server gives it"
