"""What a generated module imports: exactly the names its code uses, in isort's order.

An unused import is a lint error in generated code as much as anywhere, and which names
are used depends on the spec (a ``Literal`` only with an enum, ``Protocol`` only with
tools), so the names are collected from the expression trees rather than assumed.
"""

from __future__ import annotations

from dataclasses import dataclass

from .layout import Call, Node, Sub, Union
from .models import AliasDef, Definition, ModelDef


@dataclass(slots=True)
class Uses:
    """What the module's code needs, as found while putting it together."""

    heads: dict[str, set[str]]   # per definition: subscripted names and called functions
    protocols: bool = False      # handler Protocols (and so Awaitable)
    check_aliases: tuple[str, ...] = ()   # _AnyReturn, _Predicate, ... definitions
    cast: bool = False           # ``cast`` outside the definitions


def heads(node: Node, found: set[str]) -> set[str]:
    """Every subscripted name and called function in ``node``."""
    todo = [node]
    while todo:
        current = todo.pop()
        if isinstance(current, Sub):
            found.add(current.head)
            todo += current.args
        elif isinstance(current, Union):
            todo += current.items
        elif isinstance(current, Call):
            found.add(current.func)
            todo += [value for _, value in current.args]
    return found


def heads_of(d: Definition) -> set[str]:
    if isinstance(d, AliasDef):
        return heads(d.value, set())
    found = {"Field"} if d.fields or d.extra is not None else set()
    for f in d.fields:
        heads(f.call, heads(f.annotation, found))
    if d.extra is not None:
        heads(d.extra, found)
    return found


def pydantic_names(defs: list[Definition], used: dict[str, set[str]]) -> list[str]:
    """What a block of definitions needs from pydantic."""
    found: set[str] = set()
    for d in defs:
        if isinstance(d, ModelDef):
            found |= {"BaseModel", "ConfigDict"}
        if "Field" in used[d.name]:
            found.add("Field")
    return sorted(found, key=import_order)


def typing_names(defs: list[Definition], uses: Uses) -> str:
    """The ``from typing import ...`` list (needed at run time too: pydantic reads the
    annotations of the models it builds against the module's globals). ``Protocol`` is
    not among them: at run time the module's ``Protocol`` is a recording stand-in."""
    found = {"TYPE_CHECKING", "Any"}
    every = set().union(*uses.heads.values())
    found |= {n for n in ("Annotated", "Literal") if n in every}
    if uses.check_aliases or any(isinstance(d, AliasDef) for d in defs):
        found.add("TypeAlias")
    if uses.cast or "cast" in every:
        found.add("cast")
    return ", ".join(sorted(found, key=import_order))


def checking_imports(defs: list[Definition], uses: Uses) -> list[str]:
    """The imports only mypy needs, indented for ``if TYPE_CHECKING:``, a blank line
    between isort's sections (the standard library, then pydantic)."""
    abc = []
    if uses.protocols or uses.check_aliases:
        abc.append("Awaitable")
    if any(alias.startswith(("_Predicate", "_Prepare")) for alias in uses.check_aliases):
        abc.append("Callable")
    pydantic = pydantic_names(defs, uses.heads)
    if uses.protocols:
        pydantic = sorted({*pydantic, "BaseModel"}, key=import_order)
    standard = [f"from collections.abc import {', '.join(abc)}"] if abc else []
    if uses.protocols:
        standard.append("from typing import Protocol")
    sections = [standard, [f"from pydantic import {', '.join(pydantic)}"] if pydantic else []]
    lines: list[str] = []
    for section in filter(None, sections):
        if lines:
            lines.append("")
        lines += [f"    {line}" for line in section]
    return lines


def stand_in_names(defs: list[Definition], uses: Uses) -> list[str]:
    """The names the module's class statements use, bound at run time to the stand-ins
    of ``rtg.ClassRecorder`` (which record a class instead of making it)."""
    models: list[Definition] = [d for d in defs if isinstance(d, ModelDef)]
    found = pydantic_names(models, uses.heads)
    if uses.protocols:
        found.append("Protocol")
    return found


def import_order(name: str) -> tuple[int, str]:
    """isort's order: constants, classes, then functions."""
    kind = 0 if name.isupper() else 1 if name[:1].isupper() else 2
    return kind, name
