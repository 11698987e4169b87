"""Put one generated module together: gather its parts, render them, fill the template."""

from __future__ import annotations

import keyword
import re
import textwrap
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from .. import graphs
from ..ir import (
    FilteredToolsetIR,
    FunctionToolsetIR,
    ModuleIR,
    PreparedToolsetIR,
    Ref,
    ToolIR,
    ToolsetIR,
    WrapperToolsetIR,
)
from ..schema_typing import is_model_schema
from .imports import Uses, checking_imports, heads_of, stand_in_names, typing_names
from .layout import Call, Lit, Node, Raw, Sub, Union, render
from .literals import WIDTH, code_str, comment_text, docstring, py_literal, py_str
from .models import AliasDef, Definition, ModelDef, ModelSet
from .names import ModuleNames, Scope, handler_names, snake
from .toolsets import ToolsetWriter, declared_type, tool_args

if TYPE_CHECKING:
    import jinja2

Project = dict[str, tuple[ModuleIR, ModuleNames]]

# The types user code must have; mypy checks each reference against one of them.
_PREDICATE = "_Predicate: TypeAlias = Callable[[rt.RunContext[Any]], bool | Awaitable[bool]]"
_PREPARE = ("_Prepare: TypeAlias = Callable[\n        [rt.RunContext[Any], "
            "list[rt.ToolDefinition]],\n        list[rt.ToolDefinition] | "
            "Awaitable[list[rt.ToolDefinition]],\n    ]")
_WRAPPER = "type[rt.WrapperToolset]"
_ANY_RETURN = ("_AnyReturn: TypeAlias = (\n        str | BaseModel | dict[str, Any] | "
               "rt.ToolResult | rt.ContentBlock | list[rt.ContentBlock]\n    )")
_STRUCTURED = "_Structured: TypeAlias = dict[str, Any] | rt.ToolResult"
# What a module's (class statements, type aliases) are at run time, said at its top.
_RECORDED = {
    (True, False): "a class statement below only records its body: the class is made",
    (True, True): "a class statement below only records its body and a type alias is only "
                  "its text, which mypy reads as the type: each is made",
    (False, True): "a type alias below is only its text, which mypy reads as the type: it "
                   "is made",
}
# A type alias name ruff's PYI042 takes for snake case (it wants CamelCase).
_SNAKE_CASE = re.compile(r"_?[a-z0-9]")


