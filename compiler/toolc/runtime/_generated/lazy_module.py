"""``LazyModule``: how a generated module makes its names at first use.

Every generated module needs the same PEP 562 machinery, which makes its models,
Protocols, type aliases and toolsets at first use (with ``toolc.runtime._generated.recorded``). It
lives here, written once, rather than being copied into every module of every user's
``generated/`` folder. Importing this module is cheap: it imports no pydantic.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias, cast

if TYPE_CHECKING:
    from pydantic import BaseModel

    from toolc.runtime._generated.recorded import ClassRecorder
    from toolc.runtime.toolsets.abstract import AbstractToolset


Builder = Callable[[], Any]

TOOLSET_PREFIX = "_toolset_"  # _toolset_<attr>: makes the toolset attribute <attr>


def _builders(namespace: Mapping[str, Any], prefix: str) -> dict[str, Builder]:
    """The module's builders named ``<prefix><name>``, by name."""
    start = len(prefix)
    return {key[start:]: value for key, value in namespace.items()
            if key.startswith(prefix) and callable(value)}


def _take_aliases(namespace: dict[str, Any]) -> dict[str, str]:
    """Remove the module's string type aliases (``X: TypeAlias = "..."``) from
    ``namespace`` (so that its ``__getattr__`` is asked for them); their texts by name."""
    # Only the annotated names are looked at: a module of 1,000 tools has thousands of
    # globals, and its only annotations at run time are its aliases.
    annotations = namespace.get("__annotations__") or {}
    texts = {name: namespace[name] for name, annotation in annotations.items()
             if annotation in ("TypeAlias", TypeAlias) and type(namespace.get(name)) is str}
    for name in texts:
        del namespace[name]
    return texts


def _fixed(toolset: Any, module_name: str) -> Any:
    """`toolset` with its members fixed (`FunctionToolset.fix`, `MCPManager.fix`): a
    generated module's tools and servers are its spec's, as the golden files publish
    them, so adding one in Python would serve what no build certified."""
    fix = getattr(toolset, "fix", None)
    if callable(fix):
        fix(f"generated module {module_name} built the set: its members are the spec's, "
            f"as the golden files publish them; add to the spec, or combine this set with "
            f"one of your own in a CombinedToolset")
    return toolset


class LazyModule:
    """A generated module's names, made at first use (PEP 562): pydantic classes cost
    about half a millisecond each to create, so a module of 1,000 tools makes none of
    them at import.

    ``namespace`` is the module's ``globals()``; what is made goes there with
    ``setdefault``, so a name set on the module before first use (the importer's pinned
    stand-ins) stays. The module's models and Protocols are class statements recorded by
    ``classes`` (``toolc.runtime._generated.recorded``). Its type aliases are written once, as
    strings (``Severity: TypeAlias = "Annotated[...]"``, which mypy reads as the type):
    at first use the text is evaluated, with pydantic's ``Field``, into the real alias.
    ``needs`` maps a model or alias to the names of this module it uses (made first),
    ``cycles`` lists the models that refer to one another (made together). The
    toolsets' builders are found in the namespace by name (``_toolset_<attr>`` makes the
    attribute ``attr``), so no table has to stay in step with them. The module uses
    ``__getattr__ = lazy.getattr`` and ``__dir__ = lazy.dir``.
    """

    __slots__ = ("_aliases", "_building", "_cycles", "_namespace", "_needs", "_recipes",
                 "_toolsets")

    def __init__(self, namespace: dict[str, Any], classes: ClassRecorder | None = None, *,
                 needs: Mapping[str, Sequence[str]] | None = None,
                 cycles: Sequence[Sequence[str]] = ()) -> None:
        self._namespace = namespace
        self._recipes = classes.take(namespace) if classes is not None else {}
        self._needs = needs or {}
        self._cycles = {name: tuple(cycle) for cycle in cycles for name in cycle}
        self._aliases = _take_aliases(namespace)
        self._toolsets = _builders(namespace, TOOLSET_PREFIX)
        self._building: set[str] = set()

    def getattr(self, name: str) -> Any:
        """Make a model, alias, Protocol or toolset at first use (the module's
        ``__getattr__``, called only for names not yet in its globals)."""
        namespace = self._namespace
        module_name = namespace["__name__"]
        if name in self._toolsets:
            return namespace.setdefault(name, _fixed(self._toolsets[name](), module_name))
        if name in self._building:
            # Asked for again while being made: a cycle of named types across modules.
            # pydantic takes a NameError as a reference to resolve at first validation.
            raise NameError(f"{module_name}.{name} is still being built")
        if name in self._aliases:
            namespace.setdefault(name, self._alias(name))
        elif name in self._recipes:
            members = self._cycles.get(name, (name,))
            made = self._make(members)
            if len(members) > 1:  # now that all are made, each one's references resolve
                for cls in made:
                    if not getattr(cls, "__pydantic_complete__", True):
                        cls.model_rebuild(_parent_namespace_depth=0)
        else:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        return namespace[name]

    def _alias(self, name: str) -> Any:
        """The type alias ``name``, its text evaluated after the names it uses."""
        # lazy: loads pydantic
        from pydantic import Field

        self._building.add(name)
        try:
            self.need(*(n for n in self._needs.get(name, ()) if n not in self._building))
            # The module's own code, kept as a string for mypy: evaluating it runs nothing
            # the module could not. Field is pydantic's (the module binds its name to a
            # stand-in only if a class statement uses it, and only mypy imports it).
            code = compile(self._aliases[name], f"<{self._namespace['__name__']}.{name}>",
                           "eval")
            return eval(code, self._namespace, {"Field": Field})
        finally:
            self._building.discard(name)

    def _make(self, members: Sequence[str]) -> list[Any]:
        """Make recorded classes, after the names they use. A class referring to one
        not made yet is left incomplete by pydantic, and rebuilt once its cycle is made
        (or, for a cycle across modules, by pydantic at its first validation)."""
        namespace = self._namespace
        self._building.update(members)
        try:
            # a name being made already is in the same cycle: its class is rebuilt
            self.need(*sorted({n for m in members for n in self._needs.get(m, ())}
                              - self._building))
            return [namespace.setdefault(m, self._recipes[m].make()) for m in members]
        finally:
            self._building.difference_update(members)

    def dir(self) -> list[str]:
        """The module's ``__dir__``: its globals and every name it can make."""
        return sorted({*self._namespace, *self._aliases, *self._recipes, *self._toolsets})

    def need(self, *names: str) -> None:
        """Make ``names`` (from this module) before what refers to them."""
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
