"""Targets in the build: which exports are checked, where each finding is said, and how
severe it is (a pinned tool's findings are the server's)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from pinned_spec import pinned_spec
from toolc.cli import main

from .conftest import Reported

SHOP = """\
toolc: 1
module: shop
{targets}
tools:
  find:
    description: Find items.
    handler: app:find
    params:
      query: {{type: string, description: What to look for., minLength: 1}}
toolsets:
  app: {{kind: function, tools: [find]}}
  main: {{kind: prefixed, inner: app, prefix: "9_"}}
export: main
"""


def test_a_module_without_targets_is_checked_for_none(check: Callable[..., Reported]) -> None:
    assert check(SHOP.format(targets="")) == []


def test_findings_are_said_at_the_keyword_and_the_prefix(
        check: Callable[..., Reported]) -> None:
    found = check(SHOP.format(targets="targets: [openai-strict, gemini]"))
    assert [(c, line, col) for c, line, col, _ in found] == [
        ("TC601", 9, 61), ("TC607", 12, 46)]
    assert "openai-strict rejects `minLength` (tool '9_find' at /properties/query)" in \
        found[0][3]
    assert found[1][3].startswith("gemini rejects the name '9_find'")  # made by the prefix


def test_a_tool_exported_twice_is_said_once(check: Callable[..., Reported]) -> None:
    other = ("toolc: 1\nmodule: desk\ntargets: [openai-strict]\ntoolsets:\n"
             "  all: {kind: combined, toolsets: [shop.main]}\nexport: all\n")
    found = check(SHOP.format(targets="targets: [openai-strict]"), other)
    assert [c for c, *_ in found] == ["TC601"]


def test_errors_stop_the_build_and_warnings_do_not(
        analysed: Callable[..., tuple[Reported, object]]) -> None:
    _, ir = analysed(SHOP.format(targets="targets: [openai-strict]"))
    assert ir is None
    _, ir = analysed(SHOP.format(targets="targets: [openai-strict]").replace(
        "minLength: 1", "oneOf: [{type: string}]"))
    assert ir is not None  # TC602 only: the SDK rewrites oneOf as anyOf


PINNED = pinned_spec("Read a file.", "{type: string, description: The path., minLength: 1}",
                     head="targets: [openai-strict]\n")


def test_what_a_target_rejects_in_a_pinned_tool_is_a_warning(
        analysed: Callable[..., tuple[Reported, object]]) -> None:
    found, ir = analysed(PINNED)
    assert [(c, line) for c, line, _, _ in found] == [("TC601", 14)]
    assert ir is not None


def test_a_module_that_names_no_targets_overrides_the_project(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "shop.toolc.yaml").write_text(SHOP.format(targets=""))
    (tmp_path / "specs" / "desk.toolc.yaml").write_text(
        SHOP.format(targets="targets: []").replace("module: shop", "module: desk"))
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolc]\nspecs = "specs"\ntargets = ["openai-strict"]\n')
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["validate", "--format", "json"])
    found = json.loads(result.stdout)["diagnostics"]
    assert [(d["code"], d["path"]) for d in found] == [("TC601", "specs/shop.toolc.yaml")]
    assert result.exit_code == 1


def test_an_unknown_target_is_said_with_the_one_meant(check: Callable[..., Reported]) -> None:
    [(code, line, _, message)] = check(SHOP.format(targets="targets: [openai-strcit]"))
    assert (code, line) == ("TC103", 3)
    assert "openai-strict" in message


def test_a_suppressed_finding_counts_as_used(check: Callable[..., Reported]) -> None:
    text = SHOP.format(targets="targets: [openai-strict]").replace(
        "minLength: 1}", "minLength: 1}  # toolc: ignore[TC601]")
    assert check(text) == []
