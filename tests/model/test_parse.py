"""Parsing files into models, keeping every valid part when some are broken."""

from __future__ import annotations

from toolc.loader import load_text
from toolc.model.parse import parse_module
from toolc.model.tools import ToolSpec
from toolc.model.toolsets import PrefixedToolset


def test_a_valid_file_parses_whole() -> None:
    parsed, diags = parse_module(load_text(
        "toolc: 1\nmodule: m\ntools:\n  a: {description: A.}\n"
        "toolsets:\n  p: {kind: prefixed, inner: x, prefix: y_}\nexport: p\n", "m.toolc.yaml"))
    assert diags == [] and parsed.complete
    assert parsed.name == "m" and parsed.export == "p"
    assert isinstance(parsed.tools["a"], ToolSpec)
    assert isinstance(parsed.toolsets["p"], PrefixedToolset)


def test_broken_parts_are_set_aside_and_the_rest_kept() -> None:
    parsed, diags = parse_module(load_text(
        "toolc: 1\nmodule: m\ntools:\n  a: {description: A.}\n  b: {descripton: B.}\n"
        "toolsets:\n  ok: {kind: function, tools: [a]}\n  bad: {kind: nope}\n", "m.toolc.yaml"))
    assert [d.code for d in diags] == ["TC101", "TC103"]
    assert not parsed.complete
    assert set(parsed.tools) == {"a"} and parsed.broken_tools == {"b"}
    assert set(parsed.toolsets) == {"ok"} and parsed.broken_toolsets == {"bad"}


def test_sections_that_are_not_mappings_are_unreadable() -> None:
    parsed, _ = parse_module(load_text("toolc: 1\nmodule: m\ntools: [a]\ntypes: 3\n", "m.yaml"))
    assert parsed.unreadable == {"tools", "types"}
    assert parsed.tools == {} and parsed.section("tools") == {}


def test_files_that_are_not_mappings() -> None:
    for text, code in (("", "TC102"), ("[1]", "TC103"), ("7", "TC103")):
        parsed, (d,) = parse_module(load_text(text, "m.toolc.yaml"))
        assert d.code == code and d.span is not None and (d.span.line, d.span.col) == (1, 1)
        assert parsed.name is None and parsed.raw == {}


def test_a_version_is_a_string_and_a_number_is_refused_at_its_place() -> None:
    parsed, diags = parse_module(load_text('toolc: 1\nmodule: m\nversion: "2.0"\n', "m.yaml"))
    assert diags == [] and parsed.version == "2.0"
    for written, expected in (("2.0", ('expected a version string, such as "1.2.0" (quote a '
                                       "number), got the number 2.0")),
                              ('""', "at least 1 character")):
        _, (d,) = parse_module(load_text(f"toolc: 1\nmodule: m\nversion: {written}\n", "m.yaml"))
        assert d.code == "TC103" and expected in d.message
        assert d.span is not None and (d.span.line, d.span.col) == (3, 10)
