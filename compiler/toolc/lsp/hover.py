"""Hover: what the model reads of a tool, a parameter or a named type, and what it costs.

A hover shows the tool's description, the published JSON (the golden file's text, or
the fragment of it a parameter or type becomes) exactly as the publish stage writes it,
its estimated tokens (:mod:`toolc.budget`), and, where the golden file on disk differs,
each change the next build will show, with its rule (:mod:`toolc.diff`).

Those come from the module's IR. A module's IR and golden texts depend on its own spec
and the specs of the modules it imports, nothing else (so its module key says,
``toolc.reuse.modules``): the hover analyses that closure alone, as the editor
holds it (``compile_specs(paths=, overlay=)``), and keeps the last few results while
their texts are the same.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..budget import definition_tokens, estimate_tokens
from ..config import Config
from ..diagnostics import Span
from ..frontend import compile_specs
from ..ir import ModuleIR, ProjectIR, ToolIR
from ..loader import YList, YMap
from ..publish import SCHEMAS_DIR, golden_path, golden_text, publish_project
from .index import TOOL, TYPE, Index, Occurrence, Symbol

_KEEP = 16  # closures whose analysis is kept


@dataclass(slots=True)
class Closure:
    """One module's closure analysed: its IR (None: it has errors) and golden texts."""

    project: ProjectIR | None
    golden: dict[str, str] = field(default_factory=dict)


Key = tuple[tuple[str, str], ...]  # (spec as shown, text) of each spec of a closure


class Hovers:
    """The analyses of closures, by the texts they were made of (the newest kept)."""

    def __init__(self) -> None:
        self.kept: dict[Key, Closure] = {}

    def key(self, index: Index, module: str) -> Key:
        """What ``module``'s closure is made of now (read on the index's thread)."""
        return tuple((f, index.files[f].text) for f in sorted(_imported(index, module)))

    def closure(self, config: Config, key: Key, path_of: Callable[[str], Path]) -> Closure:
        """The closure of ``key`` analysed (in the worker thread: it runs the front end)."""
        found = self.kept.pop(key, None)
        if found is None:
            overlay = {path_of(f): text.encode("utf-8", "surrogatepass") for f, text in key}
            compiled = compile_specs(config, list(overlay), overlay=overlay)
            project = compiled.project
            found = Closure(project, publish_project(project) if project else {})
        self.kept[key] = found
        while len(self.kept) > _KEEP:
            del self.kept[next(iter(self.kept))]
        return found


def _imported(index: Index, module: str) -> set[str]:
    """The specs of ``module`` and of every module it names, directly or not."""
    modules = index.modules()
    seen, stack, files = {module}, [module], set()
    while stack:
        found = modules.get(stack.pop())
        if found is None:
            continue
        files.add(found.path)
        for item in found.occurrences:
            other = item.symbol.module
            if other not in seen:
                seen.add(other)
                stack.append(other)
    return files


def path_at(data: Any, line: int, col: int) -> tuple[Any, ...] | None:
    """The path of the key (or scalar value) under (line, col) in loaded YAML."""
    stack: list[tuple[Any, tuple[Any, ...]]] = [(data, ())]
    while stack:
        node, path = stack.pop()
        if isinstance(node, YMap):
            for key, value in node.items():
                for span in (node.key_spans[key], node.value_spans[key]):
                    if (_holds(span, line, col) and not isinstance(value, (YMap, YList))) \
                            or (span is node.key_spans[key] and _holds(span, line, col)):
                        return (*path, key)
                stack.append((value, (*path, key)))
        elif isinstance(node, YList):
            stack.extend((v, (*path, i)) for i, v in enumerate(node))
    return None


def _holds(span: Span, line: int, col: int) -> bool:
    return span.line == line and span.col <= col <= span.col + span.length


_NAMED = ("params", "properties", "$defs", "patternProperties")  # keys under them are names


