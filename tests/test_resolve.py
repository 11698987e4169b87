"""Resolution to the IR, and the published tools, against reviewed expected files.

Each folder of ``tests/fixtures/resolve/`` holds valid specs and ``expected/``: the
published JSON of every exported tool (``<module>/<name>.json``, as the golden files are
written), ``ir.json`` (a summary of the IR: toolsets, exports, types, description spans)
and ``diagnostics.txt`` (the warnings). Regenerate with
``TOOLC_REGEN=1 .venv/bin/python -m pytest tests/test_resolve.py`` and review the diff.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from toolc.diagnostics import DiagnosticBag
from toolc.frontend import analyse
from toolc.ir import CombinedToolsetIR, MCPToolsetIR, ProjectIR, ToolIR, ToolsetIR
from toolc.loader import load_file, load_text
from toolc.report.text import diagnostics_text

RESOLVE = Path(__file__).parent / "fixtures" / "resolve"
CASES = sorted(p.name for p in RESOLVE.iterdir() if p.is_dir())
REGEN = bool(os.environ.get("TOOLC_REGEN"))


def _analyse(folder: Path) -> tuple[ProjectIR, DiagnosticBag, dict[str, str]]:
    files = [load_file(str(p), p.name) for p in sorted(folder.glob("*.toolc.yaml"))]
    bag = DiagnosticBag()
    ir = analyse(files, bag)
    assert ir is not None, diagnostics_text(bag.sorted(), {f.path: f.text for f in files})
    return ir, bag, {f.path: f.text for f in files}


def _dump(data: Any) -> str:
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _summary(ir: ProjectIR) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, m in ir.modules.items():
        out[name] = {
            "export": m.export,
            "exported": [t.name for t in m.exported_tools],
            "imports": list(m.imports),
            "type_imports": list(m.type_imports),
            "types": {t.name: {"recursive": t.recursive, "schema": t.schema}
                      for t in m.types.values()},
            "toolsets": {ts.name: {k: v for k, v in _toolset_fields(ts).items()}
                         for ts in m.toolsets.values()},
            "tools": {t.name: _tool_fields(t) for t in m.tools.values()},
        }
    return out


def _toolset_fields(ts: ToolsetIR) -> dict[str, Any]:
    fields = {"kind": ts.kind, "published": ts.published, "span": f"{ts.span.line}:{ts.span.col}"}
    own = {f.name: getattr(ts, f.name) for f in dataclasses.fields(ts)}  # the kind's keys
    for key in ("tools", "inner", "members", "prefix", "names", "servers", "stdio", "http"):
        if own.get(key):
            fields[key] = own[key]
    for key in ("predicate", "prepare", "wrapper"):
        if own.get(key) is not None:
            fields[key] = str(own[key])
    if isinstance(ts, CombinedToolsetIR):
        fields["conflicts"] = ts.conflicts
    if isinstance(ts, MCPToolsetIR):
        fields["tool_cache_ttl_ms"] = ts.tool_cache_ttl_ms
        fields["instructions"] = ts.instructions
    return fields


def _tool_fields(t: ToolIR) -> dict[str, Any]:
    return {
        "handler": str(t.handler) if t.handler else None,
        "external": t.external, "requires_approval": t.requires_approval,
        "additional_params": t.additional_params,
        "params_spec": t.params_spec, "returns_spec": t.returns_spec,
        "description_spans": {p: f"{s.line}:{s.col}" for p, s in t.description_spans.items()},
    }


def _outputs(ir: ProjectIR, bag: DiagnosticBag, sources: dict[str, str]) -> dict[str, str]:
    out = {"ir.json": _dump(_summary(ir)),
           "diagnostics.txt": diagnostics_text(bag.sorted(), sources) + "\n"}
    for m in ir.modules.values():
        for tool in m.exported_tools:
            out[f"{m.name}/{tool.name}.json"] = _dump(tool.published())
    return out


@pytest.mark.parametrize("case", CASES)
def test_resolved_project_matches_expected_files(case: str) -> None:
    folder = RESOLVE / case
    ir, bag, sources = _analyse(folder)
    outputs = _outputs(ir, bag, sources)
    expected = folder / "expected"
    if REGEN:
        for rel, text in outputs.items():
            (expected / rel).parent.mkdir(parents=True, exist_ok=True)
            (expected / rel).write_text(text, encoding="utf-8")
    found = {p.relative_to(expected).as_posix() for p in expected.rglob("*") if p.is_file()}
    assert found == set(outputs)
    for rel, text in outputs.items():
        assert (expected / rel).read_text(encoding="utf-8") == text, rel


@pytest.mark.parametrize("case", CASES)
def test_published_schemas_are_valid_json_schema(case: str) -> None:
    """Valid 2020-12, and compiled by the runtime's engine with nothing to retrieve."""

    def refuse(uri: str) -> Any:
        raise AssertionError(f"retrieval of {uri}")

    ir, _, _ = _analyse(RESOLVE / case)
    for m in ir.modules.values():
        for tool in m.tools.values():
            jsonschema_rs.meta.validate(tool.input_schema)
            jsonschema_rs.Draft202012Validator(tool.input_schema, retriever=refuse)
            assert tool.input_schema["type"] == "object"
            if tool.output_schema is not None:
                jsonschema_rs.meta.validate(tool.output_schema)
                jsonschema_rs.Draft202012Validator(tool.output_schema, retriever=refuse)
                assert tool.output_schema["type"] == "object"


