"""The project as the checks see it: parsed modules, lookups, and what checks learn.

Checks run in a fixed order (see ``checks/__init__.py``); each reports into the bag and
may leave results here for later checks and for :mod:`toolc.resolve` (the schema roots
and their problems, the recursive types, the static compositions, the written schemas),
so nothing is computed twice.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..diagnostics import DiagnosticBag, Fix, Related, Severity, Span
from ..model.named import TypeDef, TypeRegistry
from ..model.parse import ParsedModule
from ..model.toolsets import ToolsetSpec
from ..publish.schema_files import LocalFiles
from ..publish.writer import SchemaWriter
from ..publish.written import Written

if TYPE_CHECKING:
    from ..python_source import SourceIndex


@dataclass(eq=False, slots=True)
class SchemaRoot:
    """One schema document of the spec: a type, a tool's params or returns, a raw schema."""

    module: ParsedModule
    kind: str                 # "type", "params", "returns", "external", or for a tool
                              # pinned in an mcp toolset "pinned" (input) / "pinned_output"
    owner: str                # the type's or the tool's name
    node: Any                 # as loaded (for "params": the mapping of parameters)
    span: Span                # where the schema (or the `params` mapping) is written
    type_def: TypeDef | None = None
    toolset: str | None = None  # the toolset that defines the tool (pinned tools)
    errors: int = 0           # problems that make writing it out meaningless
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


CLIENTS = ("claude", "openai")  # the client profiles checks/clients.py knows


@dataclass(frozen=True, slots=True)
class ClientView:
    """The clients to check for, and each module's server name as the clients know it."""

    clients: tuple[str, ...] = CLIENTS
    server_name: str | None = None                        # one name for every module
    server_names: Mapping[str, str] = field(default_factory=dict)  # per module

    def server(self, module: str) -> str:
        return self.server_names.get(module, self.server_name or module)


ToolsetKey = tuple[int, str]  # (id of the parsed module, toolset name)

# A spec's `module:` line, read from a text YAML could not load.
_MODULE_LINE = re.compile(r"""^module:[ \t]*["']?([A-Za-z_][A-Za-z0-9_]*)["']?[ \t]*(?:#.*)?$""",
                          re.MULTILINE)


# The end of the note an unread spec's error gets (``toolc validate FILES`` keeps such an
# error when the references it holds back lie in a named file).
HELD_BACK = "are not reported until this spec loads"


@dataclass(slots=True)
class UnreadSpecs:
    """The specs that could not be loaded (a syntax error, an unreadable file): a
    reference to a module one of them may declare is not reported as unknown (TC307),
    since it follows from that spec's own error; it is counted, and said once there."""

    declared: dict[str, str]          # module -> the unread spec whose `module:` names it
    unnamed: tuple[str, ...]          # unread specs with no `module:` line found: any module
    # module -> the specs (as shown) of the references to it that were not reported
    held: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, texts: Mapping[str, str]) -> UnreadSpecs:
        """From each unread spec (as diagnostics name it) and as much of its text as was read."""
        declared: dict[str, str] = {}
        unnamed = []
        for path, text in texts.items():
            found = _MODULE_LINE.search(text)
            if found is None:
                unnamed.append(path)
            else:
                declared.setdefault(found.group(1), path)
        return cls(declared, tuple(unnamed))

    def holds(self, module: str, at: Span) -> bool:
        """Whether a reference to ``module`` at ``at``, which no loaded spec declares, is
        held back."""
        if module not in self.declared and not self.unnamed:
            return False
        self.held.setdefault(module, []).append(at.path)
        return True

    def spec_of(self, module: str) -> str:
        """The unread spec the references to ``module`` wait for."""
        return self.declared.get(module) or self.unnamed[0]



class ModuleNames(dict[str, ParsedModule]):
    """The modules by name, and each name looked up that none of them has: where only
    some specs are analysed (``toolc.specs``, the others' analysis taken over), such a
    name may be a module of the others, and the analysis is then not what a full one
    would say."""

    def __init__(self) -> None:
        super().__init__()
        self.missed: set[str] = set()

    def get(self, name: str, default: Any = None) -> Any:
        found = super().get(name, default)
        if found is None:
            self.missed.add(name)
        return found


