"""Python identifiers for everything a spec names, without collisions.

Spec names are free text as far as Python is concerned (``my.tool-x``, ``class``,
``3d``, ``größe``); the generated module needs identifiers that are ASCII, not keywords,
not private (a leading underscore makes a pydantic field private), and that shadow
nothing the module itself uses. A name that is already fine is kept as written;
otherwise it is mangled, and a clash is settled with a numeric suffix in the order the
spec is written, so the result is deterministic. The wire never sees these names: a
field whose identifier differs from its property keeps the property name as its alias.

The names of one module are allocated in a fixed order (imported modules, ``toolset``,
named types, toolsets, tools, then nested models as they are met), so that another
module can compute the public names it refers to (``other.Address``, ``other.app``)
without generating that module.
"""

from __future__ import annotations

import keyword
import re
import unicodedata
from dataclasses import dataclass, field

from ..ir import ModuleIR, PythonNames

_NOT_IDENT = re.compile(r"[^0-9A-Za-z_]")
_WORDS = re.compile(r"[0-9A-Za-z]+")

# What the generated module binds or uses in annotations at module level.
MODULE_RESERVED = frozenset({
    "annotations", "TYPE_CHECKING", "Annotated", "Any", "Literal", "Protocol", "TypeAlias",
    "cast", "rt", "rtg", "sys", "import_module", "Awaitable", "Callable", "BaseModel",
    "BeforeValidator", "ConfigDict", "Field", "toolset",
    "str", "int", "float", "bool", "list", "dict", "object", "tuple", "type", "bytes",
    "set", "frozenset", "None", "True", "False",
    # builtins the module's own code calls: a toolset of that name must not shadow them
    "globals", "sorted", "isinstance", "getattr", "NameError", "AttributeError", "ValueError",
})

# Public attributes of pydantic's BaseModel (``hasattr``, so its metaclass's ``mro`` and
# ``register`` too): a field of that name shadows them, which pydantic warns about.
# A fixed snapshot, so the generated code does not depend on the installed pydantic.
BASEMODEL_ATTRS = frozenset({
    "construct", "copy", "dict", "from_orm", "json", "model_computed_fields", "model_config",
    "model_construct", "model_copy", "model_dump", "model_dump_json", "model_extra",
    "model_fields", "model_fields_set", "model_json_schema", "model_parametrized_name",
    "model_post_init", "model_rebuild", "model_validate", "model_validate_json",
    "model_validate_strings", "mro", "parse_file", "parse_obj", "parse_raw", "register",
    "schema", "schema_json", "update_forward_refs", "validate",
})
# pydantic's protected namespaces: a field starting with one of these warns, so a suffix
# does not help (``model_dump_x_`` still starts with one); such a field gets a prefix.
PROTECTED_PREFIXES = ("model_validate", "model_dump")

# ``self`` and ``ctx`` are the handler Protocol's own parameters (and the runtime calls
# ``handler(ctx, **params)``); the module's names are taken because a field of the same
# name would shadow them in the class body (``Field``, ``Literal``, a named type).
FIELD_RESERVED = (frozenset({"self", "ctx"}) | BASEMODEL_ATTRS | MODULE_RESERVED) - {"type"}


def is_plain_identifier(name: str) -> bool:
    """An ASCII identifier that is not a keyword and not private."""
    return (
        name.isascii() and name.isidentifier() and not keyword.iskeyword(name)
        and not name.startswith("_")
    )


def ascii_fold(raw: str) -> str:
    """``größe`` -> ``groe``: accents dropped, other non-ASCII letters left out."""
    if raw.isascii():
        return raw
    return unicodedata.normalize("NFKD", raw).encode("ascii", "ignore").decode("ascii")


def camel(raw: str, *, lead: str) -> str:
    """``readLog``, ``read_log``, ``read-log`` -> ``ReadLog``; ``lead`` goes before a digit."""
    if raw.isascii() and raw.isalpha():  # the usual case, without a regex
        return raw[0].upper() + raw[1:]
    words = _WORDS.findall(ascii_fold(raw))
    text = "".join(w[:1].upper() + w[1:] for w in words)
    if not text or text[0].isdigit():
        text = lead + text
    return text


def snake(raw: str, *, lead: str) -> str:
    """An identifier close to ``raw``: invalid characters become ``_``; never private."""
    text = _NOT_IDENT.sub("_", ascii_fold(raw)).lstrip("_")
    if not text or text[0].isdigit():
        text = f"{lead}_{text}" if text else lead
    if keyword.iskeyword(text):
        text += "_"
    return text


def field_name(raw: str, scope: Scope) -> str:
    """The identifier of the field for property ``raw``, claimed in ``scope``."""
    wanted = raw if is_plain_identifier(raw) else snake(raw, lead="field")
    if wanted.startswith(PROTECTED_PREFIXES):
        wanted = f"field_{wanted}"
    elif wanted in FIELD_RESERVED:
        wanted += "_"
    return scope.claim(wanted)


def is_parameter_name(name: str) -> bool:
    """A name a handler can take as written: an identifier, not a keyword, in the form
    Python reads it (NFKC), and not ``__x`` (a class body, the Protocol's, mangles it)."""
    return (
        name.isidentifier() and not keyword.iskeyword(name) and not name.startswith("__")
        and (name.isascii() or unicodedata.normalize("NFKC", name) == name)
    )


