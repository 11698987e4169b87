"""The front end on pinned tools: warnings where someone else's schemas fall short, errors
where a spec cannot be published, the IR's published names, golden files, certification."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from project_support import make_project
from toolc.config import Config
from toolc.diagnostics import DiagnosticBag
from toolc.frontend import analyse
from toolc.ir import ProjectIR
from toolc.loader import load_text
from toolc.pipeline import build
from toolc.publish import publish_project
from toolc.report.render import render_diagnostics

SPEC = """\
toolc: 1
module: third
toolsets:
  server:
    kind: mcp
    stdio: {command: srv}
    tools:
      search:
        title: Search
        description: Search things.
        annotations: {readOnlyHint: true, x-risk: low}
        input_schema:
          type: object
          properties:
            q: {type: string, description: Words.}
            n: {type: [integer, "null"], x-order: 2}
        output_schema: {type: object, properties: {hits: {type: integer}}}
        meta: {owner: them}
        extra: {icons: [{src: "data:,"}], execution: null}
      ping:
        input_schema: {type: object}
  pre: {kind: prefixed, inner: server, prefix: tp_}
export: pre
"""


def analysed(text: str, *more: str) -> tuple[ProjectIR | None, str, DiagnosticBag]:
    files = [load_text(t, f"spec{i}.toolc.yaml") for i, t in enumerate((text, *more))]
    bag = DiagnosticBag()
    project = analyse(files, bag)
    shown = render_diagnostics(bag.sorted(), "text", {f.path: f.text for f in files})
    return project, shown, bag


def test_what_the_server_leaves_undescribed_is_a_located_warning() -> None:
    project, shown, bag = analysed(SPEC)
    assert project is not None and not bag.has_errors
    assert "spec0.toolc.yaml:16:13: warning[TC201]: property 'n' of pinned tool 'search' of " \
        "toolset 'server' has no description" in shown
    assert "spec0.toolc.yaml:17:52: warning[TC201]: property 'hits' of the `output_schema` of " \
        "pinned tool 'search' of toolset 'server' has no description" in shown
    assert "spec0.toolc.yaml:16:42: warning[TC101]: unknown keyword 'x-order'" in shown
    assert "a pinned tool is published exactly as its MCP server gives it" in shown
    assert "spec0.toolc.yaml:20:7: warning[TC201]: pinned tool 'ping' of toolset 'server' has " \
        "no description" in shown
    assert "description: Words." not in shown  # nothing said about what is described


def test_the_ir_publishes_pinned_tools_exactly_under_their_published_names() -> None:
    project, _, _ = analysed(SPEC)
    assert project is not None
    module = project.modules["third"]
    assert module.toolsets["server"].published == ("search", "ping")
    assert module.toolsets["pre"].published == ("tp_search", "tp_ping")
    assert [t.name for t in module.toolsets["server"].pinned or ()] == ["search", "ping"]
    assert module.tools == {}  # pinned tools are the server's, not the module's own
    golden = {path: json.loads(text) for path, text in publish_project(project).items()}
    assert golden["schemas/third/tp_ping.json"] == {"name": "tp_ping",
                                                    "inputSchema": {"type": "object"}}
    assert golden["schemas/third/tp_search.json"] == {
        "name": "tp_search", "title": "Search", "description": "Search things.",
        "annotations": {"readOnlyHint": True, "x-risk": "low"},
        "inputSchema": {"type": "object", "properties": {
            "q": {"type": "string", "description": "Words."},
            "n": {"type": ["integer", "null"], "x-order": 2}}},
        "outputSchema": {"type": "object", "properties": {"hits": {"type": "integer"}}},
        "_meta": {"owner": "them"}, "icons": [{"src": "data:,"}], "execution": None}


BROKEN = """\
toolc: 1
module: third
toolsets:
  server:
    kind: mcp
    http: {url: "http://h/mcp"}
    tools:
      a: {description: No schema.}
      b: {input_schema: [1], output_schema: true}
      c:
        input_schema: {type: object}
        meta: {bad: .nan}
        extra: {name: x, description: twice}
        description: Once.
