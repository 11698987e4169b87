"""Support code used by generated modules (and by nothing else).

Every generated module needs the same few helpers: two pydantic validators that make
the strict models read JSON as JSON Schema does, and the PEP 562 machinery that builds
its models, Protocols and toolsets at first use. They live here, written once, rather
than being copied into every module of every user's ``generated/`` folder.

Importing this module is cheap: pydantic is imported only when a validator is made,
which happens inside a generated module's builders, at first use of a model.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
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


# One group of a generated module's definitions (the names that refer to one another):
# (its names, the first and last line of each in the module's file, the pydantic names
# they use, the module's names to build first, the models to rebuild once all exist),
# names separated by spaces.
SourceGroup = tuple[str, tuple[int, ...], str, str, str]


def source_groups(namespace: dict[str, Any], groups: Iterable[SourceGroup]
                  ) -> dict[str, Builder]:
    """The builders of a generated module's definitions, for :class:`LazyModule`.

    Each definition is written once, in the module's ``if TYPE_CHECKING:`` block, where
    mypy reads it; at first use its lines are taken from the module's source and run as
    the body of a function (the definitions are indented as a function body is), as if
    that function had been written in the module: same globals, line numbers and file
    name in tracebacks, pydantic names as its locals."""
    builders: dict[str, Builder] = {}
    for group in groups:
        builder = functools.partial(_build_group, namespace, group)
        for name in group[0].split():
            builders[name] = builder
    return builders


def _build_group(namespace: dict[str, Any], group: SourceGroup) -> dict[str, Any]:
    names, spans, imports, needs, rebuild = group
    if needs:
        cast("LazyModule", namespace["_lazy"]).need(*needs.split())
    members = names.split()
    source = _group_source(namespace, members, spans, imports.split(), rebuild.split())
    scratch: dict[str, Any] = {}
    import __future__

    code = compile(source, namespace.get("__file__") or "<generated>", "exec",
                   flags=__future__.annotations.compiler_flag, dont_inherit=True)
    # defines the function only, with the module as its globals: the code is the
    # module's own, as generated
    exec(code, namespace, scratch)  # noqa: S102
    arguments = ()
    if imports:
        import pydantic

        arguments = tuple(getattr(pydantic, n) for n in imports.split())
    return cast("dict[str, Any]", scratch["_build"](*arguments))


def _group_source(namespace: dict[str, Any], members: list[str], spans: tuple[int, ...],
                  imports: list[str], rebuild: list[str]) -> str:
    """The builder function's text, each definition at its own line number."""
    import linecache

    module = namespace.get("__name__", "?")
    lines = linecache.getlines(namespace.get("__file__") or "", namespace)
    first = spans[0]
    parts = ["\n" * (first - 2), f"def _build({', '.join(imports)}):\n"]
    at = first
    for name, start, end in zip(members, spans[::2], spans[1::2], strict=True):
        block = lines[start - 1:end]
        head = next((line for line in block if not line.startswith("    #")), "")
        if not (head.startswith((f"    class {name}(", f"    {name}:", f"    {name} ="))):
            raise RuntimeError(f"the source of {module} does not hold {name} where it did "
                               "when it was generated: was it changed since it was imported?")
        parts += ["\n" * (start - at), *block]
        at = end + 1
    parts += [f"    {name}.model_rebuild()\n" for name in rebuild]
    parts.append("    return {" + ", ".join(f"{n!r}: {n}" for n in members) + "}\n")
    return "".join(parts)
