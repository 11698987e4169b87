"""Completion of the names a spec refers to, at the place being typed.

What is being typed is read from the buffer's text around the cursor (a spec being
written is often not valid YAML yet): the key whose value it is (``type: Po``,
``inner: ``, ``handler: app.to``), the list it is an item of (``tools: [read, w``, or
``- w`` under ``toolsets:``), or the mapping it is a key of (``names:`` of a
``renamed`` set). It offers:

- after ``type:``: the module's named types, other modules' as ``module.Type``, and the
  JSON types;
- after ``inner:``, ``export:``, in a ``combined`` set's ``toolsets`` or an
  ``mcp_manager``'s ``servers``: toolsets, other modules' as ``module.name``;
- in a ``function`` set's ``tools`` and a ``renamed`` set's ``names``: the module's tools;
- after ``handler:``, ``predicate:``, ``prepare:``, ``wrapper:``: ``package.module:name``
  for the functions and classes of the modules on the ``python-path`` (parsed, never
  imported).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..config import Config
from ..model.keywords import JSON_TYPES
from ..python_source import inside
from .index import CODE_KEYS, TOOL, TOOLSET, TYPE, Index

_VALUE = re.compile(r"""(?:^|[{,\s])([A-Za-z_$][\w$-]*)\s*:\s*["']?([^\s,{}\[\]"']*)$""")
_IN_LIST = re.compile(r"""([A-Za-z_][\w-]*)\s*:\s*\[[^\]]*?["']?([^\s,\["']*)$""")
_ITEM = re.compile(r"""^(\s*)-\s+["']?([^\s"']*)$""")
_KEY = re.compile(r"""^(\s*)([^\s:#"'-][^\s:#]*)?$""")
_OWNER = re.compile(r"""^(\s*)(?:-\s+)?([A-Za-z_$][\w$-]*)\s*:\s*(#.*)?$""")
_MAX_SOURCES = 2000  # python files read for handler names (bounded work)


@dataclass(frozen=True, slots=True)
class Typing:
    """What the cursor is in: the key whose value (or item) it is, and what is typed."""

    key: str
    prefix: str


def typing_at(lines: list[str], line: int, col: int) -> Typing | None:
    """What is being typed at (line, col), both from 1."""
    if not 0 < line <= len(lines):
        return None
    before = lines[line - 1][:col - 1]
    for pattern in (_IN_LIST, _VALUE):
        found = pattern.search(before)
        if found:
            return Typing(found.group(1), found.group(2))
    item = _ITEM.match(before)
    key = _KEY.match(before) if item is None else None
    found = item or key
    if found is None:
        return None
    owner = _owner(lines, line, len(found.group(1)), item=item is not None)
    if owner is None:
        return None
    return Typing(owner if item else f"{owner}:", found.group(2) or "")


def _owner(lines: list[str], line: int, indent: int, *, item: bool) -> str | None:
    """The key of the block a key (or, ``item``, a list item) at ``indent`` is in: the
    nearest line above that is less indented (an item's may be as indented)."""
    for number in range(line - 1, 0, -1):
        text = lines[number - 1]
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        depth = len(text) - len(text.lstrip())
        if depth < indent or (item and depth == indent and not text.lstrip().startswith("-")):
            found = _OWNER.match(text)
            return found.group(2) if found else None
    return None


def candidates(typing: Typing, index: Index, module: str | None,
               config: Config) -> list[tuple[str, str]]:
    """(label, what it is) for what may be typed there."""
    key = typing.key
    if key == "type":
        return [*((t, "JSON type") for t in JSON_TYPES), *_names(index, module, TYPE)]
    if key in ("inner", "export", "toolsets", "servers:"):
        found = _names(index, module, TOOLSET)
        return [n for n in found if "." not in n[0]] if key == "export" else found
    if key in ("tools", "names:") and module is not None:
        return [(name, "tool") for name in index.names(TOOL, module)]
    if key in CODE_KEYS:
        return [(ref, kind) for ref, kind in code_names(config)]
    return []


def _names(index: Index, module: str | None, kind: str) -> list[tuple[str, str]]:
    found = []
    for other in sorted(index.modules()):
        for name in index.names(kind, other):
            label = name if other == module else f"{other}.{name}"
            found.append((label, f"{kind} of module {other}"))
    return found


def code_names(config: Config) -> Iterator[tuple[str, str]]:
    """``package.module:name`` of every top-level function and class on the python-path."""
    seen = 0
    for root in inside(config.python_path, config.root.resolve()):
        for path in sorted(root.rglob("*.py")) if root.is_dir() else ():
            seen += 1
            if seen > _MAX_SOURCES:
                return
            module = _module_name(root, path)
            if module is None:
                continue
            for name, kind in _top_level(path):
                yield f"{module}:{name}", kind


def _module_name(root: Path, path: Path) -> str | None:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts and parts[-1] == "__init__":
        parts.pop()
    if not parts or not all(p.isidentifier() for p in parts):
        return None
    return ".".join(parts)


def _top_level(path: Path) -> list[tuple[str, str]]:
    try:
        tree = ast.parse(path.read_bytes())
    except (OSError, SyntaxError, ValueError):
        return []
    found = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                not node.name.startswith("_"):
            found.append((node.name, "function"))
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            found.append((node.name, "class"))
    return found


__all__ = ["Typing", "candidates", "code_names", "typing_at"]
