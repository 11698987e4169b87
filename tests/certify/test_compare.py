"""Certification catches each known way of losing a description on the way to the wire.

Each case serves a toolset through the real mcp Server and Client in-process, and each
fails without the check it names: the wire differs from the spec only in where (or
whether) a description stands.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Annotated, Any, Optional

import anyio
import project_support
import pytest
from pydantic import BaseModel, ConfigDict, Field
from toolc import runtime as rt
from toolc.certify.compare import certify_build, compare_tool, list_over_mcp
from toolc.config import Config
from toolc.diagnostics import DiagnosticBag
from toolc.frontend import compile_specs
from toolc.ir import ProjectIR, ToolIR
from toolc.pipeline import render_outputs

SPEC = """\
toolc: 1
module: logs
types:
  Severity:
    description: How serious a log line is.
    enum: [debug, info, warning, error]
tools:
  readLog:
    description: Return the newest lines of the server log.
    handler: logs_app:read_log
    params:
      lines: {type: integer, description: How many lines to return., default: 50}
      level: {type: Severity, required: false}
      note:
        type: string
        description: A remark kept with the request.
        nullable: true
        required: false
"""


def make_project(tmp_path: Path, spec: str = SPEC, extra: str = "",
                 modules: dict[str, str] | None = None) -> tuple[Config, ProjectIR]:
    # (references are looked up in the sources: the handler is there, never imported;
    # `broken_module` is there too, and raises when certification imports it)
    sources = {"logs_app": "def read_log(ctx, lines): ...\ndef dig(ctx, **kw): ...\n",
               "broken_module": "raise RuntimeError('broken at import')\ndef blank(): ...\n",
               **(modules or {})}
    project_support.make_project(tmp_path, {"logs": spec + extra}, python_path=["."], files={
        f"{name}.py": textwrap.dedent(source) for name, source in sources.items()})
    config = Config(root=tmp_path, specs=(tmp_path / "specs",), output=tmp_path / "generated",
                    python_path=(tmp_path,))
    compiled = compile_specs(config)
    assert compiled.project is not None, [d.message for d in compiled.bag]
    return config, compiled.project


def tool_ir(project: ProjectIR) -> ToolIR:
    [tool] = project.modules["logs"].exported_tools
    return tool


def wire_of(input_schema: dict[str, Any], tool: ToolIR) -> dict[str, Any]:
    """What a real client lists when a converter produced ``input_schema`` for ``tool``."""

    class Params(BaseModel):
        model_config = ConfigDict(extra="allow")

    served = rt.FunctionToolset([rt.Tool(tool.name, tool.description, params_model=Params,
                                         handler=lambda ctx, **kw: "", input_schema=input_schema)])
    [listed] = anyio.run(list_over_mcp, served)
    return listed


def lost(bag: DiagnosticBag) -> list[tuple[str, int, str]]:
    return [(d.code, d.span.line if d.span else 0, d.message) for d in bag.sorted()
            if d.code == "TC502"]


def test_a_faithful_build_certifies_clean(tmp_path: Path) -> None:
    config, project = make_project(tmp_path)
    bag = DiagnosticBag()
    certify_build(config, project, render_outputs(project), bag)
    assert list(bag) == []


def test_description_nested_in_an_anyof_branch_is_lost(tmp_path: Path) -> None:
    _, project = make_project(tmp_path)
    tool = tool_ir(project)

    class Converted(BaseModel):  # the pydantic pattern that hides the description
        lines: int = Field(50, description="How many lines to return.")
        level: Optional[Annotated[str, Field(description="How serious a log line is.")]] = None  # noqa: UP045
        note: Optional[Annotated[str, Field(description="A remark kept with the request.")]] = None  # noqa: UP045

    schema = Converted.model_json_schema()
    assert "description" not in schema["properties"]["note"]  # the converter's loss
    bag = DiagnosticBag()
    compare_tool(tool, wire_of(schema, tool), None, bag)
    found = lost(bag)
    pointers = [m.split(" at ")[-1] for _, _, m in found]
    assert "/inputSchema/properties/note/description" in pointers
    assert "/inputSchema/properties/level/description" in pointers
    note = next(d for d in bag if d.message.endswith("/note/description"))
    assert note.span is not None and note.span.line == 16  # the spec's own description
    assert any("only inside the branch /inputSchema/properties/note/anyOf/0" in n
               for n in note.notes)


def test_description_beside_a_ref_is_lost(tmp_path: Path) -> None:
    _, project = make_project(tmp_path)
    tool = tool_ir(project)
    schema = {
        "type": "object",
        "properties": {
            "lines": tool.input_schema["properties"]["lines"],
            "level": {"$ref": "#/$defs/Severity", "description": "How serious a log line is."},
            "note": tool.input_schema["properties"]["note"],
        },
        "$defs": {"Severity": {"enum": ["debug", "info", "warning", "error"]}},
        "additionalProperties": False,
    }
    bag = DiagnosticBag()
    compare_tool(tool, wire_of(schema, tool), None, bag)
    [(_, line, message)] = lost(bag)
    assert message.endswith("/inputSchema/properties/level/description")
    assert line == 5  # the named type's description: the property has none of its own
    [d] = [d for d in bag if d.code == "TC502"]
    assert any("$ref" in n for n in d.notes)


def test_named_type_description_dropped_by_a_converter_is_lost(tmp_path: Path) -> None:
    _, project = make_project(tmp_path)
    tool = tool_ir(project)
    schema = dict(tool.input_schema)
    schema["properties"] = dict(schema["properties"])
    level = dict(schema["properties"]["level"])
    del level["description"]  # the type's description never copied onto the property
    schema["properties"]["level"] = level
    bag = DiagnosticBag()
    compare_tool(tool, wire_of(schema, tool), None, bag)
    assert [(c, line) for c, line, _ in lost(bag)] == [("TC502", 5)]


BLANKING_PREPARE = """
    from dataclasses import replace

    def blank(ctx, tools):
        return [replace(t, description="") for t in tools]
