"""The token budget through the CLI: figures per export, the warnings, the configuration."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner
from project_support import enter, make_project
from toolc.budget import ExportBudget, definition_tokens, from_record
from toolc.cli import main
from toolc.ir import ToolIR


def spec(count: int, *, always: int = 0) -> str:
    """A module of ``count`` tools, the first ``always`` of them loaded upfront always."""
    lines = ["toolc: 1", "module: many", "tools:"]
    for i in range(count):
        lines += [f"  tool{i:03}:", f"    description: Tool number {i}, which does thing {i}.",
                  f"    handler: many_app:tool{i}",
                  "    params: {text: {type: string, description: What to work on.}}"]
        if i < always:
            lines.append("    search: {always_load: true}")
    return "\n".join(lines) + "\n"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return enter(tmp_path, monkeypatch)


def setup(project: Path, body: str, config: str = "") -> None:
    """The project of one spec, ``body``, its ``[tool.toolc]`` table ending in ``config``."""
    make_project(project, {"many": body}, extra=config)


def build_json(*extra: str) -> tuple[int, dict[str, object]]:
    result = CliRunner().invoke(main, ["build", "--no-certify", "--format", "json", *extra],
                                catch_exceptions=False)
    return result.exit_code, json.loads(result.stdout)


def codes(doc: dict[str, object]) -> list[str]:
    return [d["code"] for d in doc["diagnostics"]]  # type: ignore[attr-defined, index]


def test_the_estimate_is_a_quarter_of_the_compact_json_the_model_reads() -> None:
    tool = ToolIR("readLog", "m", "Read the log.", {"type": "object", "properties": {}},
                  span=None, output_schema={"type": "object"}, meta={"x": 1})  # type: ignore[arg-type]
    seen = '{"name":"readLog","description":"Read the log.","inputSchema":' \
           '{"type":"object","properties":{}}}'
    assert definition_tokens(tool) == math.ceil(len(seen) / 4)


def test_build_reports_each_export_in_text_and_json(project: Path) -> None:
    setup(project, spec(3, always=1))
    result = CliRunner().invoke(main, ["build", "--no-certify"], catch_exceptions=False)
    assert result.exit_code == 0
    line = next(ln for ln in result.stdout.splitlines() if ln.startswith("budget: "))
    assert line.startswith("budget: many.toolset: 3 tool(s), ~") and "(1 always loaded)" in line
    code, doc = build_json("--check")
    [figures] = doc["budget"]  # type: ignore[misc]
    assert code == 0 and figures["tools"] == 3 and figures["upfront_tools"] == 3
    assert figures["always_load_tools"] == 1
    assert figures["tokens"] == figures["upfront_tokens"] > figures["always_load_tokens"] > 0


def test_a_no_op_build_reports_the_figures_it_recorded(project: Path) -> None:
    setup(project, spec(2))
    _, first = build_json()
    result = CliRunner().invoke(main, ["build", "--no-certify", "--format", "json"])
    again = json.loads(result.stdout)
    assert again["output"]["up_to_date"] and again["budget"] == first["budget"]


def test_an_export_over_the_tool_budget_warns_at_the_export(project: Path) -> None:
    setup(project, spec(41))
    code, doc = build_json()
    assert code == 0 and codes(doc) == ["TC513"]  # 41 tools over the default of 40
    [warning] = doc["diagnostics"]  # type: ignore[misc]
    assert "has 41 tools loaded upfront (no tool search), over the budget of 40" in \
        warning["message"]
    assert warning["severity"] == "warning"


def test_the_token_budget_is_configurable_and_strict_fails_on_it(project: Path) -> None:
    setup(project, spec(5), "token-budget = 100\n")
    code, doc = build_json()
    assert code == 0 and codes(doc) == ["TC512"]
    assert doc["diagnostics"][0]["line"] == 1  # type: ignore[index]  # the implicit export
    code, _ = build_json("--strict")
    assert code == 1


def test_with_tool_search_only_always_load_tools_count_upfront(project: Path) -> None:
    setup(project, spec(45, always=2), "tool-search = true\ntool-budget = 1\n")
    code, doc = build_json()
    assert code == 0
    [figures] = doc["budget"]  # type: ignore[misc]
    assert figures["tools"] == 45 and figures["upfront_tools"] == 2
    assert figures["upfront_tokens"] == figures["always_load_tokens"]
    assert codes(doc) == ["TC513"]  # 2 always-load tools over a budget of 1
    assert "2 tools always loaded" in doc["diagnostics"][0]["message"]  # type: ignore[index]


@pytest.mark.parametrize("line", ['token-budget = "lots"', "tool-budget = -1",
                                  "tool-search = 1", "token-budget = true"])
def test_bad_budget_settings_are_configuration_errors(project: Path, line: str) -> None:
    setup(project, spec(1), line + "\n")
    result = CliRunner().invoke(main, ["build", "--no-certify"])
    key = line.split(" ")[0]
    assert result.exit_code == 1 and "error[TC901]" in result.stderr
    assert f"[tool.toolc] {key} must be" in result.stderr


def test_a_planted_record_shows_no_figures_it_cannot_hold() -> None:
    good = ExportBudget("m", "t", 1, 2, 0, 0, 1, 2)
    assert from_record([good.as_json()]) == [good]
    assert from_record([{**good.as_json(), "tokens": -5}]) is None
    assert from_record([{**good.as_json(), "extra": 1}]) is None
    assert from_record({"module": "m"}) is None


def test_a_claude_only_project_counts_deferred_tools_as_deferred(project: Path) -> None:
    """Claude's clients search MCP tools by default: 45 tools, 2 always loaded, are 2
    upfront, and no TC513 as if all 45 loaded."""
    setup(project, spec(45, always=2), 'clients = ["claude"]\n')
    code, doc = build_json()
    [figures] = doc["budget"]  # type: ignore[misc]
    assert code == 0 and codes(doc) == []
    assert figures["tools"] == 45 and figures["upfront_tools"] == 2


def test_a_client_that_loads_everything_upfront_bounds_the_budget(project: Path) -> None:
    """With openai among the clients (the default), every tool counts upfront, and the
    note says which client is why."""
    setup(project, spec(45), 'clients = ["claude", "openai"]\n')
    code, doc = build_json()
    [warning] = doc["diagnostics"]  # type: ignore[misc]
    assert code == 0 and codes(doc) == ["TC513"]
    assert "45 tools loaded upfront (no tool search)" in warning["message"]
    assert "'openai' in `clients` loads every tool upfront" in warning["notes"][0]


def test_the_project_says_otherwise_with_tool_search_false(project: Path) -> None:
    setup(project, spec(45), 'clients = ["claude"]\ntool-search = false\n')
    _, doc = build_json()
    [figures] = doc["budget"]  # type: ignore[misc]
    assert codes(doc) == ["TC513"] and figures["upfront_tools"] == 45
    assert "tool-search = false" in doc["diagnostics"][0]["message"]  # type: ignore[index]


@pytest.mark.parametrize("config", ['clients = ["claude"]\n', "tool-search = true\n"])
def test_search_for_a_few_tools_is_a_note_that_upfront_is_faster(project: Path,
                                                                 config: str) -> None:
    setup(project, spec(4), config)
    code, doc = build_json()
    [note] = doc["diagnostics"]  # type: ignore[misc]
    assert code == 0 and note["code"] == "TC514" and note["severity"] == "info"
    assert note["message"] == (
        "export 'many.toolset' has 4 tools, deferred by tool search ("
        + config.strip() + "): with fewer than about 10, loading them "
        "all upfront is faster")
    assert note["notes"] == [
        "mark them `search: {always_load: true}`, or set `tool-search = false` in [tool.toolc]"]
    assert build_json("--strict")[0] == 0  # a note, not a warning


@pytest.mark.parametrize(("count", "always", "config"), [
    (10, 0, 'clients = ["claude"]\n'),      # enough tools to search among
    (4, 4, 'clients = ["claude"]\n'),       # none deferred
    (4, 0, ""),                             # openai among the clients: no search
    (4, 0, 'clients = ["claude"]\ntool-search = false\n')])
def test_no_note_where_search_is_off_or_worth_it(project: Path, count: int, always: int,
                                                 config: str) -> None:
    setup(project, spec(count, always=always), config)
    _, doc = build_json()
    assert codes(doc) == []


def test_each_targets_views_are_counted_in_their_refs_shape(project: Path) -> None:
    address = ("{type: object, description: An address., properties: {street: {type: string,"
               " description: The street.}, city: {type: string, description: The city.}}}")
    body = ("toolc: 1\nmodule: many\ntools:\n  move:\n    description: Move.\n"
            "    handler: many_app:move\n    params:\n"
            f"      home: {address}\n      work: {address}\n")
    setup(project, body, 'targets = ["openai-strict", "gemini"]\nrefs = {gemini = "defs"}\n')
    code, doc = build_json()
    [figures] = doc["budget"]  # type: ignore[misc]
    views = figures["views"]
    schemas = project / "generated" / "schemas" / "many"
    for target in ("openai-strict", "gemini"):
        seen = json.loads((schemas / target / "move.json").read_text())
        seen = {k: seen[k] for k in ("name", "description", "inputSchema")}
        text = json.dumps(seen, separators=(",", ":"), ensure_ascii=False)
        assert views[target] == math.ceil(len(text) / 4)
    assert code == 0 and views["gemini"] < views["openai-strict"]  # hoisted, and no nulls
    result = CliRunner().invoke(main, ["build", "--no-certify"], catch_exceptions=False)
    line = next(ln for ln in result.stdout.splitlines() if ln.startswith("budget: "))
    assert line.endswith(f"; as gemini ~{views['gemini']}, openai-strict "
                         f"~{views['openai-strict']}")
