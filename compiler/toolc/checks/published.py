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
from ..model.errors import describe_value, did_you_mean, suggest
from ..model.keywords import ANNOTATIONS
from ..model.tools import search_meta
from ..publish.json_documents import to_json
from ..publish.written import DefaultSite
from ..runtime.metakeys import SEARCH_KEYS
from ..runtime.validation_messages import allowed_values
from ..runtime.validation_messages import message as said
from .facts import ProjectFacts
from .reporting import Reporter


def check_defaults(facts: ProjectFacts, report: Reporter) -> None:
    """TC204: a ``default`` is accepted by its own schema (``nullable`` included), as
    jsonschema-rs, the runtime's validator, judges it in its published document."""
    validators = _Validators()
    for root in facts.roots:
        if root.raw or not facts.clean(root):
            continue
        written = facts.write(root)
        for site in written.defaults:
            problem = validators.rejection(written.schema, site)
            if problem:
                report("TC204", f"`default` does not fit its own schema: {problem}",
                       site.span)


# Annotations do not change what a schema accepts: schemas equal but for them share one
# validator (and one verdict per value), so 10,000 similar parameters cost a few validators.
_IGNORED = frozenset(ANNOTATIONS) | {"format"}
# A schema with one of these means something only in its document: it is judged there.
_IN_CONTEXT = ('"$ref"', '"$dynamicRef"', '"$recursiveRef"', '"$id"')


class _Validators:
    def __init__(self) -> None:
        self.validators: dict[str, Any] = {}
        self.verdicts: dict[tuple[str, str], str | None] = {}
        self.documents: dict[int, tuple[Any, Any]] = {}  # id(document) -> (it, its map)

    def rejection(self, document: Any, site: DefaultSite) -> str | None:
        """Why the schema of ``site`` rejects its default (``None`` when it accepts it, or
        when the schema cannot be compiled, which another check reports)."""
        # lazy: loads jsonschema_rs
        from ..model import engine

        schema, value = site.schema, site.value
        try:
            key = json.dumps({k: v for k, v in schema.items() if k not in _IGNORED},
                             sort_keys=True)
            seen = (key, json.dumps(value, sort_keys=True))
        except (TypeError, ValueError, RecursionError):
            return None
        if any(word in key for word in _IN_CONTEXT):
            return _rejection(self._in_document(document, site.pointer), value, None)
        if seen not in self.verdicts:
            validator = self.validators.get(key, _MISSING)
            if validator is _MISSING:
                try:
                    validator = engine.compile_schema(schema)
                except BaseException as exc:  # noqa: BLE001 - TC213 says why
                    engine.reraise_interrupt(exc)
                    validator = None
                self.validators[key] = validator
            self.verdicts[seen] = _rejection(validator, value, schema)
        return self.verdicts[seen]

    def _in_document(self, document: Any, pointer: str) -> Any:
        """The validator of the subschema at ``pointer``, references resolved in ``document``."""
        # lazy: loads jsonschema_rs
        from ..model import engine

        held = self.documents.get(id(document))
        if held is None or held[0] is not document:
            try:
                found = engine.validator_map(document)
            except BaseException as exc:  # noqa: BLE001 - TC213 says why
                engine.reraise_interrupt(exc)
                found = None
            held = self.documents[id(document)] = (document, found)
        return None if held[1] is None else held[1].get(f"#{pointer}")


_MISSING = object()


def _rejection(validator: Any, value: Any, schema: Any) -> str | None:
    """Why ``validator`` rejects ``value``, in the words the model would read (a union's
    branches named from ``schema``, when it is the validator's own), a near miss of an
    allowed value suggested."""
    # lazy: loads jsonschema_rs
    from ..model import engine

    if validator is None:
        return None
    try:
        error = next(iter(validator.iter_errors(value)), None)
    except BaseException as exc:  # noqa: BLE001 - a value it cannot take: another check's
        engine.reraise_interrupt(exc)
        return None
    if error is None:
        return None
    where = "/".join(str(p) for p in error.instance_path)
    message = said(error, schema, depth=1)  # depth 1: a union's branches on one line
    values = allowed_values(error)
    if values is not None and not where:
        message += did_you_mean(error.instance, [v for v in values if isinstance(v, str)])
    return f"at /{where}: {message}" if where else message


def check_returns_object(facts: ProjectFacts, report: Reporter) -> None:
    """TC209: ``returns`` is an object schema, as MCP's ``outputSchema`` must be."""
    for root in facts.roots:
        if root.kind != "returns" or not facts.clean(root):
            continue
        schema = facts.write(root).schema
        if not isinstance(schema, dict) or schema.get("type") != "object":
            found = schema.get("type") if isinstance(schema, dict) else schema
            report("TC209", f"the `returns` of tool '{root.owner}' must be an object "
                   f"schema (`type: object`), got {_shape(found)}", root.span,
                   notes=(("MCP publishes it as the tool's outputSchema, which is "
                          "always an object; wrap the value in a property"),))


def _shape(found: Any) -> str:
    if found is None:
        return "a schema with no `type`"
    if isinstance(found, str):
        return f"`type: {found}`"
    return describe_value(found)


def check_search_meta(facts: ProjectFacts, report: Reporter) -> None:
    """TC510: a `_meta` key given in `meta:` and through `search:` with two values;
    TC511: a `meta` key that is a near miss of a tool-search key clients read."""
    for parsed in facts.modules:
        section = parsed.section("tools")
        for name, tool in parsed.tools.items():
            node = section[name]
            meta = node.get("meta")
            if not isinstance(meta, YMap):
                continue
            for key in meta:
                _near_search_key(report, name, key, meta.key_spans[key])
            for key, value in search_meta(tool).items():
                if key in meta and to_json(meta[key]) != value:
                    report(
                        "TC510", f"tool '{name}' gives `_meta` '{key}' as "
                        f"{json.dumps(to_json(meta[key]))} in `meta` but `search` makes it "
                        f"{json.dumps(value)}", meta.key_spans[key],
                        notes=(f"`search` publishes '{key}'; remove it from `meta`",))


SEARCH_NOTE = "or write `search: {always_load: ..., hint: ...}`, whose keys are checked"


def _near_search_key(report: Reporter, tool: str, key: str, span: Span) -> None:
    if key in SEARCH_KEYS:
        return
    hint, fixes = suggest(key, SEARCH_KEYS, span)
    if hint:
        report("TC511", f"`meta` of tool '{tool}' gives '{key}', which is not a "
               f"tool-search key{hint}", span,
               notes=(SEARCH_NOTE,), fixes=fixes)
