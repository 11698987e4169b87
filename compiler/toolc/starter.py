"""``toolc init``: a starter spec, the spec format's JSON Schema and the configuration."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TextIO

STARTER_SPEC = """\
# yaml-language-server: $schema=../.toolc/spec.schema.json
toolc: 1
module: {module}
description: Tools of {module}.

tools:
  greet:
    title: Greet
    description: Say hello to someone by name.
    handler: {module}_tools:greet
    annotations: {{readOnlyHint: true}}
    params:
      name:
        type: string
        description: Who to greet.
        minLength: 1
      excited:
        type: boolean
        description: End the greeting with an exclamation mark.
        default: false

toolsets:
  main: {{kind: function, tools: [greet]}}

export: main
"""

STARTER_HANDLERS = '''\
"""Handlers of specs/{module}.toolc.yaml."""

from __future__ import annotations

from typing import Any

from toolc.runtime import RunContext


def greet(ctx: RunContext[Any], name: str, excited: bool = False) -> str:
    return f"Hello, {{name}}{{'!' if excited else '.'}}"
'''

CONFIG = """
[tool.toolc]
specs = "specs"
output = "generated"
python-path = ["."]
"""


def init_project(force: bool = False, root: Path | None = None,
                 out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Write the starter files into ``root`` (default: cwd); refuse to overwrite."""
    out, err = out or sys.stdout, err or sys.stderr
    from .model import spec_json_schema

    root = root or Path.cwd()
    module = _module_name(root)
    files = {
        root / "specs" / f"{module}.toolc.yaml": STARTER_SPEC.format(module=module),
        root / f"{module}_tools.py": STARTER_HANDLERS.format(module=module),
        root / ".toolc" / "spec.schema.json":
            json.dumps(spec_json_schema(), indent=2, ensure_ascii=False) + "\n",
    }
    existing = [p for p in files if p.exists() and p.suffix != ".json"]
    if existing and not force:
        err.write(f"error: {existing[0]} exists; use --force to overwrite\n")
        return 1
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        out.write(f"wrote {path.relative_to(root)}\n")
    pyproject = root / "pyproject.toml"
    current = pyproject.read_text(encoding="utf-8") if pyproject.exists() else ""
    if "[tool.toolc]" not in current:
        pyproject.write_text(current + CONFIG, encoding="utf-8")
        out.write("added [tool.toolc] to pyproject.toml\n")
    out.write("next: run `toolc build`, then `toolc serve "
              f"specs/{module}.toolc.yaml`\n")
    return 0


def _module_name(root: Path) -> str:
    name = "".join(c if c.isalnum() else "_" for c in root.resolve().name.lower()).strip("_")
    if not name or not name.isidentifier() or not name.isascii():
        return "app"
    return name
