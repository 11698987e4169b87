"""Each target's view, accepted unchanged by the provider SDK's own schema handling, over
the bundled specs' golden files and a corpus of hard schemas (tests/fixtures/views/), in
each `$ref` shape (``refs``).

- ``openai-strict``: the OpenAI Agents SDK's strict conversion (``ensure_strict_json_schema``)
  leaves the view as it is (it neither refuses nor rewrites it);
- ``anthropic-strict``: the Anthropic SDK's strict transform (``transform_schema``) leaves
  it as it is (nothing moved into a description, nothing closed, no keyword refused);
- ``gemini``: the Google Gen AI SDK's ``FunctionDeclaration`` takes it as ``parameters``
  (its ``Schema`` forbids any field it does not know), and gives back the same schema.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from toolc.runtime.dialects import TARGETS, View, lower_tool
from toolc.runtime.dialects.refs import REFS_MODES

ROOT = Path(__file__).resolve().parents[3]
HARD = ROOT / "tests" / "fixtures" / "views" / "hard.json"


def _corpus() -> list[tuple[str, dict[str, Any]]]:
    tools = [(f"bundled:{p.parent.name}/{p.stem}", json.loads(p.read_text()))
             for p in sorted((ROOT / "generated" / "schemas").glob("*/*.json"))]
    tools += [(f"hard:{t['name']}", t) for t in json.loads(HARD.read_text())["tools"]]
    return tools


CORPUS = _corpus()


def _views(target: str, modes: tuple[str, ...] = REFS_MODES) -> list[tuple[str, View]]:
    """The views of the corpus, in each `$ref` shape, that have no problem (a tool with
    one is refused by the build, which says why: never sent)."""
    return [(f"{where} refs={mode}", view) for where, tool in CORPUS for mode in modes
            if not (view := lower_tool(TARGETS[target], tool, mode)).problems]


def test_the_corpus_is_mostly_lowerable() -> None:
    """The hard corpus holds shapes each lowering must write; only a few may not be."""
    for target in TARGETS:
        assert len(_views(target, ("as-written",))) >= len(CORPUS) - 3, target


@pytest.mark.parametrize(("where", "view"), _views("openai-strict"))
def test_the_openai_agents_sdk_leaves_the_view_unchanged(where: str, view: View) -> None:
    from agents.strict_schema import ensure_strict_json_schema

    schema = view.input_schema
    assert ensure_strict_json_schema(copy.deepcopy(schema)) == schema, where


@pytest.mark.parametrize(("where", "view"), _views("anthropic-strict"))
def test_the_anthropic_sdk_leaves_the_view_unchanged(where: str, view: View) -> None:
    from anthropic.lib._parse._transform import transform_schema

    schema = view.input_schema
    assert transform_schema(copy.deepcopy(schema)) == schema, where


@pytest.mark.parametrize(("where", "view"), _views("gemini"))
def test_the_google_genai_sdk_takes_the_view(where: str, view: View) -> None:
    from google.genai import types

    declaration = types.FunctionDeclaration(name=view.tool["name"],
                                            description=view.tool.get("description"),
                                            parameters=view.input_schema)
    assert declaration.parameters is not None
    back = declaration.parameters.model_dump(mode="json", by_alias=True, exclude_none=True)
    assert _upper(back) == _upper(view.input_schema), where


def _upper(value: Any) -> Any:
    """The SDK's Type enum, spelled as the view spells it (upper case)."""
    if isinstance(value, dict):
        return {k: (v.upper() if k == "type" and isinstance(v, str) else _upper(v))
                for k, v in value.items()}
    if isinstance(value, list):
        return [_upper(v) for v in value]
    return value


def test_a_view_the_sdk_would_change_is_caught() -> None:
    """The checks above fail on a schema the SDKs rewrite: the canonical one."""
    from agents.strict_schema import ensure_strict_json_schema
    from anthropic.lib._parse._transform import transform_schema

    canonical = {"type": "object", "properties": {"a": {"type": "string", "maxLength": 3}}}
    assert ensure_strict_json_schema(copy.deepcopy(canonical)) != canonical
    assert transform_schema(copy.deepcopy(canonical)) != canonical
    from google.genai import types
    from pydantic import ValidationError

    with pytest.raises(ValidationError):  # a keyword outside its Schema
        types.FunctionDeclaration(name="t", parameters={"type": "OBJECT", "properties": {
            "a": {"type": "STRING", "const": "x"}}})