def pointer_of(path: tuple[Any, ...]) -> str | None:
    """Where the schema written at ``path`` (a parameter, a property, ``returns`` or a
    part of one, under a tool) is published; a keyword under the cursor gives its
    schema. Named types are written out in place, so the spec's keys are the pointer's."""
    if len(path) < 4 or path[0] != "tools" or path[2] not in ("params", "returns"):
        return None
    rest = list(path[3:])
    while len(rest) > 1 and isinstance(rest[-1], str) and rest[-1] != "items" \
            and (len(rest) < 2 or rest[-2] not in _NAMED):
        rest.pop()  # a keyword of the schema: the schema itself
    if path[2] == "params":
        rest = ["properties", *rest]
        root = "/inputSchema"
    else:
        root = "/outputSchema"
    return root + "".join(f"/{_token(part)}" for part in rest)


def _token(part: Any) -> str:
    return str(part).replace("~", "~0").replace("/", "~1")


def resolve_pointer(value: Any, pointer: str) -> Any:
    for part in pointer.split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return None
    return value


@dataclass(slots=True)
class Shown:
    """What one hover says."""

    title: str
    parts: list[str] = field(default_factory=list)

    def markdown(self) -> str:
        return "\n\n".join([f"**{self.title}**", *self.parts])


def _json_block(value: Any) -> str:
    return "```json\n" + golden_text(value).rstrip("\n") + "\n```"


def exported(module: ModuleIR, tool: str) -> list[ToolIR]:
    """The tool as the module's export publishes it (under each published name)."""
    own = module.tools.get(tool)
    if own is None:
        return []
    return [t for t in module.exported_tools if t.span == own.span]


UNPUBLISHED = ("not published yet: this module, or one it imports, has errors (the "
               "diagnostics say which); the next build publishes nothing until they are fixed")


def tool_hover(closure: Closure, module: str, tool: str, pointer: str | None,
               changes: Mapping[str, list[tuple[str, str]]]) -> Shown | None:
    what = f"parameter `{pointer.rpartition('/')[2]}` of tool" if pointer else "tool"
    shown = Shown(f"{what} `{tool}` (module `{module}`)")
    project = closure.project
    if project is None or module not in project.modules:
        shown.parts.append(UNPUBLISHED)
        return shown
    ir = project.modules[module]
    published = exported(ir, tool)
    if not published:
        shown.parts.append("not published: the module's export does not show this tool")
        return shown
    for item in published:
        text = closure.golden.get(golden_path(module, item.name))
        if text is None:
            continue
        tool_json = json.loads(text)
        if pointer is None:
            cost = f"~{definition_tokens(item)} tokens upfront (name, description, inputSchema)"
            shown.parts += [f"published as `{item.name}`: {item.description}",
                            "```json\n" + text.rstrip("\n") + "\n```", cost]
        else:
            fragment = resolve_pointer(tool_json, pointer)
            if fragment is None:
                continue
            said = fragment.get("description") if isinstance(fragment, dict) else None
            shown.parts += [f"in `{item.name}` at `{pointer}`" + (f": {said}" if said else ""),
                            _json_block(fragment), f"~{estimate_tokens(fragment)} tokens"]
        shown.parts += [text for at, text in changes.get(f"{module}/{item.name}", [])
                        if pointer is None or not at or at.startswith(pointer)]
    return shown


def type_hover(closure: Closure, index: Index, symbol: Symbol) -> Shown | None:
    """A named type as the model reads it: at its first use in a published tool."""
    project = closure.project
    shown = Shown(f"type `{symbol.name}` (module `{symbol.module}`)")
    if project is None or symbol.module not in project.modules:
        shown.parts.append(UNPUBLISHED)
        return shown
    typed = project.modules[symbol.module].types.get(symbol.name)
    if typed is not None and isinstance(typed.schema.get("description"), str):
        shown.parts.append(typed.schema["description"])
    for use in index.occurrences(symbol):
        found = _published_use(closure, index, use)
        if found is not None:
            shown.parts += found
            return shown
    shown.parts.append("published by no exported tool of this module")
    return shown