"""

REWRITING_WRAPPER = """
    from dataclasses import replace
    from toolc.runtime import WrapperToolset

    class Rewrite(WrapperToolset):
        async def list_tools(self, ctx):
            tools = await super().list_tools(ctx)
            out = []
            for t in tools:
                schema = dict(t.input_schema)
                props = {k: dict(v) for k, v in schema["properties"].items()}
                props["lines"]["description"] = "Lines."
                schema["properties"] = props
                out.append(replace(t, input_schema=schema))
            return out
"""


@pytest.mark.parametrize(
    ("toolsets", "module", "source", "pointer", "line", "cause"),
    [
        ("  tidy: {kind: prepared, inner: base, prepare: logs_prepare:blank}\n",
         "logs_prepare", BLANKING_PREPARE, "/description", 9, "prepare logs_prepare:blank"),
        ("  tidy: {kind: wrapper, inner: base, wrapper: logs_wrapper:Rewrite}\n",
         "logs_wrapper", REWRITING_WRAPPER, "/inputSchema/properties/lines/description", 12,
         "wrapper logs_wrapper:Rewrite"),
    ],
    ids=["prepare-blanks", "wrapper-rewrites"],
)
def test_user_code_that_rewrites_a_description_is_caught(
    tmp_path: Path, toolsets: str, module: str, source: str, pointer: str, line: int,
    cause: str
) -> None:
    extra = "toolsets:\n  base: {kind: function, tools: [readLog]}\n" + toolsets + "export: tidy\n"
    config, project = make_project(tmp_path, extra=extra, modules={module: source})
    bag = DiagnosticBag()
    certify_build(config, project, render_outputs(project), bag)
    found = lost(bag)
    assert [(code, ln) for code, ln, _ in found] == [("TC502", 21)]  # at the toolset 'tidy'
    assert found[0][2] == (f"description of 'readLog' does not reach the wire at {pointer}: "
                           f"the export passes it through toolset 'tidy' ({cause})")
    [d] = [d for d in bag if d.code == "TC502"]
    assert d.notes[0] == f"'readLog' at {pointer} (spec line {line})"


def test_other_differences_are_located_at_the_tool(tmp_path: Path) -> None:
    _, project = make_project(tmp_path)
    tool = tool_ir(project)
    schema = dict(tool.input_schema, required=["lines"])
    bag = DiagnosticBag()
    compare_tool(tool, wire_of(schema, tool), None, bag)
    [d] = list(bag)
    assert d.code == "TC501" and "/inputSchema/required" in d.message
    assert d.span is not None and d.span.line == tool.span.line


def test_a_module_that_cannot_be_served_is_a_located_error(tmp_path: Path) -> None:
    extra = ("toolsets:\n  base: {kind: function, tools: [readLog]}\n"
             "  tidy: {kind: prepared, inner: base, prepare: broken_module:blank}\n"
             "export: tidy\n")
    config, project = make_project(tmp_path, extra=extra)
    bag = DiagnosticBag()
    certify_build(config, project, render_outputs(project), bag)
    [d] = list(bag)
    assert d.code in ("TC503", "TC501")
    assert "broken_module" in d.message or any("broken_module" in n for n in d.notes)


def test_identical_on_the_wire_but_not_in_the_golden_file(tmp_path: Path) -> None:
    _, project = make_project(tmp_path)
    tool = tool_ir(project)
    got = wire_of(dict(tool.input_schema), tool)
    golden = render_outputs(project)["schemas/logs/readLog.json"]
    for same in (golden, golden.replace("\n", "").replace("  ", "")):  # any JSON layout
        bag = DiagnosticBag()
        compare_tool(tool, got, same, bag)
        assert list(bag) == []
    bag = DiagnosticBag()
    compare_tool(tool, got, golden.replace("How many lines", "How many rows"), bag)
    [d] = list(bag)
    assert d.code == "TC501" and "differs from its golden file" in d.message


def test_every_module_is_certified_in_one_run_and_a_broken_one_does_not_stop_the_rest(
    tmp_path: Path,
) -> None:
    config, _ = make_project(tmp_path)
    for name in ("alpha", "beta"):
        (tmp_path / "specs" / f"{name}.toolc.yaml").write_text(
            SPEC.replace("module: logs", f"module: {name}"))
    (tmp_path / "specs" / "broken.toolc.yaml").write_text(
        SPEC.replace("module: logs", "module: broken") + "toolsets:\n"
        "  base: {kind: function, tools: [readLog]}\n"
        "  tidy: {kind: prepared, inner: base, prepare: broken_module:blank}\nexport: tidy\n")
    project = compile_specs(config).project
    assert project is not None and len(project.modules) == 4
    files = render_outputs(project)
    bag = DiagnosticBag()
    certify_build(config, project, files, bag)
    assert {d.code for d in bag} <= {"TC503", "TC501"} and len(list(bag)) == 1
    # A module whose wire differs after the broken one is still compared.
    tampered = dict(files)
    tampered["schemas/logs/readLog.json"] = "{}"
    bag = DiagnosticBag()
    certify_build(config, project, tampered, bag)
    assert any("readLog' on the wire differs from its golden file" in d.message for d in bag)


APPROVAL_SPEC = """\
toolc: 1
module: logs
tools:
  purge:
    description: Delete old log files.
    handler: logs_app:purge
    requires_approval: true
    meta: {com.example/owner: ops}
  rotate:
    description: Start a new log file.
    handler: logs_app:rotate
