"""Synthetic toolc projects for the benchmarks (issue 6), and their JSON Schema twins.

A project of N tools is N/20 spec files of 20 tools each. Every tool has five
parameters with descriptions: an integer with bounds and a default, a string with a
maximum length, an enum, an optional number with bounds, and one nested object (two
described properties, one with bounds). Beside the specs the project holds:

- ``pyproject.toml`` with ``[tool.toolc]`` (specs, output, python-path);
- ``handlers/bench_app/tools.py``: the handler every tool names, a pass-through
  wrapper and an always-true predicate (the call-overhead stack uses them);
- ``jsonschema/<module>.json``: the same parameters as plain JSON Schema 2020-12, one
  document per spec file whose ``$defs`` hold one object schema per tool: what
  datamodel-code-generator is given to make the equivalent pydantic models.

    python bench/synth.py --tools 1000 --out /tmp/synth   # writes a project there
"""

from __future__ import annotations

import argparse
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

PER_FILE = 20
HANDLER = "bench_app.tools:handle"

PYPROJECT = """[tool.toolc]
specs = "specs"
output = "generated"
python-path = ["handlers"]
"""

HANDLERS = '''"""Handlers of the synthetic benchmark projects."""

from __future__ import annotations

from typing import Any

from toolc import runtime as rt


async def handle(ctx: Any, **params: Any) -> str:
    return "ok"


def always(ctx: Any) -> bool:
    return True


class PassThrough(rt.WrapperToolset):
    """A wrapper that only forwards: what the stack costs, not what a wrapper does."""

    async def call_tool(self, ctx: Any, name: str, args: dict[str, Any],
                        next: rt.CallNext) -> rt.ToolResult:
        return await next(ctx, name, args)
'''

# One tool's parameters as a spec writes them (indented under `params:`).
PARAMS_YAML = """\
      count: {type: integer, description: How many items to process., minimum: 1, maximum: 100, default: 10}
      name: {type: string, description: The name of the item., maxLength: 64}
      mode: {description: How to process the items., enum: [fast, slow, auto]}
      ratio: {type: number, description: The share of items to keep., minimum: 0, maximum: 1, required: false}
      target:
        type: object
        description: Where to send the result.
        properties:
          host: {type: string, description: The host name.}
          port: {type: integer, description: The TCP port., minimum: 1, maximum: 65535}
"""


def params_schema(title: str) -> dict[str, object]:
    """The JSON Schema of one tool's parameters, as toolc publishes it (plus a title)."""
    return {
        "type": "object",
        "title": title,
        "properties": {
            "count": {"type": "integer", "description": "How many items to process.",
                      "minimum": 1, "maximum": 100, "default": 10},
            "name": {"type": "string", "description": "The name of the item.", "maxLength": 64},
            "mode": {"description": "How to process the items.", "enum": ["fast", "slow", "auto"]},
            "ratio": {"type": "number", "description": "The share of items to keep.",
                      "minimum": 0, "maximum": 1},
            "target": {
                "type": "object",
                "description": "Where to send the result.",
                "properties": {
                    "host": {"type": "string", "description": "The host name."},
                    "port": {"type": "integer", "description": "The TCP port.",
                             "minimum": 1, "maximum": 65535},
                },
                "required": ["host", "port"],
            },
        },
        "required": ["name", "mode", "target"],
        "additionalProperties": False,
    }


def tool_name(index: int) -> str:
    return f"tool{index}"


def module_name(index: int) -> str:
    return f"mod{index:04d}"


def spec_text(module: str, tools: range) -> str:
    lines = ["toolc: 1", f"module: {module}",
             f"description: Synthetic module {module} of the benchmarks.", "tools:"]
    for i in tools:
        lines += [f"  {tool_name(i)}:", f"    description: Synthetic tool number {i}.",
                  f"    handler: {HANDLER}", "    params:"]
        lines.append(PARAMS_YAML.rstrip("\n"))
    return "\n".join(lines) + "\n"


def json_schema_document(module: str, tools: range) -> dict[str, object]:
    defs = {f"Tool{i}Params": params_schema(f"Tool{i}Params") for i in tools}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": module, "$defs": defs}


@dataclass(frozen=True, slots=True)
class Project:
    root: Path
    tools: int
    modules: tuple[str, ...]

    @property
    def specs(self) -> Path:
        return self.root / "specs"

    @property
    def output(self) -> Path:
        return self.root / "generated"

    @property
    def handlers(self) -> Path:
        return self.root / "handlers"

    @property
    def jsonschema(self) -> Path:
        return self.root / "jsonschema"


def write_project(root: Path, tools: int, *, per_file: int = PER_FILE) -> Project:
    """Write a fresh project of ``tools`` tools under ``root`` (emptied first)."""
    if root.exists():
        shutil.rmtree(root)
    for folder in ("specs", "handlers/bench_app", "jsonschema"):
        (root / folder).mkdir(parents=True)
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (root / "handlers/bench_app/__init__.py").write_text("", encoding="utf-8")
    (root / "handlers/bench_app/tools.py").write_text(HANDLERS, encoding="utf-8")
    modules = []
    for k, start in enumerate(range(0, tools, per_file)):
        module, chunk = module_name(k), range(start, min(start + per_file, tools))
        modules.append(module)
        (root / "specs" / f"{module}.toolc.yaml").write_text(spec_text(module, chunk),
                                                             encoding="utf-8")
        document = json_schema_document(module, chunk)
        (root / "jsonschema" / f"{module}.json").write_text(json.dumps(document, indent=2),
                                                            encoding="utf-8")
    return Project(root, tools, tuple(modules))


STACK_SPEC = f"""toolc: 1
module: stack
description: One call through prefixed, renamed, filtered, wrapper and combined sets.
tools:
  tool0:
    description: The tool the benchmark calls.
    handler: {HANDLER}
    params:
{PARAMS_YAML}  tool1:
    description: A second tool, so the rename and the combination have work to do.
    handler: {HANDLER}
    params:
{PARAMS_YAML}  other:
    description: The other member's tool.
    handler: {HANDLER}
    params:
{PARAMS_YAML}toolsets:
  base: {{kind: function, tools: [tool0, tool1]}}
  prefixed: {{kind: prefixed, inner: base, prefix: p_}}
  renamed: {{kind: renamed, inner: prefixed, names: {{p_tool1: p_renamed}}}}
  filtered: {{kind: filtered, inner: renamed, predicate: bench_app.tools:always}}
  wrapped: {{kind: wrapper, inner: filtered, wrapper: bench_app.tools:PassThrough}}
  second: {{kind: function, tools: [other]}}
  combined: {{kind: combined, toolsets: [wrapped, second]}}
export: combined
"""

# The call both sides make: valid arguments for every parameter, the nested one too.
CALL_NAME = "p_tool0"
CALL_ARGS = {"count": 5, "name": "item", "mode": "fast", "ratio": 0.5,
             "target": {"host": "localhost", "port": 8080}}


def write_stack_project(root: Path) -> Project:
    """A project of one module whose export is the call-overhead stack."""
    project = write_project(root, 0)
    (project.specs / "stack.toolc.yaml").write_text(STACK_SPEC, encoding="utf-8")
    return Project(root, 3, ("stack",))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tools", type=int, default=1000)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--stack", action="store_true",
                        help="write the call-overhead stack project instead")
    args = parser.parse_args()
    project = write_stack_project(args.out) if args.stack else write_project(args.out, args.tools)
    print(f"wrote {project.tools} tools in {len(project.modules)} module(s) to {project.root}")


if __name__ == "__main__":
    main()