class ModuleWriter:
    def __init__(self, module: ModuleIR, names: ModuleNames, project: Project,
                 env: jinja2.Environment):
        self.module = module
        self.names = names
        self.project = {**project, module.name: (module, names)}
        self.macros: Any = env.get_template("macros.jinja").module
        self.template = env.get_template("module.py.jinja")
        self.models = ModelSet(module, names, self.project)
        self.protocols: list[tuple[str, str]] = []        # (name, rendered class)
        self.return_aliases: set[str] = set()             # _AnyReturn, _Structured used
        self.user_modules: dict[str, str] = {}            # user module -> alias
        self.user_scope = Scope()
        # tool -> {field: the handler's keyword} where the two differ (``rt.Tool``)
        self.arg_names: dict[str, dict[str, str]] = {}

    def _macro(self, name: str, context: Any) -> str:
        """One macro of macros.jinja, without the blank lines around it."""
        if isinstance(context, dict):
            context = view(context)
        return str(getattr(self.macros, name)(context)).strip("\n")

    # -- parts --------------------------------------------------------------------------

    def _tool_models(self) -> None:
        self.models.define_named_types()
        for name, tool in self.module.tools.items():
            if tool.external:
                continue
            stem = self.names.tools[name]
            self.models.define_model(stem + "Params", tool.input_schema, tool.params_spec,
                                     exact=True)
            params = self.models.defs[-1]  # a model is added after the models it contains
            result = self._returns(tool, stem + "Result")
            self.protocols.append((stem + "Handler", self._protocol(tool, stem, params,
                                                                    result)))

    def _returns(self, tool: ToolIR, name: str) -> str | None:
        """The model that types a handler's structured result: a named type used as is,
        or a new one (results themselves are validated against the output schema)."""
        spec, schema = tool.returns_spec, tool.output_schema
        if schema is None:
            return None
        if isinstance(spec, dict) and set(spec) <= {"type", "description"} \
                and isinstance(spec.get("type"), str):
            module_name, _, type_name = str(spec["type"]).rpartition(".")
            other, other_names = self.project[module_name or self.module.name]
            named = other.types.get(type_name)
            if named is not None and is_model_schema(named.schema):
                if other is self.module:
                    return other_names.types[type_name]
                return f"{self.names.modules[module_name]}.{other_names.types[type_name]}"
        if not is_model_schema(schema):
            return None
        self.models.define_model(name, schema, spec, exact=True)
        return name

    def _protocol(self, tool: ToolIR, stem: str, model: Definition,
                  result: str | None) -> str:
        assert isinstance(model, ModelDef)
        called = handler_names([f.raw for f in model.fields])
        if any(called.args[f.raw] != f.name for f in model.fields):
            self.arg_names[tool.name] = {f.name: called.args[f.raw] for f in model.fields
                                         if called.args[f.raw] != f.name}
        lines = []
        for f in model.fields:
            prefix = f"{called.args[f.raw]}: "
            lines.append(prefix + render(f.plain, 8, WIDTH - 9 - len(prefix)))
        if result is None:
            answer: Node = Raw("_AnyReturn")
            self.return_aliases.add(_ANY_RETURN)
        else:
            answer = Union((Raw(result), Raw("_Structured")))
            self.return_aliases.add(_STRUCTURED)
        returns = Union((answer, Sub("Awaitable", (answer,))))
        return self._macro("protocol", {
            "name": stem + "Handler",
            "doc": docstring(tool.description, 4),
            "self": called.self_name,
            "ctx": called.ctx_name,
            "params": lines,
            # undeclared parameters arrive as keyword arguments too (the runtime passes
            # them on), under a name no declared parameter has
            "extra": Scope({called.self_name, called.ctx_name, *called.args.values()})
            .claim("extra")
            if model.config.get("extra") == "allow" else "",
            "returns": render(returns, 4, WIDTH - 12),
        })

    def _user(self, ref: Ref) -> str:
        """The expression naming a user reference under TYPE_CHECKING."""
        alias = self.user_modules.get(ref.module)
        if alias is None:
            alias = self.user_scope.claim("_user_" + snake(ref.module, lead="m"))
            self.user_modules[ref.module] = alias
        return f"{alias}.{ref.attr}"

    def _checks(self) -> tuple[list[str], list[str]]:
        """Assignments that make mypy check user code against the types it must have,
        and the aliases they use. A reference that is not dotted identifiers (the front
        end refuses those) is left to the runtime rather than pasted into code."""
        lines, aliases = [], []
        for name, tool in self.module.tools.items():
            if tool.handler is not None and not tool.external and _writable(tool.handler):
                stem = self.names.tools[name]
                lines.append(_check(f"_check_{stem}: {stem}Handler", self._user(tool.handler)))
        for name, ts in self.module.toolsets.items():
            attr = self.names.toolsets[name]
            for ref, kind, typ, alias in _user_code(ts):
                if _writable(ref):
                    lines.append(_check(f"_check_{attr}_{kind}: {typ}", self._user(ref)))
                    if alias and alias not in aliases:
                        aliases.append(alias)
        return lines, aliases

    # -- rendering ----------------------------------------------------------------------

    def _definition_text(self, d: Definition) -> str:
        if isinstance(d, AliasDef):
            # Written once, as a string that mypy reads as the type: at run time the
            # module binds only the text, which LazyModule evaluates at first use, once
            # the models it names are made.
            value = render(d.value, 0, WIDTH - len(d.name) - 20)
            return self._macro("alias", {"name": d.name, "value": code_str(value),
                                          "snake": _SNAKE_CASE.match(d.name) is not None,
                                          "notes": [comment_text(n) for n in d.notes]})
        config = ", ".join(f"{k}={py_str(v) if isinstance(v, str) else repr(v)}"
                           for k, v in d.config.items())
        fields = []
        for f in d.fields:
            head = f"{f.name}: " + render(f.annotation, 4, WIDTH - 8 - len(f.name))
            last = head.rsplit("\n", 1)[-1]
            call = render(f.call, 4, WIDTH - 7 - len(last))
            fields.append(view({"line": f"{head} = {call}",
                                "notes": [comment_text(n) for n in f.notes]}))
        extra = render(d.extra, 4, WIDTH - 40) if d.extra is not None else ""
        return self._macro("model_class", {
            "name": d.name, "doc": docstring(d.doc, 4) if d.doc else "",
            "notes": [comment_text(n) for n in d.notes], "config": config,
            "extra": extra and f"dict[str, {extra}]", "fields": fields})

    def _lazy_tables(self) -> tuple[str, str]:
        """What ``rtg.LazyModule`` needs to make the module's models and aliases at first
        use: each one's local needs (made first) and the cycles among the models."""
        needs: dict[str, list[str]] = {}
        cycles: list[list[str]] = []
        for group in strongly_connected(self.models.defs):
            members = {d.name for d in group}
            # An alias in a cycle refers back to itself, and such an alias is written
            # as a checked Any that refers to nothing (ModelSet.recursive_aliases).
            assert len(group) == 1 or all(isinstance(d, ModelDef) for d in group), \
                f"an alias in a cycle: {sorted(members)}"
            needs.update((d.name, sorted(d.deps - members)) for d in group
                         if d.deps - members)
            if len(group) > 1:
                cycles.append([d.name for d in group])
        return (py_literal(needs, 8, WIDTH - 15) if needs else "",
                py_literal(cycles, 8, WIDTH - 16) if cycles else "")

    def _tool_factories(self) -> tuple[dict[str, str], list[str]]:
        """``_tool_<Stem>()`` for each tool a function toolset lists: name -> function."""
        funcs: dict[str, str] = {}
        blocks = []
        listed = {t for ts in self.module.toolsets.values()
                  if isinstance(ts, FunctionToolsetIR) for t in ts.tools}
        for name, tool in self.module.tools.items():
            if name not in listed or tool.external or tool.handler is None:
                continue
            stem = self.names.tools[name]
            funcs[name] = f"_tool_{stem}"
            args = tool_args(tool, stem + "Params", self.arg_names.get(name))
            blocks.append(self._macro("tool", {"func": funcs[name], "args": args}))
        return funcs, blocks

    def _toolset_builders(self, writer: ToolsetWriter
                          ) -> tuple[list[str], list[SimpleNamespace]]:
        """One builder per toolset (``_toolset_<attr>``, found by that name at run time)
        and its static declaration; ``toolset`` is the export (the same object)."""
        blocks, declarations = [], []
        for name, ts in self.module.toolsets.items():
            code = writer.code(ts)
            attr = self.names.toolsets[name]
            blocks.append(self._macro("toolset", code))
            declarations.append(view({"attr": attr, "type": code.type}))
        export_attr = self.names.toolsets[self.module.export]
        if export_attr != "toolset":
            declarations.append(view({"attr": "toolset", "type": declared_type(
                self.module.toolsets[self.module.export].kind)}))
            blocks.append("# The module's export: the same object as " + export_attr + ".\n"
                          + self._macro("toolset", view({
                              "func": "_toolset_toolset", "type": "rt.AbstractToolset[Any]",
                              "expr": f"_lazy.toolset({py_str(export_attr)})"})))
        return blocks, declarations

    def text(self) -> str:
        self._tool_models()
        checks, check_aliases = self._checks()
        texts = {d.name: self._definition_text(d) for d in self.models.defs}
        models = [texts[d.name] for d in self.models.defs if isinstance(d, ModelDef)]
        aliases = [texts[d.name] for d in self.models.defs if isinstance(d, AliasDef)]
        protocols = [text for _, text in self.protocols]
        tool_funcs, tools = self._tool_factories()
        writer = ToolsetWriter(self.module, self.names, tool_funcs, self.project)
        toolsets, declarations = self._toolset_builders(writer)
        check_aliases[:0] = [a for a in (_ANY_RETURN, _STRUCTURED) if a in self.return_aliases]
        typed_aliases = ["    " + alias for alias in check_aliases]
        uses = Uses({d.name: heads_of(d) for d in self.models.defs}, bool(self.protocols),
                    tuple(check_aliases), writer.uses_cast)
        needs, cycles = self._lazy_tables()
        stand_ins = stand_in_names(self.models.defs, uses)
        others = [view({"name": m, "alias": a, "literal": py_str(m),
                        "import": m if m == a else f"{m} as {a}"})
                  for m, a in sorted(self.names.modules.items())]
        public = [d.name for d in self.models.defs] + [n for n, _ in self.protocols]
        public += [self.names.toolsets[n] for n in self.module.toolsets] + ["toolset"]
        return self.template.render(
            spec_path=comment_text(self.module.path.replace("\\", "/")),
            docstring=docstring(self.module.description, 0)
            if self.module.description else "",
            version=py_str(self.module.version) if self.module.version is not None else "",
            typing_imports=typing_names(self.models.defs, uses),
            checking_imports=checking_imports(self.models.defs, uses), other_modules=others,
            recorded=_recorded_note(bool(stand_ins), bool(aliases)),
            stand_ins=_stand_ins(stand_ins),
            user_imports=[f"import {m} as {a}" for m, a in sorted(self.user_modules.items())],
            typed_aliases=typed_aliases, models=models, aliases=aliases,
            protocols=protocols, checks=checks, declarations=declarations, tools=tools,
            toolsets=toolsets, needs=needs, cycles=cycles,
            all_names=[py_str(n) for n in sorted(set(public))],
        )