class Project:
    def __init__(self, modules: list[ParsedModule], bag: DiagnosticBag,
                 root: Path | None = None, python_path: tuple[Path, ...] = (),
                 clients: ClientView | None = None, unread: UnreadSpecs | None = None):
        self.modules = modules
        self.bag = bag
        self.unread = unread  # specs that could not be loaded
        self.files = LocalFiles(root)  # the schema files `$ref`s name, read once
        self.python_path = python_path  # where handlers live ([tool.toolc] python-path)
        self.code_index: SourceIndex | None = None  # what the handler check looked up
        # The first module of each name is the one others see; a second is an error.
        self.by_name = ModuleNames()
        for parsed in modules:
            if parsed.name is not None:
                self.by_name.setdefault(parsed.name, parsed)
        self.registry = TypeRegistry(modules, self.by_name)
        self.roots: list[SchemaRoot] = []
        self.type_roots: dict[TypeDef, SchemaRoot] = {}
        self.recursive_types: set[TypeDef] = set()
        self.alias_cycle_types: set[TypeDef] = set()
        self.compositions: dict[ToolsetKey, Composition] = {}
        if clients is None:
            clients = ClientView()
        self.clients = clients
        self.deep_toolsets: set[ToolsetKey] = set()  # past the nesting bound: not composed
        self._writer: SchemaWriter | None = None
        self.written: dict[int, Written] = {}   # id(root) -> written schema
        self._type_descriptions: dict[TypeDef, str | None] = {}
        # Properties left without a description by their undescribed named type (TC201,
        # reported once per type): (what the property is, its key).
        self.undescribed_uses: dict[TypeDef, list[tuple[str, Span]]] = {}
        self._bad_types: set[TypeDef] | None = None

    def report(self, code: str, message: str, span: Span | None, *, notes: tuple[str, ...] = (),
               severity: Severity | None = None, fixes: tuple[Fix, ...] = (),
               related: tuple[Related, ...] = ()) -> None:
        self.bag.report(code, message, span, notes=notes, severity=severity, fixes=fixes,
                        related=related)

    def unknown_module(self, module: str, at: Span) -> bool:
        """Whether a reference to ``module`` at ``at``, which no spec declares, is to be
        reported (TC307): not when a spec that could not be loaded may declare it."""
        return self.unread is None or not self.unread.holds(module, at)

    # -- lookups ---------------------------------------------------------------------------

    def module_named(self, name: str) -> ParsedModule | None:
        found: ParsedModule | None = self.by_name.get(name)
        return found

    def find_toolset(self, parsed: ParsedModule, ref: str) -> tuple[ParsedModule, str] | None:
        """The toolset ``ref`` names from ``parsed`` (``name`` or ``module.name``)."""
        if ref in parsed.toolsets or ref in parsed.broken_toolsets:
            return parsed, ref
        module, dot, name = ref.partition(".")
        if not dot:
            return None
        other = parsed if module == parsed.name else self.by_name.get(module)
        if other is not None and (name in other.toolsets or name in other.broken_toolsets):
            return other, name
        return None

    def toolset(self, parsed: ParsedModule, name: str) -> ToolsetSpec | None:
        return parsed.toolsets.get(name)

    def type_description(self, td: TypeDef) -> str | None:
        """A named type's description: its own, or that of the type it is an alias of.

        Followed in a loop, not by recursion: a chain of 3,000 aliases is a spec error
        (TC230), not a RecursionError."""
        chain: list[TypeDef] = []
        seen: set[int] = set()
        found: str | None = None
        current: TypeDef | None = td
        while current is not None and id(current) not in seen:
            if current in self._type_descriptions:
                found = self._type_descriptions[current]
                break
            seen.add(id(current))
            chain.append(current)
            node, current = current.node, None
            if isinstance(node, dict):
                own = node.get("description")
                if isinstance(own, str) and own.strip():
                    found = own
                    break
                if isinstance(node.get("type"), str):
                    current = self.registry.lookup(chain[-1].module, node["type"])
        for member in chain:  # a cycle finds no description
            self._type_descriptions[member] = found
        return found

    # -- written schemas -------------------------------------------------------------------

    @property
    def writer(self) -> SchemaWriter:
        if self._writer is None:
            self._writer = SchemaWriter(self.registry.lookup, self.recursive_types, self.files)
        return self._writer

    def write(self, root: SchemaRoot) -> Written:
        """The published form of ``root`` (written once, then reused)."""
        done = self.written.get(id(root))
        if done is None:
            done = self._write(root)
            self.written[id(root)] = done
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

    def clean(self, root: SchemaRoot) -> bool:
        """No problem in the root nor in any named type it uses, even indirectly."""
        if root.errors:
            return False
        bad = self._bad()
        return not any(td in bad for td, _, _ in root.refs)

    def _bad(self) -> set[TypeDef]:
        """Types with a problem of their own, and every type that uses one (computed once)."""
        if self._bad_types is not None:
            return self._bad_types
        users: dict[TypeDef, list[TypeDef]] = {}
        for td, type_root in self.type_roots.items():
            for used, _, _ in type_root.refs:
                users.setdefault(used, []).append(td)
        bad = {td for td, r in self.type_roots.items() if r.errors} | self.alias_cycle_types
        stack = list(bad)
        while stack:
            for user in users.get(stack.pop(), ()):
                if user not in bad:
                    bad.add(user)
                    stack.append(user)
        self._bad_types = bad
        return bad


@dataclass(slots=True)
class Walk:
    """The schema document being walked, and how to report into it."""

    project: Project
    root: SchemaRoot

    @property
    def toolc(self) -> bool:
        return not self.root.raw

    def error(self, code: str, message: str, span: Span, notes: tuple[str, ...] = (),
              fixes: tuple[Fix, ...] = ()) -> None:
        """A problem of the schema; only a warning in a pinned tool's, which is published
        exactly as its server gives it whatever toolc thinks of it."""
        self.root.errors += 1
        if self.root.pinned:
            self.project.report(code, message, span, severity=Severity.WARNING,
                                notes=(*notes, PINNED_NOTE), fixes=fixes)
        else:
            self.project.report(code, message, span, notes=notes, fixes=fixes)


PINNED_NOTE = "a pinned tool is published exactly as its MCP server gives it"