"""


@pytest.mark.parametrize("expected", [
    ("spec0.toolc.yaml:8:7: error[TC102]: pinned tool 'a' of toolset 'server' has no "
    "`input_schema`"),
    ("spec0.toolc.yaml:9:25: error[TC103]: the `input_schema` of pinned tool 'b' of toolset "
    "'server' must be a mapping: MCP's inputSchema is a JSON object"),
    "spec0.toolc.yaml:9:45: error[TC103]: the `output_schema` of pinned tool 'b'",
    ("spec0.toolc.yaml:12:15: error[TC103]: `meta` of pinned tool 'c' of toolset 'server': nan "
    "is not a JSON number"),
    ("spec0.toolc.yaml:13:17: error[TC103]: `extra` of pinned tool 'c' of toolset 'server' gives "
    "`name`; the tool's name is its key"),
    ("spec0.toolc.yaml:13:26: error[TC103]: `extra` of pinned tool 'c' of toolset 'server' gives "
    "`description`, which `description` gives already"),
])
def test_what_cannot_be_published_is_a_located_error(expected: str) -> None:
    project, shown, _ = analysed(BROKEN)
    assert project is None and expected in shown


def test_a_misspelt_key_of_a_pinned_tool_is_named() -> None:
    project, shown, _ = analysed(BROKEN.replace("        description: Once.\n",
                                                "        descripton: Once.\n"))
    assert project is None
    assert "spec0.toolc.yaml:14:9: error[TC101]: unknown key 'descripton' in pinned tool 'c' " \
        "of toolset 'server'; did you mean 'description'?" in shown


MANAGER = """\
toolc: 1
module: both
toolsets:
  a: {kind: mcp, stdio: {command: a}, tools: {x: {input_schema: {}}, y: {input_schema: {}}}}
  b: {kind: mcp, stdio: {command: b}, tools: {y: {input_schema: {}}}}
  c: {kind: mcp, stdio: {command: c}}
  all: {kind: mcp_manager, servers: {one: a, two: b}}
  some: {kind: mcp_manager, servers: {one: a, three: c}}
export: all
"""


def test_a_manager_of_pinned_servers_is_known_and_refuses_a_shared_name() -> None:
    project, shown, _ = analysed(MANAGER)
    assert project is None
    assert "spec0.toolc.yaml:7:51: error[TC402]: server 'two' of toolset 'all' publishes 'y', " \
        "already published by server 'one'" in shown
    assert "combine prefixed `mcp` sets instead" in shown
    project, _, _ = analysed(MANAGER.replace("two: b", "two: c").replace(
        "export: all", "export: some"))
    assert project is not None  # a server without pinned tools: known only at run time
    assert project.modules["both"].toolsets["some"].published is None
    assert project.modules["both"].toolsets["c"].pinned is None


POLICY = '''\
import dataclasses

def drop_descriptions(ctx, tools):
    return [dataclasses.replace(t, description="rewritten") for t in tools]
'''


def test_certification_lists_pinned_tools_offline_and_catches_a_lost_description(
        tmp_path: Path) -> None:
    spec = SPEC.replace("command: srv", "command: /nonexistent/server")
    make_project(tmp_path, {"third": spec}, output="generated", python_path=["."],
                 files={"pinned_policy.py": POLICY})
    config = Config(root=tmp_path, specs=(tmp_path / "specs",), output=tmp_path / "generated",
                    python_path=(tmp_path,))
    result = build(config, check=True)
    assert result.ok, [d.message for d in result.compiled.bag if str(d.severity) == "error"]

    spec = spec.replace("export: pre", textwrap.dedent("""\
          tidy: {kind: prepared, inner: pre, prepare: pinned_policy:drop_descriptions}
        export: tidy"""))
    (tmp_path / "specs" / "third.toolc.yaml").write_text(spec)
    result = build(config, check=True)
    errors = [(d.code, d.span.line if d.span else 0, d.message) for d in result.compiled.bag
              if str(d.severity) == "error"]
    lost = ("description of 'tp_search' does not reach the wire at /description: the export "
            "passes it through toolset 'tidy' (prepare pinned_policy:drop_descriptions)")
    assert ("TC502", 23, lost) in errors  # at the toolset whose function lost it
