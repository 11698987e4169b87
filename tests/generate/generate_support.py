"""Helpers of the generator tests (importable: conftest puts this folder on sys.path).

A case is a folder of ``tests/fixtures/valid/<case>/``: its ``*.toolc.yaml`` specs and, in
``expected/``, the files ``generate_project`` must give for them, compared in full. To
regenerate the expected files after a deliberate change of the generator:

    TOOLC_REGEN=1 .venv/bin/python -m pytest tests/generate -q
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import strategies as st
from toolc.diagnostics import DiagnosticBag, Severity
from toolc.frontend import analyse
from toolc.ir import ProjectIR
from toolc.loader import load_file

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
FIXTURES = TESTS / "fixtures" / "valid"
TYPING = TESTS / "typing"
CASES = sorted(p.name for p in FIXTURES.iterdir() if any(p.glob("*.toolc.yaml")))


def analyse_case(case: str) -> ProjectIR:
    """spec -> the front end -> IR, exactly as ``toolc build`` does it."""
    folder = FIXTURES / case
    files = [load_file(str(p), p.name) for p in sorted(folder.glob("*.toolc.yaml"))]
    bag = DiagnosticBag()
    project = analyse(files, bag)
    errors = [str(d) for d in bag if d.severity >= Severity.ERROR]
    assert project is not None and not errors, errors
    return project


def analyse_text(text: str, path: str = "spec.toolc.yaml") -> ProjectIR:
    """One spec given as text -> IR."""
    from toolc.loader import load_text

    bag = DiagnosticBag()
    project = analyse([load_text(text, path)], bag)
    assert project is not None, [str(d) for d in bag]
    return project


def json_values(schema: Any, defs: dict[str, Any] | None = None, depth: int = 0
                ) -> st.SearchStrategy[Any]:
    """Values valid against a published JSON Schema, for the keywords the fixtures use.

    (hypothesis-jsonschema 0.23 does not work with the installed hypothesis: its object
    strategy calls an internal API that no longer exists.)
    """
    if schema is True or schema == {}:
        return st.none() | st.booleans() | st.integers() | st.text(max_size=5)
    defs = schema.get("$defs", defs or {})
    if "$ref" in schema:
        target = defs[schema["$ref"].rsplit("/", 1)[1]]
        return st.deferred(lambda: json_values(target, defs, depth + 1))
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return st.one_of([json_values(b, defs, depth) for b in schema[key]])
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "not" in schema:  # the fixtures only say "not a string"
        return st.integers() | st.none()
    kind = schema.get("type", "object" if "properties" in schema else None)
    if isinstance(kind, list):
        return st.one_of([json_values({**schema, "type": k}, defs, depth) for k in kind])
    return _by_type(kind, schema, defs, depth)


def _by_type(kind: Any, schema: dict[str, Any], defs: dict[str, Any], depth: int
             ) -> st.SearchStrategy[Any]:
    if kind == "string":
        if "pattern" in schema:
            size = schema.get("maxLength", 50)
            return st.from_regex(schema["pattern"]).filter(lambda s: len(s) <= size)
        return st.text(min_size=schema.get("minLength", 0),
                       max_size=schema.get("maxLength", 12))
    if kind in ("integer", "number"):
        low = schema.get("minimum", schema.get("exclusiveMinimum", -1000))
        high = schema.get("maximum", schema.get("exclusiveMaximum", 1000))
        step = schema.get("multipleOf", 1)
        values = st.integers(int(low // step) - 1, int(high // step) + 1).map(lambda n: n * step)
        if kind == "number" and "multipleOf" not in schema:
            values = st.floats(low, high, allow_nan=False) | values
        return values.filter(lambda v: _within(v, schema))
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "array":
        items = json_values(schema.get("items", {}), defs, depth)
        return st.lists(items, min_size=schema.get("minItems", 0),
                        max_size=schema.get("maxItems", 3 if depth < 2 else 0),
                        unique=bool(schema.get("uniqueItems")))
    if kind == "object":
        return _objects(schema, defs, depth)
    return json_values({}, defs, depth)


def _within(value: float, schema: dict[str, Any]) -> bool:
    return (value >= schema.get("minimum", value) and value <= schema.get("maximum", value)
            and value > schema.get("exclusiveMinimum", value - 1)
            and value < schema.get("exclusiveMaximum", value + 1))


def _objects(schema: dict[str, Any], defs: dict[str, Any], depth: int
             ) -> st.SearchStrategy[dict[str, Any]]:
    props = schema.get("properties", {})
    required = set(schema.get("required", []))
    fixed = st.fixed_dictionaries(
        {k: json_values(v, defs, depth + 1) for k, v in props.items() if k in required},
        optional={k: json_values(v, defs, depth + 1) for k, v in props.items()
                  if k not in required and depth < 3})
    extra = schema.get("additionalProperties", True)
    if isinstance(extra, dict) and not props:
        return st.dictionaries(st.text(min_size=1, max_size=4), json_values(extra, defs, depth),
                               max_size=schema.get("maxProperties", 3))
    return fixed


SYNTHETIC_TOOL = """toolc: 1
module: big
description: A synthetic module, as issue 6's benchmark describes its tools.
tools:
  tool0:
    description: Synthetic tool number 0.
    handler: big_app.tools:handle
    params:
      count: {type: integer, description: How many., minimum: 1, maximum: 100, default: 10}
      name: {type: string, description: A name., maxLength: 64}
      mode: {description: The mode., enum: [fast, slow, auto]}
      ratio: {type: number, description: A ratio., minimum: 0, maximum: 1, required: false}
      target:
        type: object
        description: Where to.
        properties:
          host: {type: string, description: Host name.}
          port: {type: integer, description: The port., minimum: 1, maximum: 65535}
"""


def synthetic_project(tools: int) -> ProjectIR:
    """One module of ``tools`` tools of five parameters (descriptions, an enum, bounds, a
    nested object): the front end's IR of one such tool, repeated under other names."""
    import dataclasses

    from toolc.loader import load_text

    bag = DiagnosticBag()
    project = analyse([load_text(SYNTHETIC_TOOL, "big.toolc.yaml")], bag)
    assert project is not None, [str(d) for d in bag]
    module = project.modules["big"]
    template = module.tools["tool0"]
    many = {f"tool{i}": dataclasses.replace(template, name=f"tool{i}",
                                            description=f"Synthetic tool number {i}.")
            for i in range(tools)}
    export = dataclasses.replace(module.toolsets[module.export], tools=tuple(many))
    big = dataclasses.replace(module, tools=many, toolsets={module.export: export})
    return ProjectIR({"big": big})
