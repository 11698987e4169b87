"""Classified differences between two sets of published tool definitions.

    old = load_git("origin/main")                  # or load_folder("some/dir")
    new = load_folder("generated/schemas")
    changes = diff_tools(old, new, Policy.from_config(pyproject["tool"]["toolc"]["diff"]))
    if fails(changes, "error"): ...

The rule catalogue is :data:`RULES`; ``docs/diff.md`` documents it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..publish import golden_text  # the one definition of the golden-file form
from .classify import classify
from .policy import FAIL_ON, Acceptance, Policy, fails, worst
from .result import Change, DiffInputError, SchemaKind, SpecPlace
from .rules import RULES, DiffRule
from .sources import (
    ToolSet,
    commit_of,
    head_commit,
    line_of,
    load_folder,
    load_git,
    pointer_lines,
    repo_prefix,
    tool_key,
)


def diff_tools(old: Mapping[str, dict[str, Any]], new: Mapping[str, dict[str, Any]],
               policy: Policy | None = None) -> list[Change]:
    """Every change from ``old`` to ``new`` (tool key -> published tool), policy applied,
    sorted by tool, then pointer (token by token, indexes as numbers), then rule."""
    changes = (policy or Policy()).apply(classify(old, new))
    return sorted(changes, key=Change.sort_key)


__all__ = [
    "FAIL_ON",
    "RULES",
    "Acceptance",
    "Change",
    "DiffInputError",
    "DiffRule",
    "Policy",
    "SchemaKind",
    "SpecPlace",
    "ToolSet",
    "commit_of",
    "diff_tools",
    "fails",
    "golden_text",
    "head_commit",
    "line_of",
    "load_folder",
    "load_git",
    "pointer_lines",
    "repo_prefix",
    "tool_key",
    "worst",
]
