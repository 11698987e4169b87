"""The parsed project the analysis starts from: its modules and the lookups over them.

Nothing here is learnt by a check: the analysis steps (:mod:`toolc.checks.steps`) take
it and return :class:`~toolc.checks.facts.ProjectFacts`, which the checks read.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..model.named import TypeDef, TypeRegistry
from ..model.parse import ParsedModule
from ..model.toolsets import ToolsetSpec
from ..publish.schema_files import LocalFiles

CLIENTS = ("claude", "openai")  # the client profiles checks/clients.py knows


@dataclass(frozen=True, slots=True)
class ClientView:
    """The clients to check for, and each module's server name as the clients know it."""

    clients: tuple[str, ...] = CLIENTS
    server_name: str | None = None                        # one name for every module
    server_names: Mapping[str, str] = field(default_factory=dict)  # per module

    def server(self, module: str) -> str:
        return self.server_names.get(module, self.server_name or module)


# A spec's `module:` line, read from a text YAML could not load.
_MODULE_LINE = re.compile(r"""^module:[ \t]*["']?([A-Za-z_][A-Za-z0-9_]*)["']?[ \t]*(?:#.*)?$""",
                          re.MULTILINE)


# The end of the note an unread spec's error gets (``toolc validate FILES`` keeps such an
# error when the references it holds back lie in a named file).
HELD_BACK = "are not reported until this spec loads"


@dataclass(frozen=True, slots=True)
class UnreadSpecs:
    """The specs that could not be loaded (a syntax error, an unreadable file): a
    reference to a module one of them may declare is not reported as unknown (TC307),
    since it follows from that spec's own error; the analysis counts such references
    (``ProjectFacts.held``), and the front end says them once there."""

    declared: dict[str, str]          # module -> the unread spec whose `module:` names it
    unnamed: tuple[str, ...]          # unread specs with no `module:` line found: any module

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

    def holds(self, module: str) -> bool:
        """Whether a reference to ``module``, which no loaded spec declares, is held back."""
        return module in self.declared or bool(self.unnamed)

    def spec_of(self, module: str) -> str:
        """The unread spec the references to ``module`` wait for."""
        return self.declared.get(module) or self.unnamed[0]


class ModuleNames(dict[str, ParsedModule]):
    """The modules by name, and each name looked up that none of them has: where only
    some specs are analysed (``toolc.specs``, the others' analysis taken over), such a
    name may be a module of the others, and the analysis is then not what a full one
    would say. (``missed`` records lookups, whoever makes them: no rule reads it.)"""

    def __init__(self) -> None:
        super().__init__()
        self.missed: set[str] = set()

    def get(self, name: str, default: Any = None) -> Any:
        found = super().get(name, default)
        if found is None:
            self.missed.add(name)
        return found


class ParsedProject:
    """The parsed modules of one analysis, where their handlers and schema files are, the
    clients names are checked for, and the lookups every step and check shares."""

    def __init__(self, modules: list[ParsedModule], root: Path | None = None,
                 python_path: tuple[Path, ...] = (), clients: ClientView | None = None,
                 unread: UnreadSpecs | None = None):
        self.modules = modules
        self.unread = unread  # specs that could not be loaded
        self.files = LocalFiles(root)  # the schema files `$ref`s name, read once
        self.python_path = python_path  # where handlers live ([tool.toolc] python-path)
        # The first module of each name is the one others see; a second is an error.
        self.by_name = ModuleNames()
        for parsed in modules:
            if parsed.name is not None:
                self.by_name.setdefault(parsed.name, parsed)
        self.registry = TypeRegistry(modules, self.by_name)
        self.clients = clients if clients is not None else ClientView()
        # A memo of type_description, a function of the specs alone.
        self._type_descriptions: dict[TypeDef, str | None] = {}

    def unknown_module(self, module: str) -> bool:
        """Whether a reference to ``module``, which no spec declares, is to be reported
        (TC307): not when a spec that could not be loaded may declare it."""
        return self.unread is None or not self.unread.holds(module)

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
