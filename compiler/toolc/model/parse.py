"""Parse one loaded file into spec models, keeping every part that is valid.

The whole file is validated in one pydantic call, which reports every error at once.
When that fails, each tool and toolset is validated again on its own so that the later
checks still see the valid ones: a typo in one tool must not hide the problems of all
the others. Names whose entry is broken are remembered, so that a reference to them is
not reported a second time as "unknown".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import TypeAdapter, ValidationError

from ..diagnostics import RULES, Diagnostic, Span
from ..loader import LoadedFile, YMap
from .errors import describe_value, diagnostics_from
from .module import CertifySpec, ModuleSpec
from .tools import ToolSpec
from .toolsets import AnyToolset, ToolsetSpec

_TOOLSET: TypeAdapter[ToolsetSpec] = TypeAdapter(AnyToolset)


@dataclass(slots=True)
class ParsedModule:
    """What a spec file says, as far as it could be understood."""

    file: LoadedFile
    raw: YMap                                   # the file's top-level mapping
    name: str | None = None
    description: str | None = None
    export: str | None = None
    types: dict[str, Any] = field(default_factory=dict)        # name -> schema as loaded
    tools: dict[str, ToolSpec] = field(default_factory=dict)   # the valid ones, in order
    toolsets: dict[str, ToolsetSpec] = field(default_factory=dict)
    broken_tools: set[str] = field(default_factory=set)
    broken_toolsets: set[str] = field(default_factory=set)
    unreadable: set[str] = field(default_factory=set)  # sections that are not mappings
    complete: bool = False                      # the whole file validated
    certify: CertifySpec | None = None          # the contexts certification lists under
    version: str | None = None                  # what `toolc serve` tells clients
    targets: tuple[str, ...] | None = None      # its own `targets:` (None: the project's)

    @property
    def path(self) -> str:
        return self.file.path

    def section(self, key: str) -> YMap:
        """``tools``/``toolsets``/``types`` as loaded, or an empty mapping."""
        node = self.raw.get(key)
        return node if isinstance(node, YMap) else YMap(self.raw.span)

    def key_span(self, section: str, name: str) -> Span:
        node = self.section(section)
        return node.key_spans.get(name, self.raw.span)

    def top_span(self) -> Span:
        return Span(self.path, 1, 1)


def parse_module(file: LoadedFile) -> tuple[ParsedModule, list[Diagnostic]]:
    """Validate ``file`` against the spec models; never raises."""
    data = file.data
    if not isinstance(data, YMap):
        return ParsedModule(file, YMap(Span(file.path, 1, 1))), [_not_a_mapping(file)]
    try:
        spec = ModuleSpec.model_validate(data)
    except ValidationError as exc:
        return _salvage(file, data), diagnostics_from(exc, data, ModuleSpec, file.path, file.text)
    return ParsedModule(
        file, data, spec.module, spec.description, spec.export, dict(spec.types),
        dict(spec.tools), dict(spec.toolsets), complete=True, certify=spec.certify,
        version=spec.version,
        targets=None if spec.targets is None else tuple(dict.fromkeys(spec.targets)),
    ), []


def _not_a_mapping(file: LoadedFile) -> Diagnostic:
    span = Span(file.path, 1, 1)
    if file.data is None:
        message = "the file is empty; a spec is a mapping that starts with `toolc: 1`"
        return Diagnostic("TC102", RULES["TC102"].severity, message, span)
    message = ("a spec must be a mapping of `toolc`, `module`, `tools`, ...; got "
               f"{describe_value(file.data)}")
    return Diagnostic("TC103", RULES["TC103"].severity, message, span)


def _text(data: YMap, key: str) -> str | None:
    value = data.get(key)
    return value if isinstance(value, str) else None


def _salvage(file: LoadedFile, data: YMap) -> ParsedModule:
    parsed = ParsedModule(file, data, _text(data, "module"), _text(data, "description"),
                          _text(data, "export"))
    parsed.unreadable = {k for k in ("types", "tools", "toolsets")
                         if k in data and not isinstance(data[k], YMap)}
    types = data.get("types")
    if isinstance(types, YMap):
        parsed.types = dict(types)
    tools = data.get("tools")
    if isinstance(tools, YMap):
        for name, node in tools.items():
            try:
                parsed.tools[name] = ToolSpec.model_validate(node)
            except ValidationError:
                parsed.broken_tools.add(name)
    toolsets = data.get("toolsets")
    if isinstance(toolsets, YMap):
        for name, node in toolsets.items():
            try:
                parsed.toolsets[name] = _TOOLSET.validate_python(node)
            except ValidationError:
                parsed.broken_toolsets.add(name)
    return parsed