def _pointer(document: Any, pointer: str) -> Any:
    for token in pointer.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        document = document[int(token)] if isinstance(document, list) else document[token]
    return document


@pytest.mark.parametrize("case", CASES)
def test_description_spans_point_at_the_text_that_is_published(case: str) -> None:
    ir, _, sources = _analyse(RESOLVE / case)
    for m in ir.modules.values():
        for tool in m.tools.values():
            published = tool.published()
            assert "/description" in tool.description_spans
            for pointer, span in tool.description_spans.items():
                line = sources[span.path].splitlines()[span.line - 1]
                written = line[span.col - 1: span.col - 1 + span.length]
                assert _pointer(published, pointer) == written, (tool.name, pointer)


def test_every_description_on_the_wire_has_a_span() -> None:
    ir, _, _ = _analyse(RESOLVE / "every-kind")
    for m in ir.modules.values():
        for tool in m.tools.values():
            assert set(_descriptions(tool.published(), "")) == set(tool.description_spans)


def _descriptions(node: Any, ptr: str) -> list[str]:
    """Pointers of every `description` keyword of a published tool (schema positions only)."""
    found = []
    if isinstance(node, dict):
        for key, value in node.items():
            here = f"{ptr}/{key.replace('~', '~0').replace('/', '~1')}"
            if key == "description" and isinstance(value, str) and not ptr.endswith("/properties"):
                found.append(here)
            else:
                found.extend(_descriptions(value, here))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            found.extend(_descriptions(item, f"{ptr}/{i}"))
    return found


def _one(text: str) -> ProjectIR:
    bag = DiagnosticBag()
    ir = analyse([load_text(text, "m.toolc.yaml")], bag)
    assert ir is not None, [d.message for d in bag]
    return ir


def test_without_export_the_module_exports_all_its_tools_as_toolset() -> None:
    ir = _one("toolc: 1\nmodule: m\ntools:\n  b: {description: B., handler: x.y:b}\n"
              "  a: {description: A., handler: x.y:a}\n")
    m = ir.modules["m"]
    assert m.export == "toolset" and m.toolsets["toolset"].kind == "function"
    assert m.toolsets["toolset"].tools == ("b", "a")
    assert [t.name for t in m.exported_tools] == ["b", "a"]


def test_implicit_export_takes_a_free_name() -> None:
    ir = _one("toolc: 1\nmodule: m\ntools:\n  a: {description: A., handler: x.y:a}\n"
              "toolsets:\n  toolset: {kind: function, tools: []}\n")
    m = ir.modules["m"]
    assert m.export == "toolset_2" and m.toolsets["toolset_2"].published == ("a",)
    assert m.toolsets["toolset"].published == ()


def test_exported_tools_carry_published_names_and_keep_the_tool() -> None:
    ir = _one("toolc: 1\nmodule: m\ntools:\n  a: {description: A., handler: x.y:a}\n"
              "toolsets:\n  f: {kind: function, tools: [a]}\n"
              "  p: {kind: prefixed, inner: f, prefix: m_}\nexport: p\n")
    m = ir.modules["m"]
    (exported,) = m.exported_tools
    assert exported.name == "m_a" and exported.published()["name"] == "m_a"
    assert m.tools["a"].name == "a" and exported.handler == m.tools["a"].handler


def test_an_export_built_on_mcp_is_unknown_but_its_known_tools_are_exported() -> None:
    ir = _one("toolc: 1\nmodule: m\ntools:\n  a: {description: A., handler: x.y:a}\n"
              "toolsets:\n  f: {kind: function, tools: [a]}\n"
              "  s: {kind: mcp, http: {url: 'http://127.0.0.1:1/mcp'}}\n"
              "  all: {kind: combined, toolsets: [f, s]}\nexport: all\n")
    m = ir.modules["m"]
    assert m.toolsets["all"].published is None and m.toolsets["s"].published is None
    assert [t.name for t in m.exported_tools] == ["a"]


def test_yaml_1_2_words_stay_strings_on_the_wire() -> None:
    ir = _one("toolc: 1\nmodule: m\ntools:\n  t:\n    description: T.\n    handler: x.y:t\n"
              "    params:\n      a: {description: A., enum: [yes, no, on, off, true]}\n")
    enum = ir.modules["m"].tools["t"].input_schema["properties"]["a"]["enum"]
    assert enum == ["yes", "no", "on", "off", True]
