"""Published tool definitions -> golden files ``schemas/<module>/<name>.json``.

The IR already holds each tool as ``tools/list`` shows it; this stage only fixes the
on-disk form: two-space indent, sorted keys (small, order-free diffs), UTF-8 left
unescaped, and a final newline.
"""

from __future__ import annotations

import json
from typing import Any

from .ir import ProjectIR

SCHEMAS_DIR = "schemas"


def golden_text(tool: dict[str, Any]) -> str:
    return json.dumps(tool, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def golden_path(module: str, tool_name: str) -> str:
    return f"{SCHEMAS_DIR}/{module}/{tool_name}.json"


def publish_project(project: ProjectIR) -> dict[str, str]:
    """Relative output path -> golden JSON text, for every exported tool of every module."""
    files: dict[str, str] = {}
    for module in project.modules.values():
        for tool in module.exported_tools:
            files[golden_path(module.name, tool.name)] = golden_text(tool.published())
    return files

