"""Python expressions as small trees, written on one line when they fit, else exploded.

Type annotations and ``Field(...)`` calls are built as trees rather than strings so that
one tree gives both renderings the generated module needs (the validating type with its
constraints, and the plain type a handler sees) and so that long ones (a ``Literal`` of
forty values, a description of a paragraph) are laid out one item per line the way
black writes them, instead of as one line of a thousand columns.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .literals import WIDTH, _flat, py_literal, py_str_block


class Node:
    """An expression: ``flat()`` on one line, ``block(indent)`` over several."""

    def flat(self) -> str:
        raise NotImplementedError

    def block(self, indent: int) -> str:
        return self.flat()


def render(node: Node, indent: int, room: int) -> str:
    """``node`` on one line if that takes at most ``room`` columns, else exploded."""
    text = node.flat()
    return text if len(text) <= room and "\n" not in text else node.block(indent)


@dataclass(frozen=True, slots=True)
class Raw(Node):
    """Code already written: a name (``int``, ``other.Address``) or a fixed expression."""

    text: str

    def flat(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Lit(Node):
    """A JSON value from the spec, written as a safe literal."""

    value: Any

    def flat(self) -> str:
        return _flat(self.value)

    def block(self, indent: int) -> str:
        if isinstance(self.value, str):
            return py_str_block(self.value, indent, 0)
        return py_literal(self.value, indent, 0)


@dataclass(frozen=True, slots=True)
class Sub(Node):
    """``head[arg, ...]``. ``constraint``: an ``Annotated`` that only validates, which the
    handler-facing rendering drops."""

    head: str
    args: tuple[Node, ...]
    constraint: bool = False

    def flat(self) -> str:
        return f"{self.head}[{', '.join(a.flat() for a in self.args)}]"

    def block(self, indent: int) -> str:
        pad = " " * (indent + 4)
        room = WIDTH - indent - 5
        items = "".join(f"{pad}{render(a, indent + 4, room)},\n" for a in self.args)
        return f"{self.head}[\n{items}{' ' * indent}]"


@dataclass(frozen=True, slots=True)
class Union(Node):
    """``a | b | ...``."""

    items: tuple[Node, ...]

    def flat(self) -> str:
        return " | ".join(i.flat() for i in self.items)

    def block(self, indent: int) -> str:
        return " | ".join(render(i, indent, WIDTH - indent) for i in self.items)


@dataclass(frozen=True, slots=True)
class Call(Node):
    """``func(positional..., key=value, ...)``; a ``None`` key is a positional argument."""

    func: str
    args: tuple[tuple[str | None, Node], ...]

    def flat(self) -> str:
        return f"{self.func}({', '.join(_arg(k, v.flat()) for k, v in self.args)})"

    def block(self, indent: int) -> str:
        pad = " " * (indent + 4)
        lines = []
        for key, value in self.args:
            prefix = "" if key is None else f"{key}="
            room = WIDTH - indent - 5 - len(prefix)
            lines.append(f"{pad}{prefix}{render(value, indent + 4, room)},\n")
        return f"{self.func}(\n{''.join(lines)}{' ' * indent})"


def _arg(key: str | None, text: str) -> str:
    return text if key is None else f"{key}={text}"


NONE = Raw("None")
ANY = Raw("Any")
INT = Raw("int")
FLOAT = Raw("float")


def union(*items: Node) -> Node:
    """A union as typing tools like it written: nested unions flattened, no repeats,
    ``Any`` absorbing everything, one ``Literal`` for all literal members, ``None``
    last. (``int | float`` stays as it is: a model converting ``float`` alone would
    turn 3 into 3.0 and fail on 10**400, which JSON numbers allow.)"""
    parts = [part for item in items
             for part in (item.items if isinstance(item, Union) else (item,))]
    if ANY in parts:
        return ANY
    out = distinct(parts)
    literals = [p for p in out if isinstance(p, Sub) and p.head == "Literal"]
    if len(literals) > 1:
        merged = literal(*(arg for lit in literals for arg in lit.args))
        folded = {id(lit) for lit in literals[1:]}  # by identity: one pass, not one per part
        out = [merged if p is literals[0] else p for p in out if id(p) not in folded]
    if NONE in out:
        out.remove(NONE)
        out.append(NONE)
    return out[0] if len(out) == 1 else Union(tuple(out))


def distinct(items: Iterable[Node]) -> list[Node]:
    """``items`` without repeats, in order, in linear time (a list's ``in`` made a large
    ``enum`` quadratic); a node holding a dict or list is compared by value."""
    out: list[Node] = []
    seen: set[Node] = set()
    for item in items:
        try:
            if item in seen:
                continue
            seen.add(item)
        except TypeError:  # unhashable: compared with what is kept, as before
            if item in out:
                continue
        out.append(item)
    return out


def literal(*values: Node) -> Node:
    """``Literal[...]`` of distinct values; a ``None`` among them becomes ``| None``."""
    kept = distinct(values)
    has_none = Lit(None) in kept
    kept = [v for v in kept if v != Lit(None)]
    if not kept:
        return NONE
    node = Sub("Literal", tuple(kept))
    return Union((node, NONE)) if has_none else node


def plain(node: Node) -> Node:
    """The type a handler sees: validation-only ``Annotated`` wrappers removed, and
    ``int | float`` written ``float``, as typing reads it (an int is a float there)."""
    if isinstance(node, Sub):
        if node.constraint:
            return plain(node.args[0])
        return Sub(node.head, tuple(plain(a) for a in node.args))
    if isinstance(node, Union):
        items = [plain(i) for i in node.items]
        if FLOAT in items and INT in items:
            items.remove(INT)
        return union(*items)
    return node


def field_call(kwargs: dict[str, Any], *, positional: Node | None = None) -> Call:
    """``Field(<default>, key=value, ...)`` with JSON values written as literals."""
    args: list[tuple[str | None, Node]] = [] if positional is None else [(None, positional)]
    args += [(k, v if isinstance(v, Node) else Lit(v)) for k, v in kwargs.items()]
    return Call("Field", tuple(args))


def annotated(base: Node, kwargs: dict[str, Any]) -> Node:
    """``Annotated[base, Field(**kwargs)]``, or ``base`` itself when there is nothing; a
    base that is already a validating ``Annotated`` takes the ``Field`` as one more item."""
    if not kwargs:
        return base
    if isinstance(base, Sub) and base.constraint:  # the Field next to the type it is for
        first, *rest = base.args
        return Sub("Annotated", (first, field_call(kwargs), *rest), constraint=True)
    return Sub("Annotated", (base, field_call(kwargs)), constraint=True)
