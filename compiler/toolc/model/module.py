"""One spec file: the module, its named types, tools, toolsets and export."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, WithJsonSchema
from pydantic_core import PydanticCustomError

from .base import Expect, SpecModel, ToolcSchema
from .tools import FormatMode, ToolSpec
from .toolsets import AnyToolset


def _version_one(value: int) -> int:
    # Literal[1] would also accept `true` and `1.0`; the format wants the integer 1 only.
    if value != 1:
        raise PydanticCustomError("toolc_version", "toolc must be the integer 1")
    return value


FormatVersion = Annotated[
    int, AfterValidator(_version_one), Expect("the integer 1"),
    WithJsonSchema({"const": 1, "description": "Format version; must be the integer 1."}),
]


# The provider dialects a module's export is checked for (toolc.runtime.dialects.TARGETS,
# which tests/model/test_module.py holds this list equal to).
TargetName = Literal["openai-strict", "anthropic-strict", "gemini"]


class CertifyContext(SpecModel):
    """A context certification lists the export under, besides the default (no deps)."""

    name: Annotated[str, Field(min_length=1, description="How diagnostics name the context.")]
    deps: Annotated[
        str, Expect("a reference `package.module:attribute`"),
        Field(description="`package.module:attribute`: called with no arguments when "
                          "certifying; what it returns is the context's `deps`."),
    ]


class CertifySpec(SpecModel):
    """How the build certifies the export: under each of ``contexts`` too."""

    contexts: Annotated[list[CertifyContext], Expect("a list of `{name, deps}` contexts")]


class ModuleSpec(SpecModel):
    toolc: FormatVersion
    module: Annotated[str, Field(description="An ASCII Python identifier, unique in the project.")]
    description: Annotated[
        str | None, Field(description="The generated module's docstring.")] = None
    version: Annotated[
        str | None, Expect('a version string, such as "1.2.0" (quote a number)'),
        Field(min_length=1, max_length=100,
              description="The version `toolc serve` gives clients (`serverInfo.version`); "
                          "default: the project's `[project] version`, else toolc's."),
    ] = None
    types: Annotated[
        dict[str, ToolcSchema], Expect("a mapping of type names to schemas"),
        Field(description="Named schemas other schemas can use through `type`."),
    ] = Field(default_factory=dict)
    tools: Annotated[
        dict[str, ToolSpec], Expect("a mapping of tool names to tools"),
    ] = Field(default_factory=dict)
    toolsets: Annotated[
        dict[str, AnyToolset], Expect("a mapping of toolset names to toolsets"),
    ] = Field(default_factory=dict)
    export: Annotated[
        str | None, Field(description="The toolset the module exports; by default all its tools."),
    ] = None
    format: Annotated[
        FormatMode | None,
        Field(description="`assert` checks `format` keywords in calls of every tool of the "
                          "module; `annotate` only publishes them. Default: `[tool.toolc]`'s."),
    ] = None
    certify: Annotated[
        CertifySpec | None, Expect("a mapping with `contexts`"),
        Field(description="Certify the export under these contexts too (their `deps`)."),
    ] = None
    targets: Annotated[
        list[TargetName] | None,
        Expect("a list of targets: openai-strict, anthropic-strict, gemini"),
        Field(description="The model APIs the export is checked for (what each rejects, "
                          "drops or changes); replaces `[tool.toolc] targets` for this "
                          "module, `[]` checks none."),
    ] = None
