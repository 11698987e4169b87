"""Checks on schemas as they will be published: defaults, and `returns` being an object.

They run on the written-out schemas (named types in place, ``nullable`` applied), the very
documents clients will see, and only on documents without problems of their own: a
schema that is already wrong says nothing useful about its defaults.
"""

from __future__ import annotations

import json
from typing import Any

from ..diagnostics import Span
from ..loader import YMap
from ..model.errors import describe_value, did_you_mean
from ..model.keywords import ANNOTATIONS, non_json_problem
from ..model.tools import search_meta
from ..model.writeout import to_json
from ..runtime.metakeys import SEARCH_KEYS
from .project import Project


def check_defaults(project: Project) -> None:
    """TC204: a ``default`` is accepted by its own schema (``nullable`` included)."""
    validators = _Validators()
    for root in project.roots:
        if root.raw or not project.clean(root):
            continue
        written = project.write(root)
        defs = written.schema.get("$defs") if isinstance(written.schema, dict) else None
        for site in written.defaults:
            schema = site.schema
            if defs and schema is not written.schema:
                schema = {**schema, "$defs": defs}
            problem = validators.rejection(schema, site.value)
            if problem:
                project.report("TC204", f"`default` does not fit its own schema: {problem}",
                               site.span)


# Annotations do not change what a schema accepts: schemas equal but for them share one
# validator (and one verdict per value), so 10,000 similar parameters cost a few validators.
_IGNORED = frozenset(ANNOTATIONS) | {"format"}


class _Validators:
    def __init__(self) -> None:
        self.validators: dict[str, Any] = {}
        self.verdicts: dict[tuple[str, str], str | None] = {}

    def rejection(self, schema: dict[str, Any], value: Any) -> str | None:
        """Why ``schema`` rejects ``value`` (``None`` when it accepts it)."""
        # jsonschema costs about 60 ms to import: only for a project with defaults
        from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

        try:
            key = json.dumps({k: v for k, v in schema.items() if k not in _IGNORED},
                             sort_keys=True)
            seen = (key, json.dumps(value, sort_keys=True))
        except (TypeError, ValueError, RecursionError):
            return _rejection(Draft202012Validator(schema), value)
        if seen not in self.verdicts:
            validator = self.validators.get(key)
            if validator is None:
                validator = self.validators[key] = Draft202012Validator(schema)
            self.verdicts[seen] = _rejection(validator, value)
        return self.verdicts[seen]


def _rejection(validator: Any, value: Any) -> str | None:
    from jsonschema.exceptions import best_match  # type: ignore[import-untyped]

    try:
        error = best_match(validator.iter_errors(value))
    except Exception:  # noqa: BLE001 - a schema jsonschema cannot follow: nothing to say
        return None
    if error is None:
        return None
    # jsonschema shows the instance as Python would (None, True); show it as JSON.
    message: str = error.message
    shown = repr(error.instance)
    if message.startswith(shown):
        message = json.dumps(error.instance, ensure_ascii=False) + message[len(shown):]
    return message


def check_meta_values(project: Project) -> None:
    """TC103: a tool's ``meta`` is published as JSON, which has no NaN or infinity."""
    for parsed in project.modules:
        section = parsed.section("tools")
        for name in parsed.tools:
            node = section[name]
            problem = non_json_problem(node.get("meta"))
            if problem:
                project.report("TC103", f"`meta` of tool '{name}': {problem}",
                               node.value_spans["meta"])


def check_returns_object(project: Project) -> None:
    """TC209: ``returns`` is an object schema, as MCP's ``outputSchema`` must be."""
    for root in project.roots:
        if root.kind != "returns" or not project.clean(root):
            continue
        schema = project.write(root).schema
        if not isinstance(schema, dict) or schema.get("type") != "object":
            found = schema.get("type") if isinstance(schema, dict) else schema
            project.report("TC209", f"the `returns` of tool '{root.owner}' must be an object "
                           f"schema (`type: object`), got {_shape(found)}", root.span,
                           notes=(("MCP publishes it as the tool's outputSchema, which is "
                                  "always an object; wrap the value in a property"),))


def _shape(found: Any) -> str:
    if found is None:
        return "a schema with no `type`"
    if isinstance(found, str):
        return f"`type: {found}`"
    return describe_value(found)


def check_search_meta(project: Project) -> None:
    """TC510: a `_meta` key given in `meta:` and through `search:` with two values;
    TC511: a `meta` key that is a near miss of a tool-search key clients read."""
    for parsed in project.modules:
        section = parsed.section("tools")
        for name, tool in parsed.tools.items():
            node = section[name]
            meta = node.get("meta")
            if not isinstance(meta, YMap):
                continue
            for key in meta:
                _near_search_key(project, name, key, meta.key_spans[key])
            for key, value in search_meta(tool).items():
                if key in meta and to_json(meta[key]) != value:
                    project.report(
                        "TC510", f"tool '{name}' gives `_meta` '{key}' as "
                        f"{json.dumps(to_json(meta[key]))} in `meta` but `search` makes it "
                        f"{json.dumps(value)}", meta.key_spans[key],
                        notes=(f"`search` publishes '{key}'; remove it from `meta`",))


SEARCH_NOTE = "or write `search: {always_load: ..., hint: ...}`, whose keys are checked"


def _near_search_key(project: Project, tool: str, key: str, span: Span) -> None:
    if key in SEARCH_KEYS:
        return
    hint = did_you_mean(key, SEARCH_KEYS)
    if hint:
        project.report("TC511", f"`meta` of tool '{tool}' gives '{key}', which is not a "
                       f"tool-search key{hint}", span,
                       notes=(SEARCH_NOTE,))
