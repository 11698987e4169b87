"""Validation and publication agree (issue 4, point 4).

For every tool published by the bundled specs and by every fixture project that builds,
the arguments its published ``inputSchema`` (the golden JSON) accepts are exactly the
arguments the runtime accepts for it: its validator of record (jsonschema-rs on the very
published schema), and then the generated params model of an ``rt.Tool``, which must
convert every instance the validator accepted. Instances are drawn from the schema
(values it accepts) and from near misses (one mistake, at any depth); for each, the
verdict on the golden JSON itself and the runtime's must be the same, both ways: the
schema the runtime enforces is the one published, and its model refuses nothing valid.
(The reference is jsonschema-rs too: JSON Schema's regexes are ECMA-262's, where ``$``
does not match before a final newline, unlike the ``jsonschema`` package's Python ones;
the official suite, ``conformance/``, checks the engine itself.)
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples
from jsonschema_rs import Draft202012Validator

sys.path.insert(0, str(Path(__file__).parent))

from agreement_support import (
    PublishedTool,
    builds,
    field_names,
    golden_tools,
    published_tools,
)
from schema_instances import json_values
from schema_mistakes import near_misses, single_mistakes

BUILDS = builds()
# The projects that must build: a folder that stops building must not drop out silently.
EXPECTED_PROJECTS = {"specs", "every_kind", "names", "no_tools", "schemas", "workbench",
                     "wrong_handler", "every-kind", "keywords", "refs"}
EXAMPLES = settings(max_examples=examples(25), derandomize=True, database=None, deadline=None,
                    suppress_health_check=list(HealthCheck))


class Tools(dict[str, PublishedTool]):
    """Published tool id -> tool; a short repr keeps hypothesis' reports readable.

    ``first[id]`` is the first tool validated by the same check (mostly itself): a tool
    shown under several names, or exported by several modules, is tested once."""

    def __init__(self, tools: list[PublishedTool]) -> None:
        super().__init__((tool.id, tool) for tool in tools)
        firsts: dict[object, str] = {}
        self.first = {tool.id: firsts.setdefault(tool.check.key, tool.id)
                      for tool in tools if tool.check is not None}

    def __repr__(self) -> str:
        return f"<{len(self)} published tools>"

    def the_tool(self, tool_id: str) -> PublishedTool:
        if self.first[tool_id] != tool_id:
            pytest.skip(f"validated by the same model as {self.first[tool_id]}")
        return self[tool_id]


@pytest.fixture(scope="module")
def tools() -> Iterator[Tools]:
    with published_tools(BUILDS) as found:
        yield Tools(found)


def _tool_ids() -> list[str]:
    return [f"{project}/{module}/{name}" for project, files in BUILDS.items()
            for module, name in golden_tools(files)]


TOOL_IDS = _tool_ids()


@functools.cache
def _validator(tool: PublishedTool) -> Draft202012Validator:
    return Draft202012Validator(tool.input_schema, offline=True)


@functools.cache
def _valid_arguments(tool: PublishedTool) -> st.SearchStrategy[Any]:
    return json_values(tool.input_schema)


@functools.cache
def _names(tool: PublishedTool) -> list[str]:
    """The Python names of the tool's model fields: worth trying as extra properties."""
    return field_names(tool.check.model if tool.check else None)


@functools.cache
def _near_misses(tool: PublishedTool) -> st.SearchStrategy[dict[str, Any]]:
    return near_misses(tool.input_schema, _names(tool))


def _schema_verdict(tool: PublishedTool, instance: Any) -> tuple[bool, str]:
    errors = list(_validator(tool).iter_errors(instance))
    return not errors, "; ".join(f"{e.instance_path}: {e.message}" for e in errors)


def _assert_agree(tool: PublishedTool, instance: dict[str, Any]) -> bool:
    """The schema and the runtime say the same of ``instance``; returns the verdict."""
    assert tool.check is not None
    args = json.loads(json.dumps(instance))  # what the runtime receives: parsed JSON
    schema_ok, schema_why = _schema_verdict(tool, args)
    runtime = tool.check.verdict(args)
    assert schema_ok == runtime.accepted, (
        f"{tool.id}: the published schema and the runtime disagree on\n"
        f"  {json.dumps(instance, ensure_ascii=False)}\n"
        f"  schema:  {'accepts' if schema_ok else 'rejects: ' + schema_why}\n"
        f"  runtime: {'accepts' if runtime.accepted else 'rejects: ' + runtime.why}")
    return schema_ok


def test_every_project_builds_and_publishes() -> None:
    assert set(BUILDS) == EXPECTED_PROJECTS
    assert len(TOOL_IDS) >= 41


def test_every_published_tool_reaches_its_runtime_check(tools: Tools) -> None:
    """Each published name leads to the object validating its calls, and that object
    publishes the same inputSchema (so the pairs below are the right ones)."""
    assert sorted(tools) == sorted(TOOL_IDS)
    for tool in tools.values():
        assert tool.check is not None, f"{tool.id}: no runtime check found"
        assert dict(tool.check.input_schema) == tool.input_schema, tool.id


@pytest.mark.parametrize("tool_id", TOOL_IDS)
@EXAMPLES
@given(data=st.data())
def test_what_the_schema_accepts_the_runtime_accepts(
        tools: Tools, tool_id: str, data: st.DataObject) -> None:
    tool = tools.the_tool(tool_id)
    instance = data.draw(_valid_arguments(tool), label="arguments")
    assert _schema_verdict(tool, instance)[0], (
        f"the strategy drew an invalid instance for {tool_id}: {instance!r}")
    assert _assert_agree(tool, instance)


@pytest.mark.parametrize("tool_id", TOOL_IDS)
@settings(EXAMPLES, max_examples=examples(80))
@given(data=st.data())
def test_near_misses_get_the_same_verdict_from_both(
        tools: Tools, tool_id: str, data: st.DataObject) -> None:
    tool = tools.the_tool(tool_id)
    _assert_agree(tool, data.draw(_near_misses(tool), label="arguments"))


@pytest.mark.parametrize("tool_id", TOOL_IDS)
# (no shrinking: a failure names the mistaken instance already, and each example checks
# thousands of them)
@settings(EXAMPLES, max_examples=examples(3), phases=[Phase.explicit, Phase.generate])
@given(data=st.data())
def test_every_single_mistake_gets_the_same_verdict_from_both(
        tools: Tools, tool_id: str, data: st.DataObject) -> None:
    """Each mistake of the fixed lists in each place of a valid instance: what random
    near misses reach only by chance in a large schema."""
    tool = tools.the_tool(tool_id)
    valid = data.draw(_valid_arguments(tool), label="valid arguments")
    verdicts = [_assert_agree(tool, instance)
                for instance in single_mistakes(tool.input_schema, valid, _names(tool))]
    assert not all(verdicts), f"{tool_id}: no mistake was a mistake; the test tests nothing"