def view(values: dict[str, Any]) -> SimpleNamespace:
    """Template values as attributes: jinja reads ``x.name`` from an object directly, but
    from a dict only after a failed attribute lookup, which costs an exception each time."""
    return SimpleNamespace(**values)


def _user_code(ts: ToolsetIR) -> tuple[tuple[Ref, str, str, str], ...]:
    """The user code a toolset calls: (reference, its spec key, the type it must have,
    the alias that type needs, if any)."""
    match ts:
        case FilteredToolsetIR():
            return ((ts.predicate, "predicate", "_Predicate", _PREDICATE),)
        case PreparedToolsetIR():
            return ((ts.prepare, "prepare", "_Prepare", _PREPARE),)
        case WrapperToolsetIR():
            return ((ts.wrapper, "wrapper", _WRAPPER, ""),)
        case _:
            return ()


def _writable(ref: Ref) -> bool:
    """``package.module:attr.path`` made of identifiers only: safe to write as code."""
    parts = [*ref.module.split("."), *ref.attr.split(".")]
    return all(p.isidentifier() and not keyword.iskeyword(p) for p in parts)


def _check(target: str, value: str) -> str:
    """One check line, in the body of ``_check_user_code`` (indented by 8)."""
    flat = f"{target} = {value}"
    return flat if len(flat) <= WIDTH else f"{target} = (\n            {value}\n        )"


