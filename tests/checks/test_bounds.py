"""TC230/TC231: how deep and how large a tool is once published, named types written out."""

from __future__ import annotations

import ast
from collections.abc import Callable

import pytest
from toolc.checks import bounds
from toolc.checks.bounds import MAX_PUBLISHED_NODES
from toolc.diagnostics import SpecError
from toolc.generate import generate_project
from toolc.loader import MAX_DEPTH, load_text
from toolc.publish import publish_project

Reported = list[tuple[str, int, int, str]]

HEAD = "toolc: 1\nmodule: m\n"
TOOL = "tools:\n  dig:\n    description: Dig.\n    handler: app:dig\n    params:\n"


def _chain(count: int, body: str = "{{type: array, description: L., items: {{type: T{next}}}}}",
           ) -> str:
    """Types T0..T<count>, each written with ``body``; a tool whose parameter is a T0."""
    lines = [HEAD + "types:"]
    lines += [f"  T{i}: " + body.format(next=i + 1) for i in range(count)]
    lines.append(f"  T{count}: {{type: string, description: The bottom.}}")
    return "\n".join(lines) + "\n" + TOOL + "      p: {type: T0, description: P.}\n"


def test_a_chain_of_types_too_deep_when_written_out_is_one_located_error(
        check: Callable[..., Reported]) -> None:
    reported = check(_chain(31))
    assert [(code, line) for code, line, _, _ in reported] == [("TC230", 33)]
    assert "tool 'dig' nests deeper than 64 levels" in reported[0][3]


def test_a_chain_of_thousands_of_types_or_aliases_is_one_error_not_a_recursion_error(
        check: Callable[..., Reported]) -> None:
    reported = check(_chain(3000))
    assert [code for code, *_ in reported] == ["TC230"]
    aliases = check(_chain(3000, "{{type: T{next}}}"))
    assert [code for code, *_ in aliases] == ["TC230"]


def test_types_that_double_at_each_level_are_too_large_not_exponential(
        check: Callable[..., Reported]) -> None:
    # 2^40 nodes once written out: this took forever and all the memory before.
    body = "{{type: object, description: T., properties: {{a: {{type: T{next}}}, b: {{type: T{next}}}}}}}"
    reported = check(_chain(40, body))
    assert {code for code, *_ in reported} <= {"TC230", "TC231"} and reported
    shallow = check(_chain(18, body))
    assert [code for code, *_ in shallow] == ["TC231"]
    assert f"more than {MAX_PUBLISHED_NODES:,}" in shallow[0][3]


def test_direct_nesting_past_the_bound_is_refused_by_the_loader() -> None:
    # 120 nested arrays passed and generated a module that did not parse; 150 raised
    # RecursionError.
    for depth in (120, 150):
        schema = "{type: string, description: x}"
        for _ in range(depth):
            schema = "{type: array, description: a, items: " + schema + "}"
        with pytest.raises(SpecError) as exc:
            load_text(HEAD + TOOL + f"      p: {schema}\n", "m.toolc.yaml")
        assert [d.code for d in exc.value.diagnostics] == ["TC004"]


@pytest.mark.parametrize("keyword", ["items", "additionalProperties", "nullable"])
def test_at_the_bound_the_module_generates_and_parses(
        keyword: str, analysed: Callable[..., tuple[Reported, object]]) -> None:
    schema = "{type: string, description: x}"
    levels = {"items": MAX_DEPTH - 5, "additionalProperties": MAX_DEPTH - 5,
              "nullable": (MAX_DEPTH - 4) // 3}[keyword]
    for _ in range(levels):
        if keyword == "items":
            schema = "{type: array, description: a, items: " + schema + "}"
        elif keyword == "nullable":
            schema = "{type: array, description: a, nullable: true, items: " + schema + "}"
        else:
            schema = "{type: object, description: a, additionalProperties: " + schema + "}"
    reported, ir = analysed(HEAD + TOOL + f"      p: {schema}\n")
    assert reported == [] and ir is not None
    files = generate_project(ir)  # type: ignore[arg-type]
    ast.parse(files["m.py"])
    publish_project(ir)  # type: ignore[arg-type]



def test_a_raw_schema_names_no_types_to_write_out(check: Callable[..., Reported]) -> None:
    # An external tool's `type: T0` is JSON Schema as written, not a reference to T0: the
    # chain of types is within the bound where the tool uses it, and would not be six
    # levels deeper in the external schema.
    nested = "{p: {type: T0}}"
    for name in ("a", "b", "c"):
        nested = f"{{{name}: {{type: object, properties: {nested}}}}}"
    spec = _chain(29).replace("tools:\n  dig:", "toolsets:\n  ext:\n    kind: external\n"
                              "    tools:\n      far:\n        description: Far.\n"
                              "        input_schema: {type: object, properties: "
                              f"{nested}}}\ntools:\n  dig:")
    assert [code for code, *_ in check(spec) if code.startswith("TC23")] == []


def test_a_large_type_used_by_many_tools_is_bounded_for_the_whole_project(
        check: Callable[..., Reported], monkeypatch: pytest.MonkeyPatch) -> None:
    # A type of some 33,000 nodes is within the bound of one tool; 200 tools using it
    # would publish 6.5 million nodes from a spec of a few hundred lines. (The bound is
    # lowered here so that the tools under it are written out quickly.)
    monkeypatch.setattr(bounds, "MAX_PROJECT_NODES", 200_000)
    body = ("{{type: object, description: T., properties: "
            "{{a: {{type: T{next}}}, b: {{type: T{next}}}}}}}")
    spec = _chain(12, body)
    tools = "".join(f"  dig{i}:\n    description: Dig.\n    handler: app:dig\n    params:\n"
                    f"      p: {{type: T0, description: P.}}\n" for i in range(200))
    reported = check(spec.replace("tools:\n", "tools:\n" + tools, 1))
    assert [code for code, *_ in reported] == ["TC231"]
    assert "together" in reported[0][3] and "200,000" in reported[0][3]
