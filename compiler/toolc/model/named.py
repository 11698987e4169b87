"""Named types: where each is defined and how a `type:` reference finds it.

A reference is a name of the referring schema's own module, or ``othermodule.Name``.
Only the first module of each name is visible to other modules (a second one with the
same name is an error of its own), but every module always sees its own types.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..diagnostics import Span
from .keywords import JSON_TYPES
from .parse import ParsedModule


@dataclass(eq=False, slots=True)
class TypeDef:
    """One entry of a module's ``types``."""

    module: ParsedModule
    name: str
    node: Any        # the schema as loaded
    span: Span       # the type's key

    @property
    def qualname(self) -> str:
        return f"{self.module.name}.{self.name}"

    def __repr__(self) -> str:
        return f"TypeDef({self.qualname})"


class TypeRegistry:
    """Every named type of the project, by module."""

    def __init__(self, modules: list[ParsedModule], visible: dict[str, ParsedModule]):
        self.visible = visible
        self._local: dict[int, dict[str, TypeDef]] = {}
        self.all: list[TypeDef] = []
        for parsed in modules:
            section = parsed.section("types")
            local = {name: TypeDef(parsed, name, node, section.key_spans[name])
                     for name, node in parsed.types.items() if name in section.key_spans}
            self._local[id(parsed)] = local
            self.all.extend(local.values())

    def local(self, parsed: ParsedModule) -> dict[str, TypeDef]:
        return self._local.get(id(parsed), {})

    def lookup(self, parsed: ParsedModule, ref: str) -> TypeDef | None:
        """The type ``ref`` names from a schema of ``parsed``; ``None`` when there is none."""
        if ref in JSON_TYPES:
            return None
        local = self.local(parsed)
        if ref in local:
            return local[ref]
        module, dot, name = ref.partition(".")
        if not dot:
            return None
        other = parsed if module == parsed.name else self.visible.get(module)
        return self.local(other).get(name) if other is not None else None