@dataclass(frozen=True, slots=True)
class HandlerNames:
    """How a handler is called: a keyword per property, and the Protocol's own names."""

    args: dict[str, str]     # property -> keyword argument
    self_name: str           # the Protocol's ``self``
    ctx_name: str            # its run-context parameter


def handler_names(properties: list[str]) -> HandlerNames:
    """The handler's keyword for each property: the spec's name as written wherever
    Python takes it (``model_dump_x``, ``json``, ``ctx``, ``_private``, ``größe``), else
    one close to it that no written name takes (``class_``, ``my_field2``, ``field_3d``),
    in the spec's order. The Protocol's positional ``self`` and ``ctx`` step aside."""
    scope = Scope()
    args = {raw: scope.claim(raw) for raw in properties if is_parameter_name(raw)}
    for raw in properties:
        if raw not in args:
            args[raw] = scope.claim(snake(raw, lead="field"))
    ordered = {raw: args[raw] for raw in properties}
    own = [scope.claim(n if n not in scope.taken else f"_{n}") for n in ("self", "ctx")]
    return HandlerNames(ordered, *own)


@dataclass(slots=True)
class Scope:
    """A set of taken identifiers; ``claim`` hands out the wanted one or a numbered one."""

    taken: set[str] = field(default_factory=set)

    def claim(self, wanted: str, *, suffixes: tuple[str, ...] = ("",)) -> str:
        """The first of ``wanted``, ``wanted2``, ... that is free with every suffix."""
        if suffixes == ("",) and wanted not in self.taken:
            self.taken.add(wanted)
            return wanted
        n = 1
        while True:
            stem = wanted if n == 1 else f"{wanted}{n}"
            names = [stem + s for s in suffixes]
            if not any(name in self.taken for name in names):
                self.taken.update(names)
                return stem
            n += 1

    def copy(self) -> Scope:
        return Scope(set(self.taken))


@dataclass(slots=True)
class ModuleNames:
    """The identifiers of one generated module, public and private."""

    modules: dict[str, str]           # other spec module -> the name it is imported as
    types: dict[str, str]             # named type -> class or alias name
    toolsets: dict[str, str]          # toolset -> attribute name
    tools: dict[str, str]             # tool -> stem of its Params/Handler/Result names
    scope: Scope                      # everything above, plus the reserved names

    def field_scope(self) -> Scope:
        """A fresh scope for the fields of one model: names annotations may use are taken."""
        return Scope({*FIELD_RESERVED, *self.types.values(), *self.modules.values()})


def type_name(raw: str) -> str:
    return raw if is_plain_identifier(raw) else camel(raw, lead="Type")


def module_names(module: ModuleIR) -> ModuleNames:
    """The module's identifiers, as ``resolve`` allocated them (``allocate_names``)."""
    names = module.python_names
    return ModuleNames(names.modules, names.types, names.toolsets, names.tools,
                       Scope(set(names.taken)))


def allocate_names(module: ModuleIR) -> PythonNames:
    """Allocate the module's identifiers; deterministic for a given module. Only
    ``resolve`` calls this; everyone else reads ``ModuleIR.python_names``."""
    scope = Scope(set(MODULE_RESERVED))
    modules = {}
    for other in sorted(_referenced_modules(module)):
        wanted = other if is_plain_identifier(other) else snake(other, lead="module")
        modules[other] = scope.claim(wanted if wanted not in scope.taken else wanted + "_module")
    types = {name: scope.claim(type_name(name)) for name in module.types}
    toolsets: dict[str, str] = {}
    for name in module.toolsets:
        if name == module.export and name == "toolset":
            toolsets[name] = "toolset"
            continue
        wanted = snake(name, lead="toolset")
        toolsets[name] = scope.claim(wanted + "_" if wanted in MODULE_RESERVED else wanted)
    tools = {
        name: scope.claim(camel(name, lead="Tool"), suffixes=("Params", "Handler", "Result"))
        for name, tool in module.tools.items() if not tool.external
    }
    return PythonNames(modules, types, toolsets, tools, frozenset(scope.taken))


def _referenced_modules(module: ModuleIR) -> set[str]:
    """Other spec modules named by toolsets or by ``type: other.Name`` in any schema."""
    return set(module.imports) - {module.name}


JSON_TYPES = frozenset({"string", "integer", "number", "boolean", "object", "array", "null"})
_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "dependentSchemas")
_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SCHEMA_ONE = ("items", "additionalProperties", "not", "if", "then", "else", "contains",
               "propertyNames", "unevaluatedItems", "unevaluatedProperties")


def type_refs(schema: object) -> list[str]:
    """Every ``type`` naming a named type, at any depth of a spec schema, in order."""
    refs: list[str] = []
    if not isinstance(schema, dict):
        return refs
    kind = schema.get("type")
    if isinstance(kind, str) and kind not in JSON_TYPES:
        refs.append(kind)
    for key in _SCHEMA_MAPS:
        children = schema.get(key)
        if isinstance(children, dict):
            for child in children.values():
                refs += type_refs(child)
    for key in _SCHEMA_LISTS:
        children = schema.get(key)
        if isinstance(children, list):
            for child in children:
                refs += type_refs(child)
    for key in _SCHEMA_ONE:
        refs += type_refs(schema.get(key))
    return refs
