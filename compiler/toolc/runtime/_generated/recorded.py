"""Classes of a generated module: recorded when it is imported, made at first use.

A generated module writes each model and handler Protocol once, as an ordinary class
statement, which mypy reads as it is. At run time the module binds ``BaseModel``,
``ConfigDict``, ``Field`` and ``Protocol`` to the stand-ins of its ``ClassRecorder``
instead: a class statement then only runs its body and records it (a few microseconds)
as a ``Recipe``, and ``LazyModule`` makes the real class from the recipe when the name is
first used. Making a pydantic class costs about half a millisecond, and a module of
1,000 tools defines 2,000 of them.

``Field`` needs care, because pydantic meets it twice: in a class body (``x: int =
Field(...)``), which runs while the module is being imported, and inside annotations
(``Annotated[str, Field(max_length=8)]``), which pydantic evaluates when it makes the
class, or later if a forward reference could not be resolved then. So the stand-in
records a call (a ``Later``) only while its module is being imported; once
``LazyModule`` has taken the recipes (the last statement of the module) it is pydantic's
``Field`` itself.
"""

from __future__ import annotations

import types
from typing import Any, Protocol

MODEL = "model"
PROTOCOL = "protocol"


class Later:
    """A call made when the class that holds it is made (``Field(...)`` in a class body,
    a model validator): pydantic is not imported before then."""

    __slots__ = ("args", "func", "kwargs")

    def __init__(self, func: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        self.func = func
        self.args = args
        self.kwargs = kwargs

    def make(self) -> Any:
        return self.func(*self.args, **self.kwargs)


class Recipe:
    """What a class statement of a generated module said: made into a class on demand."""

    __slots__ = ("kind", "name", "namespace")

    def __init__(self, kind: str, name: str, namespace: dict[str, Any]) -> None:
        self.kind = kind
        self.name = name
        self.namespace = namespace

    def __repr__(self) -> str:
        return f"<recorded {self.kind} {self.namespace.get('__module__')}.{self.name}>"

    def make(self) -> type:
        namespace = {key: value.make() if type(value) is Later else value
                     for key, value in self.namespace.items()}
        if self.kind == PROTOCOL:
            return types.new_class(self.name, (Protocol,), exec_body=lambda ns: ns.update(namespace))
        # lazy: loads pydantic
        from pydantic import BaseModel

        # Made as if at the top of its module: its annotations are resolved against the
        # module's globals only (pydantic would otherwise also read the locals of the
        # frame that makes the class: this module's, which can shadow a type's name).
        metaclass: Any = type(BaseModel)
        made: type = metaclass(self.name, (BaseModel,), namespace,
                               __pydantic_reset_parent_namespace__=False)
        return made


class _Recording(type):
    """The metaclass of the stand-in bases: a subclass is not made, only recorded."""

    def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any],
                **kwargs: Any) -> Any:
        if not bases:  # the stand-in base itself
            return super().__new__(mcs, name, bases, namespace)
        kind: str = bases[0].kind  # type: ignore[attr-defined]
        return Recipe(kind, name, dict(namespace))


class _RecordedModel(metaclass=_Recording):
    kind = MODEL


class _RecordedProtocol(metaclass=_Recording):
    kind = PROTOCOL


def _field(*args: Any, **kwargs: Any) -> Any:
    # lazy: loads pydantic
    from pydantic import Field

    return Field(*args, **kwargs)


class ClassRecorder:
    """The stand-ins of one generated module (see the module's docstring)."""

    __slots__ = ("recording",)

    def __init__(self) -> None:
        self.recording = True

    def stand_ins(self, *names: str) -> tuple[Any, ...]:
        """The stand-ins for ``names`` (of BaseModel, ConfigDict, Field, Protocol)."""
        known = {"BaseModel": _RecordedModel, "ConfigDict": dict, "Field": self.field,
                 "Protocol": _RecordedProtocol}
        return tuple(known[name] for name in names)

    def field(self, *args: Any, **kwargs: Any) -> Any:
        """pydantic's ``Field``: recorded while the module is being imported."""
        if self.recording:
            return Later(_field, args, kwargs)
        return _field(*args, **kwargs)

    def take(self, namespace: dict[str, Any]) -> dict[str, Recipe]:
        """Stop recording; remove the recipes from ``namespace`` (so that its module's
        ``__getattr__`` is asked for them) and return them by name."""
        self.recording = False
        recipes = {name: value for name, value in namespace.items() if type(value) is Recipe}
        for name in recipes:
            del namespace[name]
        return recipes
