"""References that cannot resolve, and schemas the runtime's engine cannot compile: refused
at the build, located (TC210-TC213)."""

from __future__ import annotations

from collections.abc import Callable

Check = Callable[..., list[tuple[str, int, int, str]]]

TOOL = "toolc: 1\nmodule: m\ntools:\n  t:\n    description: T.\n    handler: a.b:c\n"


def test_a_parameters_reference_to_nothing_is_refused_at_the_ref(check: Check) -> None:
    reported = check(TOOL + "    params:\n      x:\n        description: X.\n"
                     "        items: {$ref: '#/$defs/a'}\n")
    assert [(c, line) for c, line, _, _ in reported] == [("TC212", 10)]
    assert "published as '#/properties/x/$defs/a'" in reported[0][3]


def test_a_url_is_refused_and_nothing_else_is_said(check: Check) -> None:
    reported = check(TOOL + "    params:\n      x: {$ref: 'http://127.0.0.1:9/x.json', "
                     "description: X.}\n")
    assert [(c, line, col) for c, line, col, _ in reported] == [("TC210", 8, 17)]


def test_a_named_types_problem_is_reported_once_however_often_it_is_used(check: Check) -> None:
    reported = check("toolc: 1\nmodule: m\ntypes:\n  T:\n    description: T.\n"
                     "    items: {$ref: '#/$defs/none'}\n"
                     "tools:\n  t:\n    description: T.\n    handler: a.b:c\n"
                     "    params:\n      a: {type: T}\n      b: {type: T}\n"
                     "    returns:\n      type: object\n      properties:\n"
                     "        c: {type: T}\n")
    assert [(c, line) for c, line, _, _ in reported] == [("TC212", 6)]


def test_a_raw_schema_the_engine_cannot_compile_is_refused_at_its_ref(check: Check) -> None:
    reported = check("toolc: 1\nmodule: m\ntoolsets:\n  e:\n    kind: external\n"
                     "    tools:\n      t:\n        description: T.\n        input_schema:\n"
                     "          type: object\n          properties:\n"
                     "            p: {$ref: '#/$defs/P', description: P.}\n")
    assert [(c, line, col) for c, line, col, _ in reported] == [("TC213", 12, 23)]
    assert "Pointer '/$defs/P' does not exist" in reported[0][3]


def test_a_pinned_tools_schema_is_only_warned_about(
        analysed: Callable[..., tuple[list[tuple[str, int, int, str]], object]]) -> None:
    reported, ir = analysed(
        "toolc: 1\nmodule: m\ntoolsets:\n  s:\n    kind: mcp\n"
        "    stdio: {command: srv}\n    tools:\n      t:\n        description: T.\n"
        "        input_schema:\n          type: object\n          properties:\n"
        "            p: {$ref: 'https://example.com/p', description: P.}\n")
    assert [(c, line) for c, line, _, _ in reported] == [("TC213", 13)]
    assert ir is not None


def test_patterns_are_ecma_262_as_the_runtime_reads_them(check: Check) -> None:
    ok = check(TOOL + "    params:\n      x: {type: string, description: X., "
               "pattern: '^\\p{Letter}+$'}\n")
    assert ok == []
    reported = check(TOOL + "    params:\n      x: {type: string, description: X., "
                     "pattern: 'a\\Z'}\n"
                     "      y:\n        description: Y.\n        patternProperties:\n"
                     "          '[a-': {}\n")
    assert [(c, line) for c, line, _, _ in reported] == [("TC202", 8), ("TC202", 12)]
    assert "ECMA-262" in reported[0][3]


def test_a_default_is_judged_by_the_engine_in_its_published_document(check: Check) -> None:
    reported = check(TOOL + "    params:\n      x:\n        description: X.\n"
                     "        $defs:\n          n: {type: integer}\n"
                     "        properties:\n          n: {$ref: '#/$defs/n', description: N.}\n"
                     "        default: {n: two}\n")
    assert [(c, line) for c, line, _, _ in reported] == [("TC204", 14)]
    assert reported[0][3] == ('`default` does not fit its own schema: at /n: "two" is not of '
                              'type "integer"')


def test_a_default_with_an_unknown_property_is_refused_as_the_object_is_closed(
        check: Check) -> None:
    reported = check(TOOL + "    params:\n      x:\n        description: X.\n"
                     "        properties:\n          n: {type: integer, description: N.}\n"
                     "        default: {n: 1, m: 2}\n")
    assert [c for c, _, _, _ in reported] == ["TC204"]