def _published_use(closure: Closure, index: Index, use: Occurrence) -> list[str] | None:
    item = index.files.get(use.span.path)
    path = path_at(item.data, use.span.line, use.span.col) if item else None
    pointer = pointer_of(path[:-1]) if path and path[-1] == "type" else None
    if item is None or item.module is None or path is None or pointer is None \
            or closure.project is None or item.module not in closure.project.modules:
        return None
    for tool in exported(closure.project.modules[item.module], str(path[1])):
        text = closure.golden.get(golden_path(item.module, tool.name))
        fragment = resolve_pointer(json.loads(text), pointer) if text else None
        if fragment is not None:
            return [f"as `{tool.name}` publishes it, at `{pointer}`:", _json_block(fragment),
                    f"~{estimate_tokens(fragment)} tokens at this use"]
    return None


Changes = dict[str, list[tuple[str, str]]]  # tool key -> (pointer, what is said)


def changes_against_disk(config: Config, closure: Closure, module: str) -> Changes:
    """Per tool key (``module/name``), each change the next build will show against the
    golden files on disk: its pointer, and ``RULE (severity) at pointer: message``."""
    # lazy: the diff's classification, only for a hover
    from ..diff import DiffInputError, Policy, diff_tools, load_folder
    from ..diff.renames import declared, renames

    if closure.project is None:
        return {}
    folder = config.output / SCHEMAS_DIR / module
    old: dict[str, dict[str, Any]] = {}
    if folder.is_dir() and not folder.is_symlink() and not folder.parent.is_symlink():
        try:
            old = {f"{module}/{k}": v for k, v in load_folder(folder).items()}
        except DiffInputError as exc:
            return {f"{module}/{t.name}": [("", f"the golden files cannot be read: {exc}")]
                    for t in closure.project.modules[module].exported_tools}
    prefix = f"{SCHEMAS_DIR}/"
    new = {rel.removeprefix(prefix).removesuffix(".json"): json.loads(text)
           for rel, text in closure.golden.items() if rel.startswith(f"{prefix}{module}/")}
    found: Changes = {}
    for change in diff_tools(old, new, Policy.from_config(config.diff),
                             renames(declared(closure.project))):
        found.setdefault(change.tool, []).append((change.pointer, (
            f"next build: `{change.rule}` ({change.severity}) at `{change.pointer or '/'}`: "
            f"{change.message}")))
    return found


@dataclass(frozen=True, slots=True)
class Target:
    """What a hover is about: a named type, or a tool (and a schema in it)."""

    module: str
    symbol: Symbol | None = None        # a named type
    tool: str | None = None
    pointer: str | None = None


def target_at(index: Index, shown: str, line: int, col: int) -> Target | None:
    """What the place (line, col) of the spec ``shown`` is about."""
    item = index.files.get(shown)
    if item is None or item.module is None:
        return None
    found = item.at(line, col)
    if isinstance(found, Occurrence) and found.symbol.kind == TYPE:
        return Target(found.symbol.module, symbol=found.symbol)
    path = path_at(item.data, line, col)
    if isinstance(found, Occurrence) and found.symbol.kind == TOOL and found.definition \
            and (path is None or path[0] == "tools"):
        path = ("tools", found.symbol.name)
    if path is None or len(path) < 2 or path[0] != "tools":
        return None
    return Target(item.module, tool=str(path[1]), pointer=pointer_of(path))


def shown_for(target: Target, closure: Closure, index: Index,
              changes: Changes) -> Shown | None:
    if target.symbol is not None:
        return type_hover(closure, index, target.symbol)
    assert target.tool is not None
    return tool_hover(closure, target.module, target.tool, target.pointer, changes)


__all__ = [
    "Changes",
    "Closure",
    "Hovers",
    "Shown",
    "Target",
    "changes_against_disk",
    "path_at",
    "pointer_of",
    "shown_for",
    "target_at",
]
