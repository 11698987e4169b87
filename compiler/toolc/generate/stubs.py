"""Handler stubs: the function each tool's generated Protocol describes, for ``toolc stubs``.

A stub is read off the generated module itself (its text, as ``toolc build`` would
write it), so that it has exactly the parameters mypy will check the handler against:
the Protocol's keyword-only parameters, their annotations as written there, and the
catch-all ``**extra`` of a tool whose parameters may carry undeclared ones. It returns
the tool's result model (its ``returns``), else ``str``: both are among what the
Protocol accepts, and an ``async def`` would be too. Its docstring is the tool's
description, and its body raises ``NotImplementedError`` naming the tool.

The names an annotation uses are imported from where the generated module has them
(its own models and aliases from the generated module; ``Any``, ``Literal`` from
``typing``; another spec module's types from its generated module), all under
``TYPE_CHECKING``: annotations are never evaluated at run time (the stub's module has
``from __future__ import annotations``, or the annotation is written as a string).
"""

from __future__ import annotations

import ast
import builtins
import sys
from dataclasses import dataclass, field

from ..ir import ModuleIR, ProjectIR, ToolIR
from . import generate_module
from .literals import WIDTH, docstring, py_str, py_str_block
from .names import module_names

_BUILTINS = frozenset(dir(builtins))


@dataclass(slots=True)
class Stub:
    """One handler to write: ``def {func}(ctx, *, params) -> returns``."""

    tool: str
    func: str
    doc: str
    message: str
    params: list[tuple[str, ast.expr]] = field(default_factory=list)
    extra: str | None = None           # the name of ``**extra: Any``, when there is one
    ctx: str = "ctx"                   # the context's name (``_ctx`` beside a ``ctx`` param)
    returns: ast.expr | None = None    # the result model; None: ``str``
    # name an annotation uses -> (module it is imported from, its name there)
    imports: dict[str, tuple[str, str]] = field(default_factory=dict)
    written: dict[str, str] = field(default_factory=dict)  # parameter -> its annotation


def handler_stubs(module: ModuleIR, project: ProjectIR, tools: list[str], package: str
                  ) -> list[Stub]:
    """The stubs of ``tools`` (names of the module's tools with a handler) whose generated
    module is imported as ``package.<module>``."""
    source = generate_module(module, project)
    tree = ast.parse(source)
    names = _module_names(tree, f"{package}.{module.name}", package)
    protocols = {node.name: node for node in ast.walk(tree)
                 if isinstance(node, ast.ClassDef) and node.name.endswith("Handler")}
    stem = module_names(module).tools
    stubs = []
    for name in tools:
        tool = module.tools[name]
        assert tool.handler is not None
        call = next(n for n in protocols[stem[name] + "Handler"].body
                    if isinstance(n, ast.FunctionDef) and n.name == "__call__")
        stubs.append(_stub(tool, call, names, source))
    return stubs


def _stub(tool: ToolIR, call: ast.FunctionDef, names: dict[str, tuple[str, str]],
          source: str) -> Stub:
    assert tool.handler is not None
    stub = Stub(tool.name, tool.handler.attr, docstring(tool.description, 4),
                f"tool {tool.name!r} of spec module {tool.module!r}: its handler "
                f"{tool.handler} is a stub of `toolc stubs`, still to be written")
    if len(call.args.posonlyargs) == 2:  # the Protocol's (self, ctx, /)
        stub.ctx = call.args.posonlyargs[1].arg
    for arg in call.args.kwonlyargs:
        assert arg.annotation is not None
        stub.params.append((arg.arg, arg.annotation))
        written = ast.get_source_segment(source, arg.annotation)
        if written is not None and "\n" not in written:
            stub.written[arg.arg] = written  # as the generator wrote it (its quotes)
    if call.args.kwarg is not None:
        stub.extra = call.args.kwarg.arg
    stub.returns = _result(call.returns)
    used = [a for _, a in stub.params] + ([stub.returns] if stub.returns is not None else [])
    for annotation in used:
        for name in _names_in(annotation):
            if name in names:
                stub.imports[name] = names[name]
    return stub


