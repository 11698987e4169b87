"""Support code used by generated modules (and by nothing else).

Every generated module needs the same few helpers: two pydantic validators that make
the strict models read JSON as JSON Schema does, and the PEP 562 machinery that builds
its models, Protocols and toolsets at first use. They live here, written once, rather
than being copied into every module of every user's ``generated/`` folder.

Importing this module is cheap: pydantic is imported only when a validator is made,
which happens inside a generated module's builders, at first use of a model.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from pydantic import BaseModel

    from toolc.runtime.abstract import AbstractToolset


def not_null() -> Any:
    """A validator refusing an explicit null for a property that may only be left out."""
    from pydantic import BeforeValidator

    return BeforeValidator(_refuse_null)


def _refuse_null(value: object) -> object:
    if value is None:
        raise ValueError("null is not allowed here; leave the property out instead")
    return value


def integral() -> Any:
    """A validator taking a whole float (5.0) as an int: JSON Schema's integers include
    it, and the strict models refuse floats for int otherwise."""
    from pydantic import BeforeValidator

    return BeforeValidator(_whole_to_int)


def _whole_to_int(value: object) -> object:
    return int(value) if isinstance(value, float) and value.is_integer() else value


Builder = Callable[[], Any]


class LazyModule:
    """A generated module's names, built at first use (PEP 562): pydantic classes cost
    about half a millisecond each to create, so a module of 1,000 tools builds none of
    them at import.

    ``namespace`` is the module's ``globals()``; what is built goes there with
    ``setdefault``, so a name set on the module before first use (the importer's pinned
    stand-ins) stays. ``groups`` maps each model, alias or Protocol name to the builder
    of its group (the names that refer to one another, built together, returning a dict
    name -> value); ``toolsets`` maps each toolset attribute to its builder. The module
    uses ``__getattr__ = lazy.getattr`` and ``__dir__ = lazy.dir``.
    """

    __slots__ = ("_building", "_groups", "_namespace", "_toolsets")

    def __init__(self, namespace: dict[str, Any], *, groups: Mapping[str, Builder],
                 toolsets: Mapping[str, Builder]) -> None:
        self._namespace = namespace
        self._groups = groups
        self._toolsets = toolsets
        self._building: set[str] = set()

    def getattr(self, name: str) -> Any:
        """Build a model, alias, Protocol or toolset at first use (the module's
        ``__getattr__``, called only for names not yet in its globals)."""
        namespace = self._namespace
        if name in self._toolsets:
            return namespace.setdefault(name, self._toolsets[name]())
        module_name = namespace["__name__"]
        if name in self._building:
            # Asked for again while being built: a cycle of named types across modules.
            # pydantic takes a NameError as a reference to resolve at first validation.
            raise NameError(f"{module_name}.{name} is still being built")
        if name not in self._groups:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        self._building.add(name)
        try:
            for key, value in self._groups[name]().items():
                if isinstance(value, type):
                    value.__qualname__ = key  # found as <module>.<key>: pickle, repr
                namespace.setdefault(key, value)
        finally:
            self._building.discard(name)
        return namespace[name]

    def dir(self) -> list[str]:
        """The module's ``__dir__``: its globals and every name it can build."""
        return sorted({*self._namespace, *self._groups, *self._toolsets})

    def need(self, *names: str) -> None:
        """Build ``names`` (from this module) before a group that refers to them."""
        for name in names:
            if name not in self._namespace:
                self.getattr(name)

    def get(self, name: str) -> Any:
        """The module's attribute ``name``: as set on it, or built now."""
        namespace = self._namespace
        return namespace[name] if name in namespace else self.getattr(name)

    def model(self, name: str) -> type[BaseModel]:
        """The model class ``name`` (a tool's params or returns model)."""
        return cast("type[BaseModel]", self.get(name))

    def toolset(self, name: str) -> AbstractToolset[Any]:
        """The toolset attribute ``name`` (a pinned stand-in if one was set)."""
        return cast("AbstractToolset[Any]", self.get(name))