toolsets:
  own: {kind: function, tools: [purge]}
  plain: {kind: function, tools: [rotate]}
  gated: {kind: approval_required, inner: plain}
  all: {kind: combined, toolsets: [own, gated]}
export: all
"""


def test_approval_is_published_and_listed_alike_through_a_real_client(tmp_path: Path) -> None:
    config, project = make_project(tmp_path, APPROVAL_SPEC, modules={
        "logs_app": "def purge(ctx):\n    return 'gone'\n\ndef rotate(ctx):\n    return 'new'\n"})
    files = render_outputs(project)
    golden = {t.name: t.published()["_meta"] for t in project.modules["logs"].exported_tools}
    assert golden == {"purge": {"com.example/owner": "ops", "toolc/requiresApproval": True},
                      "rotate": {"toolc/requiresApproval": True}}
    assert '"toolc/requiresApproval": true' in files["schemas/logs/rotate.json"]
    bag = DiagnosticBag()
    certify_build(config, project, files, bag)  # lists over a real mcp Client, compares
    assert list(bag) == []


SEARCH_SPEC = """\
toolc: 1
module: logs
tools:
  tail:
    description: Show the newest log lines.
    handler: logs_app:tail
    search: {always_load: true, hint: log tail newest lines}
    meta: {com.example/owner: ops, anthropic/searchHint: log tail newest lines}
"""


def test_search_keys_are_published_in_meta_and_listed_alike(tmp_path: Path) -> None:
    config, project = make_project(tmp_path, SEARCH_SPEC,
                                   modules={"logs_app": "def tail(ctx):\n    return ''\n"})
    [tool] = project.modules["logs"].exported_tools
    assert tool.published()["_meta"] == {"com.example/owner": "ops",
                                         "anthropic/searchHint": "log tail newest lines",
                                         "anthropic/alwaysLoad": True}
    bag = DiagnosticBag()
    certify_build(config, project, render_outputs(project), bag)
    assert list(bag) == []


CONTEXT_SPEC = """\
toolc: 1
module: logs
tools:
  tail:
    description: Show the newest log lines.
    handler: logs_app:tail
toolsets:
  plain: {kind: function, tools: [tail]}
  shown: {kind: prepared, inner: plain, prepare: logs_app:prepare}
export: shown
certify:
  contexts:
    - {name: guest, deps: logs_app:guest}
    - {name: admin, deps: logs_app:admin}
"""

CONTEXT_APP = """\
import dataclasses