def _result(returns: ast.expr | None) -> ast.expr | None:
    """The result model of ``Result | _Structured | Awaitable[...]``; None for
    ``_AnyReturn | Awaitable[_AnyReturn]``."""
    first = returns
    while isinstance(first, ast.BinOp):
        first = first.left
    if isinstance(first, ast.Name) and first.id.startswith("_"):
        return None
    return first


def _names_in(annotation: ast.expr) -> list[str]:
    """The names an annotation needs bound (the root of ``mod.Type``)."""
    return [n.id for n in ast.walk(annotation) if isinstance(n, ast.Name)
            and n.id not in _BUILTINS]


def _module_names(tree: ast.Module, module: str, package: str) -> dict[str, tuple[str, str]]:
    """What each name of the generated module is: defined there, or imported."""
    found: dict[str, tuple[str, str]] = {}
    for node in _top_level(tree.body):
        if isinstance(node, ast.ClassDef):
            found[node.name] = (module, node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            found[node.target.id] = (module, node.target.id)
        elif isinstance(node, ast.ImportFrom):
            source = package if node.level else node.module or ""
            for alias in node.names:
                found[alias.asname or alias.name] = (source, alias.name)
    return found


def _top_level(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of a body, and of the ``if``/``else`` blocks in it (TYPE_CHECKING)."""
    out: list[ast.stmt] = []
    for node in body:
        out.append(node)
        if isinstance(node, ast.If):
            out += _top_level([*node.body, *node.orelse])
    return out


# -- the stubs as source ------------------------------------------------------------------

def render_stub(stub: Stub, renamed: dict[str, str], quote: bool) -> str:
    """The function's source; ``renamed``: names imported under another name (one the
    module takes already); ``quote``: annotations as strings (no future import)."""

    def annotation(node: ast.expr | None, default: str, written: str | None = None) -> str:
        if node is None:
            text = default
        elif written is not None and not renamed.keys() & set(_names_in(node)):
            text = written
        else:
            text = ast.unparse(_Rename(renamed).visit(
                ast.fix_missing_locations(ast.parse(ast.unparse(node), mode="eval"))).body)
        return py_str(text) if quote else text

    context = annotation(None, f"{renamed.get('RunContext', 'RunContext')}"
                               f"[{renamed.get('Any', 'Any')}]")
    head = [f"    {stub.ctx}: {context},"]
    if stub.extra is not None or stub.ctx != "ctx":  # positional only: a keyword `ctx`
        head.append("    /,")                          # is a parameter, or in **extra
    if stub.params:
        head.append("    *,")
    head += [f"    {name}: {annotation(node, '', stub.written.get(name))},"
             for name, node in stub.params]
    if stub.extra is not None:
        head.append(f"    **{stub.extra}: {annotation(None, renamed.get('Any', 'Any'))},")
    returns = annotation(stub.returns, "str")
    raising = "    raise NotImplementedError"
    message = py_str_block(stub.message, 4, WIDTH - len(raising) - 2)
    call = message if message.startswith("(") else f"({message})"  # its own parentheses
    signature = f"def {stub.func}({stub.ctx}: {context}) -> {returns}:"
    if len(head) > 1 or len(signature) > WIDTH:
        signature = f"def {stub.func}(\n" + "\n".join(head) + f"\n) -> {returns}:"
    return f"{signature}\n    {stub.doc}\n{raising}{call}\n"


class _Rename(ast.NodeTransformer):
    def __init__(self, renamed: dict[str, str]) -> None:
        self.renamed = renamed

    def visit_Name(self, node: ast.Name) -> ast.Name:
        return ast.Name(self.renamed.get(node.id, node.id), node.ctx)


# -- a module with the stubs ------------------------------------------------------------

_ALWAYS = {"Any": ("typing", "Any"), "RunContext": ("toolc.runtime", "RunContext")}


def with_stubs(existing: str | None, stubs: list[Stub], spec: str) -> str:
    """The text of a handler module with ``stubs`` appended (``existing``: its source, or
    None for a new module), the imports they need added after its own, none twice: a
    name the module takes for something else is imported under another."""
    tree = ast.parse(existing) if existing is not None else None
    bound = _bindings(tree)
    renamed: dict[str, str] = {}
    wanted = dict(_ALWAYS)
    for stub in stubs:
        wanted.update(stub.imports)
    imports: dict[str, list[str]] = {}
    for name, (source, original) in sorted(wanted.items()):
        if bound.get(name) != (source, original):
            imports.setdefault(source, []).append(_import(name, original, bound, renamed))
    early: list[str] = []
    checking = "TYPE_CHECKING"
    if imports and bound.get(checking) != ("typing", checking):
        early = [f"from typing import {_import(checking, checking, bound, renamed)}"]
        checking = renamed.get(checking, checking)
    block = [f"if {checking}:", *_import_lines(imports)] if imports else []
    quote = tree is not None and not _has_future_annotations(tree)
    functions = "\n\n".join(render_stub(stub, renamed, quote) for stub in stubs)
    if existing is None:
        head = [docstring(f"Handlers of {spec} (stubs written by `toolc stubs`).", 0), "",
                "from __future__ import annotations", "", *early, "", *block]
        return "\n".join(head).rstrip("\n") + "\n\n\n" + functions
    lines = existing.splitlines()
    added = [*early, *([""] if early and block else []), *block]
    at = _after_imports(tree)
    if added:
        lines[at:at] = ["", *added] if at else [*added, ""]
    return "\n".join(lines).rstrip("\n") + "\n\n\n" + functions


def _import_lines(imports: dict[str, list[str]]) -> list[str]:
    """``from m import a, b`` lines: the standard library's first, a blank line, the rest."""
    groups: list[list[str]] = [[], []]
    for module, names in sorted(imports.items()):
        standard = module.split(".")[0] in sys.stdlib_module_names
        groups[0 if standard else 1].append(f"    from {module} import {', '.join(sorted(names))}")
    return groups[0] + ([""] if all(groups) else []) + groups[1]


def _import(name: str, original: str, bound: dict[str, tuple[str, str] | None],
            renamed: dict[str, str]) -> str:
    """``original`` or ``original as alias``: under ``name``, or another free name."""
    alias = name
    while alias in bound or alias in renamed.values():
        alias = f"_{alias}"
    if alias != name:
        renamed[name] = alias
    return original if alias == original else f"{original} as {alias}"


def _bindings(tree: ast.Module | None) -> dict[str, tuple[str, str] | None]:
    """Each name the module binds at its top: (module, name) for an import, else None."""
    found: dict[str, tuple[str, str] | None] = {}
    for node in _top_level(tree.body) if tree is not None else []:
        if isinstance(node, ast.ImportFrom) and not node.level:
            for alias in node.names:
                found[alias.asname or alias.name] = (node.module or "", alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                found[alias.asname or alias.name.split(".")[0]] = None
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found[node.name] = None
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            found.update((n.id, None) for t in targets for n in ast.walk(t)
                         if isinstance(n, ast.Name))
        elif isinstance(node, ast.ImportFrom):
            found.update((a.asname or a.name, None) for a in node.names)
    return found


def _has_future_annotations(tree: ast.Module) -> bool:
    return any(isinstance(node, ast.ImportFrom) and node.module == "__future__"
               and any(a.name == "annotations" for a in node.names) for node in tree.body)


def _after_imports(tree: ast.Module | None) -> int:
    """The line after the module's last top-level import (after its docstring, if none)."""
    if tree is None or not tree.body:
        return 0
    last = 0
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            last = node.end_lineno or node.lineno
        elif last or not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
                          and isinstance(node.value.value, str)):
            break
        else:
            last = node.end_lineno or node.lineno  # the docstring
    return last


__all__ = ["Stub", "handler_stubs", "render_stub", "with_stubs"]
