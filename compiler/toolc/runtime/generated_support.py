"""Support code used by generated modules (and by nothing else).

Every generated module needs the same few helpers: pydantic validators that make the
strict models read JSON as JSON Schema does, and the PEP 562 machinery that makes its
models, Protocols and toolsets at first use (with ``toolc.runtime.recorded``). They live
here, written once, rather than being copied into every module of every user's
``generated/`` folder.

Importing this module is cheap: pydantic is imported only when a validator is made,
which happens when a generated module makes a model, at its first use.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from pydantic import BaseModel

    from toolc.runtime.abstract import AbstractToolset
    from toolc.runtime.recorded import ClassRecorder


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


def json_equal() -> Any:
    """A validator comparing a Literal's numbers and booleans as JSON does: Python takes
    True for 1 and 0 for False (and so does pydantic's Literal), JSON does not."""
    from pydantic import WrapValidator

    return WrapValidator(_same_json_kind)


def _same_json_kind(value: object, handler: Any) -> object:
    result = handler(value)
    if isinstance(value, bool) is not isinstance(result, bool):
        raise ValueError("a boolean is not a number: not one of the allowed values")
    return result


def schema_check(schema: str) -> Any:
    """A validator checking a value against a piece of the published schema (given as
    JSON text), after the type's own validation: what no pydantic type says, such as
    not, uniqueItems, oneOf or a recursive type."""
    from pydantic import WrapValidator

    return WrapValidator(schema_checker(schema))


def schema_checker(schema: str) -> Callable[[Any, Any], Any]:
    """The check of ``schema_check`` (and of ``object_check``, on a whole model)."""
    found: list[Any] = []  # the validator and best_match, made at the first check

    def check(value: Any, handler: Any) -> Any:
        result = handler(value)  # the type's own errors first: pydantic says them better
        if not found:  # jsonschema costs time to import: only when a value comes
            import json
            from importlib import import_module

            jsonschema = import_module("jsonschema")
            found[:] = [jsonschema.Draft202012Validator(json.loads(schema)),
                        import_module("jsonschema.exceptions").best_match]
        validator, best_match = found
        error = best_match(validator.iter_errors(value))
        if error is not None:
            raise ValueError(error.message)
        return result

    return check


Builder = Callable[[], Any]


class LazyModule:
    """A generated module's names, made at first use (PEP 562): pydantic classes cost
    about half a millisecond each to create, so a module of 1,000 tools makes none of
    them at import.

    ``namespace`` is the module's ``globals()``; what is made goes there with
    ``setdefault``, so a name set on the module before first use (the importer's pinned
    stand-ins) stays. The module's models and Protocols are class statements recorded by
    ``classes`` (``toolc.runtime.recorded``); ``needs`` maps a model to the names of this
    module its annotations use (made first), ``cycles`` lists the models that refer to
    one another (made together). ``groups`` maps each type alias to its builder, a
    function returning a dict name -> value; ``toolsets`` maps each toolset attribute
    to its builder. The module uses ``__getattr__ = lazy.getattr`` and
    ``__dir__ = lazy.dir``.
    """

    __slots__ = ("_building", "_cycles", "_groups", "_namespace", "_needs", "_recipes",
                 "_toolsets")

    def __init__(self, namespace: dict[str, Any], classes: ClassRecorder | None = None, *,
                 needs: Mapping[str, Sequence[str]] | None = None,
                 cycles: Sequence[Sequence[str]] = (),
                 groups: Mapping[str, Builder], toolsets: Mapping[str, Builder]) -> None:
        self._namespace = namespace
        self._recipes = classes.take(namespace) if classes is not None else {}
        self._needs = needs or {}
        self._cycles = {name: tuple(cycle) for cycle in cycles for name in cycle}
        self._groups = groups
        self._toolsets = toolsets
        self._building: set[str] = set()

    def getattr(self, name: str) -> Any:
        """Make a model, alias, Protocol or toolset at first use (the module's
        ``__getattr__``, called only for names not yet in its globals)."""
        namespace = self._namespace
        if name in self._toolsets:
            return namespace.setdefault(name, self._toolsets[name]())
        module_name = namespace["__name__"]
        if name in self._building:
            # Asked for again while being made: a cycle of named types across modules.
            # pydantic takes a NameError as a reference to resolve at first validation.
            raise NameError(f"{module_name}.{name} is still being built")
        if name in self._groups:
            self._building.add(name)
            try:
                for key, value in self._groups[name]().items():
                    if isinstance(value, type):
                        value.__qualname__ = key  # found as <module>.<key>: pickle, repr
                    namespace.setdefault(key, value)
            finally:
                self._building.discard(name)
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
        return sorted({*self._namespace, *self._groups, *self._recipes, *self._toolsets})

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