def tail(ctx):
    return ''

def prepare(ctx, tools):
    # Guests see the tool, but not what it does: the bug certification must catch.
    if ctx.deps == "guest":
        return [dataclasses.replace(t, description="") for t in tools]
    return tools

def guest():
    return "guest"

async def admin():
    return "admin"
"""


def test_a_description_lost_under_a_declared_context_names_it(tmp_path: Path) -> None:
    config, project = make_project(tmp_path, CONTEXT_SPEC, modules={"logs_app": CONTEXT_APP})
    assert [c for c, _ in project.modules["logs"].certify_contexts] == ["guest", "admin"]
    bag = DiagnosticBag()
    certify_build(config, project, render_outputs(project), bag)  # the default one is clean
    assert [(d.code, d.span.line if d.span else 0, d.message) for d in bag.sorted()] == [
        ("TC502", 9, ("description of 'tail' does not reach the wire at /description: the "
                     "export passes it through toolset 'shown' (prepare logs_app:prepare) "
                     "under context 'guest'"))]


def test_a_context_whose_factory_fails_is_a_located_error(tmp_path: Path) -> None:
    # Another module name: the first test's logs_app is imported in this process already.
    app = CONTEXT_APP.replace('return "guest"', 'raise RuntimeError("no guest here")')
    spec = CONTEXT_SPEC.replace("logs_app:", "logs_failing_app:")
    config, project = make_project(tmp_path, spec, modules={"logs_failing_app": app})
    bag = DiagnosticBag()
    certify_build(config, project, render_outputs(project), bag)
    [problem] = bag.sorted()
    assert problem.code == "TC503" and "under context 'guest'" in problem.message
    assert "no guest here" in problem.message


def test_the_forked_certifier_certifies_under_each_context_too(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner
    from toolc.cli import main

    make_project(tmp_path, CONTEXT_SPEC.replace("logs_app:", "logs_cli_app:"),
                 modules={"logs_cli_app": CONTEXT_APP})  # a module no other test imported
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CI", raising=False)
    result = CliRunner().invoke(main, ["build"], catch_exceptions=False)
    assert result.exit_code == 1
    assert ("error[TC502]: description of 'tail' does not reach the wire at /description: "
            "the export passes it through toolset 'shown' (prepare logs_cli_app:prepare) under "
            "context 'guest'") in result.stdout
    assert "context 'admin'" not in result.stdout

@pytest.mark.parametrize("keyword", ["items", "additionalProperties"])
def test_a_tool_nested_to_the_depth_bound_certifies_through_a_real_client(
        tmp_path: Path, keyword: str) -> None:
    from toolc.loader import MAX_DEPTH

    schema = "{type: string, description: The bottom.}"
    for _ in range(MAX_DEPTH - 5):  # the deepest the loader lets a parameter nest
        kind = "array" if keyword == "items" else "object"
        schema = f"{{type: {kind}, description: A level., {keyword}: {schema}}}"
    spec = ("toolc: 1\nmodule: logs\ntools:\n  dig:\n    description: Dig.\n"
            f"    handler: logs_app:dig\n    params:\n      path: {schema}\n")
    config, project = make_project(tmp_path, spec)
    bag = DiagnosticBag()
    certify_build(config, project, render_outputs(project), bag)
    assert list(bag) == []


MANY = """\
toolc: 1
module: desk
tools:
""" + "".join(f"""  t{i}:
    description: Tool {i}.
    handler: desk_app:t{i}
    params:
      a: {{type: string, description: A of {i}.}}
""" for i in range(3)) + """toolsets:
  base: {kind: function, tools: [t0, t1, t2]}
  tidy: {kind: prepared, inner: base, prepare: desk_blank:blank}
export: tidy
"""


def test_a_prepare_that_blanks_every_tool_is_one_diagnostic_naming_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner
    from toolc.cli import main

    handlers = "".join(f"def t{i}(ctx, a): ...\n" for i in range(3))
    make_project(tmp_path, MANY.replace("toolc: 1\nmodule: desk", "toolc: 1\nmodule: logs"),
                 modules={"desk_app": handlers, "desk_blank": BLANKING_PREPARE})
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CI", raising=False)
    result = CliRunner().invoke(main, ["build"], catch_exceptions=False)
    assert result.exit_code == 1
    out = result.stdout
    assert out.count("[TC502]") == 1
    assert ("specs/logs.toolc.yaml:21:3: error[TC502]: 3 descriptions of 3 tool(s) ('t0', "
            "'t1', 't2') do not reach the wire: the export passes them through toolset "
            "'tidy' (prepare desk_blank:blank)") in out
    assert "= note: 't1' at /description (spec line 10)" in out
