"""Classified differences between two sets of published tool definitions.

    old = load_git("origin/main")                  # or load_folder("some/dir")
    new = load_folder("generated/schemas")
    changes = diff_tools(old, new, Policy.from_config(pyproject["tool"]["toolc"]["diff"]))
    if fails(changes, "error"): ...

The rule catalogue is :data:`RULES`; ``docs/diff.md`` documents it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from ..publish import golden_text  # the one definition of the golden-file form
from .classify import classify
from .policy import FAIL_ON, Acceptance, Policy, fails, worst
from .result import Change, DiffInputError, SchemaKind, SpecPlace, ToolSet, tool_key
from .rules import RULES, DiffRule, pinned_description
from .sources import (
    commit_of,
    head_commit,
    line_of,
    load_folder,
    load_git,
    pointer_lines,
    repo_prefix,
)


def diff_tools(old: Mapping[str, dict[str, Any]], new: Mapping[str, dict[str, Any]],
               policy: Policy | None = None, renames: Mapping[str, str] | None = None,
               pinned: Collection[str] = ()) -> list[Change]:
    """Every change from ``old`` to ``new`` (tool key -> published tool), policy applied,
    sorted by tool, then pointer (token by token, indexes as numbers), then rule.
    ``renames``: new key -> old key, the renames the specs declare
    (:func:`toolc.diff.places.declared_renames`); a tool that is only new and one that
    is only old and alike but for the name are a rename whatever it says. ``pinned``:
    the keys of the new side's tools pinned from third-party MCP servers, whose changed
    descriptions are PINNED_DESCRIPTION_CHANGED (:func:`toolc.diff.renames.pinned_keys`)."""
    found = classify(old, new, renames)
    if pinned:
        found = [pinned_description(c) if c.tool in pinned else c for c in found]
    changes = (policy or Policy()).apply(found)
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