def _recorded_note(classes: bool, aliases: bool) -> list[str]:
    """The module's first comment lines, when it has something made at first use: one
    sentence saying what its class statements and type aliases are at run time."""
    what = _RECORDED.get((classes, aliases))
    if what is None:
        return []
    return textwrap.wrap(f"At run time {what} at first use (toolc.runtime._generated), so "
                         "importing this module makes no class.", 88)


def _stand_ins(names: list[str]) -> str:
    """The assignment binding the class statements' names to recording stand-ins."""
    if not names:
        return ""
    target = ", ".join(names) + " = "
    call = Call("_classes.stand_ins", tuple((None, Lit(n)) for n in names))
    return target + render(call, 4, WIDTH - 4 - len(target))


def strongly_connected(defs: list[Definition]) -> list[list[Definition]]:
    """Tarjan's components of the definitions' local references, dependencies first;
    within a component, definitions keep the order they were made in."""
    by_name = {d.name: d for d in defs}
    order = {d.name: i for i, d in enumerate(defs)}

    def local_deps(name: str) -> list[str]:
        return sorted(by_name[name].deps & by_name.keys(), key=order.__getitem__)

    return [sorted((by_name[m] for m in members), key=lambda d: order[d.name])
            for members in graphs.strongly_connected(list(by_name), local_deps)]
