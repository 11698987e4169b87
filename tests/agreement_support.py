"""The published tools of every project that builds, and the validator each one runs.

A project is a folder of specs: ``specs/`` (the bundled ones) and every fixture folder of
``tests/fixtures/valid`` and ``tests/fixtures/resolve``. Each is built as ``toolc build``
builds it (front end, then generated modules and golden schemas, in memory); the
generated modules are imported from a staging folder, and each module's exported
toolset is walked, through every wrapping kind, down to the object that validates a
call's arguments under each published name:

* an ``rt.Tool``: its validator of record (the published schema, compiled by
  jsonschema-rs, as ``Tool.call`` runs it), then its params model, which must convert
  every instance the validator accepted;
* an ``rt.ExternalTool``: the same validator (``problems``, as its toolset's
  ``call_tool`` does).

Nothing in user code is imported or run: handlers, predicates, prepare functions and
wrapper classes stay unresolved references. Tools pinned from an MCP server are checked
by that server, not by toolc, and are listed apart.
"""

from __future__ import annotations

import contextlib
import importlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, get_args

from pydantic import BaseModel, ValidationError
from toolc import runtime as rt
from toolc.certify.staged_import import staged_package
from toolc.config import Config
from toolc.frontend import compile_specs
from toolc.pipeline import render_outputs
from toolc.publish import SCHEMAS_DIR

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


def project_folders() -> list[Path]:
    """The bundled specs and every fixture folder that holds specs (``agreement/``: the
    schema keywords no other fixture uses)."""
    fixtures = [p for kind in ("valid", "resolve", "agreement")
                for p in sorted((TESTS / "fixtures" / kind).iterdir()) if p.is_dir()]
    return [ROOT / "specs", *(p for p in fixtures if any(p.glob("*.toolc.yaml")))]


def build_in_memory(folder: Path) -> dict[str, str] | None:
    """The files ``toolc build`` would write for the specs in ``folder`` (None: errors)."""
    config = Config(root=folder, specs=(folder,), output=folder / "generated")
    compiled = compile_specs(config)
    return None if compiled.project is None else render_outputs(compiled.project)


def golden_tools(files: dict[str, str]) -> dict[tuple[str, str], dict[str, Any]]:
    """(module, published name) -> the published tool, read from its golden JSON."""
    found = {}
    for rel, text in sorted(files.items()):
        if rel.startswith(SCHEMAS_DIR + "/") and rel.endswith(".json"):
            tool = json.loads(text)
            found[(rel.split("/")[1], tool["name"])] = tool
    return found


@dataclass(frozen=True, slots=True)
class Verdict:
    accepted: bool
    why: str = ""


@dataclass(frozen=True, slots=True)
class RuntimeCheck:
    """How the runtime validates a call to one published tool."""

    target: rt.Tool | rt.ExternalTool

    @property
    def model(self) -> type[BaseModel] | None:
        if isinstance(self.target, rt.Tool):
            # The runtime's own resolution (a class or a lazy builder); the handler is
            # not imported for it.
            return self.target.params_model
        return None

    @property
    def input_schema(self) -> Any:
        return self.target.definition.input_schema

    @property
    def key(self) -> object:
        """Equal for two checks that validate alike: the same model class (one tool shown
        under several names, or by several modules), or the same external schema."""
        model = self.model
        return model if model is not None else json.dumps(self.input_schema, sort_keys=True)

    def verdict(self, args: dict[str, Any]) -> Verdict:
        """The runtime's verdict; an accepted instance its model refuses fails the test
        (the handler would not run a valid call)."""
        target = self.target
        problems = target.problems(args) if isinstance(target, rt.ExternalTool) \
            else target.validator.problems(args)
        if problems:
            return Verdict(False, "\n".join(problems))
        model = self.model
        if model is not None:
            try:
                model.model_validate(args)
            except ValidationError as exc:
                raise AssertionError(
                    f"the params model refused arguments the validator accepted: {exc}"
                ) from exc
        return Verdict(True)


def runtime_checks(toolset: rt.AbstractToolset[Any]) -> dict[str, RuntimeCheck]:
    """Published name -> what validates its calls, for every tool the set can show."""
    if isinstance(toolset, rt.FunctionToolset | rt.ExternalToolset):
        return {name: RuntimeCheck(tool) for name, tool in toolset.tools.items()}
    if isinstance(toolset, rt.PrefixedToolset):
        return {toolset.prefix + name: check
                for name, check in runtime_checks(toolset.inner).items()}
    if isinstance(toolset, rt.RenamedToolset):
        return {toolset.names.get(name, name): check
                for name, check in runtime_checks(toolset.inner).items()}
    if isinstance(toolset, rt.CombinedToolset):  # and MCPManager; later members win
        found: dict[str, RuntimeCheck] = {}
        for member in toolset.toolsets:
            for name, check in runtime_checks(member).items():
                found.pop(name, None)
                found[name] = check
        return found
    if isinstance(toolset, rt.MCPToolset):
        return {}
    # filtered, prepared, wrapper, approval_required: the inner set's tools, by its names
    assert isinstance(toolset, rt.DelegatingToolset), toolset
    return runtime_checks(toolset.inner)


@dataclass(frozen=True, slots=True, eq=False)  # hashed by identity: one per tool
class PublishedTool:
    project: str
    module: str
    published: dict[str, Any]       # the golden JSON
    check: RuntimeCheck | None      # None: pinned from an MCP server, not validated here

    @property
    def id(self) -> str:
        return f"{self.project}/{self.module}/{self.published['name']}"

    @property
    def input_schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = self.published["inputSchema"]
        return schema


def builds() -> dict[str, dict[str, str]]:
    """Project name -> the files its build gives, for every project that builds."""
    found = {}
    for folder in project_folders():
        files = build_in_memory(folder)
        if files is not None:
            found[folder.name] = files
    return found


@contextlib.contextmanager
def published_tools(projects: dict[str, dict[str, str]]) -> Iterator[list[PublishedTool]]:
    """Every published tool of the built projects, with its runtime check; the generated
    modules stay importable until the context ends."""
    with contextlib.ExitStack() as stack:
        found: list[PublishedTool] = []
        for project, files in projects.items():
            package = stack.enter_context(staged_package(files))
            checks: dict[str, dict[str, RuntimeCheck]] = {}
            for (module, name), tool in golden_tools(files).items():
                if module not in checks:
                    generated = importlib.import_module(f"{package}.{module}")
                    checks[module] = runtime_checks(generated.toolset)
                found.append(PublishedTool(project, module, tool, checks[module].get(name)))
        yield found


def field_names(model: type[BaseModel] | None) -> list[str]:
    """The Python names of every field of a model and of the models inside it: property
    names a model could mistake for its aliases."""
    names: set[str] = set()
    todo, seen = [model] if model else [], set()
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        for name, info in current.model_fields.items():
            names.add(name)
            todo += _models_in(info.annotation)
    return sorted(names)


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in get_args(annotation) for m in _models_in(arg)]
