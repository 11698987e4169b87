"""conformance/run_suite.py: its report is complete and its classification is right.

The harness runs as a user runs it (a subprocess, the real `toolc build`, a real MCP
client), on vendored suite files and on hand-made ones whose labels are known to be
wrong, so that a disagreement the harness failed to see would fail here. No network:
`--suite` points at local files.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
HARNESS = ROOT / "conformance" / "run_suite.py"
VENDORED = ROOT / "tests" / "fixtures" / "conformance"
TOOLC = Path(sys.executable).parent / "toolc"

sys.path.insert(0, str(ROOT / "conformance"))
_WRITE_BYTECODE, sys.dont_write_bytecode = sys.dont_write_bytecode, True  # nothing into the repo
import calls
import report
import translate

sys.dont_write_bytecode = _WRITE_BYTECODE


def run_harness(suite: Path, out: Path, *extra: str) -> tuple[int, dict[str, Any], str]:
    proc = subprocess.run(
        [sys.executable, str(HARNESS), "--suite", str(suite), "--toolc", str(TOOLC),
         "--json", str(out / "report.json"), "--markdown", str(out / "report.md"), *extra],
        capture_output=True, text=True, timeout=300, check=False,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert (out / "report.json").exists(), proc.stderr
    return proc.returncode, json.loads((out / "report.json").read_text()), proc.stdout


@pytest.fixture(scope="module")
def vendored(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, dict[str, Any], str]:
    return run_harness(VENDORED, tmp_path_factory.mktemp("vendored"))


def test_every_group_and_instance_of_the_vendored_files_is_accounted_for(
    vendored: tuple[int, dict[str, Any], str],
) -> None:
    code, report, table = vendored
    suite = {p.name: json.loads(p.read_text()) for p in (VENDORED / "draft2020-12").glob("*.json")}
    by_file = {s["file"]: s for s in report["files"]}
    assert set(by_file) == set(suite)
    for name, groups in suite.items():
        s = by_file[name]
        assert s["groups"] == len(groups) == s["built"] + s["refused"] + s["unexpressible"]
        called = sum(len(g["tests"]) for g, rec in zip(groups, _records(report, name), strict=False)
                     if rec["status"] == "built")
        assert s["instances"] == called == sum(s["classes"].values())
        assert name in table
    classes = {r["class"] for r in report["disagreements"]}
    assert classes <= set(calls.CLASSES)
    assert code == (1 if report["totals"]["disagreements"] else 0)


def _records(report: dict[str, Any], name: str) -> list[dict[str, Any]]:
    return sorted((g for g in report["groups"] if g["file"] == name), key=lambda g: g["index"])


def test_a_file_the_runtime_agrees_with_is_total_agreement(
    vendored: tuple[int, dict[str, Any], str],
) -> None:
    _, report, _ = vendored
    enum = next(s for s in report["files"] if s["file"] == "enum.json")
    assert enum["built"] == enum["groups"] == 14
    assert enum["classes"]["agree"] == enum["instances"] == 45
    assert not [r for r in report["disagreements"] if r["file"] == "enum.json"]
    # the published schema of `x` is the suite's own, keyword for keyword, but for objects
    # the harness keeps open in so many words where toolc would close them
    differs = [d for g in _records(report, "enum.json") for d in g.get("published_differs", [])]
    assert all(d.endswith("/additionalProperties: added true") for d in differs), differs


def _write_suite(folder: Path, groups: list[dict[str, Any]]) -> Path:
    (folder / "draft2020-12").mkdir(parents=True)
    (folder / "draft2020-12" / "handmade.json").write_text(json.dumps(groups))
    return folder


def test_mislabelled_instances_refusals_and_unexpressible_groups_are_reported(
    tmp_path: Path,
) -> None:
    suite = _write_suite(tmp_path / "suite", [
        {"description": "typed maxLength", "schema": {"type": "string", "maxLength": 2},
         "tests": [
             {"description": "short, rightly valid", "data": "f", "valid": True},
             {"description": "too long, labelled valid", "data": "foo", "valid": True},
             {"description": "short, labelled invalid", "data": "fo", "valid": False},
             {"description": "not a string, rightly invalid", "data": 3, "valid": False},
         ]},
        {"description": "refused at build", "schema": {"maxLength": -1},
         "tests": [{"description": "never called", "data": "", "valid": True}]},
        {"description": "cannot be written", "schema": {"frobnicate": 1},
         "tests": [{"description": "never called", "data": "", "valid": True}]},
    ])
    code, report, _ = run_harness(suite, tmp_path)
    assert code == 1
    got = {(r["test"], r["class"]) for r in report["disagreements"]}
    assert got == {("too long, labelled valid", "valid-refused"),
                   ("short, labelled invalid", "invalid-reached-handler")}
    assert report["files"][0]["classes"]["agree"] == 2
    built, refused, unexpressible = _records(report, "handmade.json")
    assert built["status"] == "built" and not built.get("published_differs")
    assert refused["status"] == "refused" and refused["located"]
    diag = refused["diagnostics"][0]
    assert diag["code"] == "TC202" and diag["line"] and diag["col"] and diag["tool_line"] >= 1
    assert unexpressible["status"] == "unexpressible"
    assert "unknown keyword 'frobnicate'" in unexpressible["reason"]
    assert "valid-refused" in (tmp_path / "report.md").read_text()


def test_a_suite_that_agrees_exits_zero(tmp_path: Path) -> None:
    suite = _write_suite(tmp_path / "suite", [
        {"description": "properties, optional", "schema": {
            "type": "object", "properties": {"a": {"type": "integer"}}},
         "tests": [{"description": "absent is fine", "data": {}, "valid": True},
                   {"description": "wrong type", "data": {"a": "x"}, "valid": False}]},
    ])
    code, report, _ = run_harness(suite, tmp_path)
    assert (code, report["totals"]["disagreements"]) == (0, 0)
    # `properties` alone requires nothing: the translation says `required: false`, and the
    # published schema is the suite's, with no `required` list made up (and, where toolc
    # would close the object, kept open in so many words)
    published = report["groups"][0]["published"]
    assert published.pop("additionalProperties", True) is True
    assert published == {"type": "object", "properties": {"a": {"type": "integer"}}}


@pytest.mark.parametrize(("valid", "ran", "received", "is_error", "text", "expected"), [
    (True, True, {"a": 1}, False, "", "agree"),
    (True, True, {"a": 1.0}, False, "", "agree"),          # the same JSON number
    (True, True, {"a": True}, False, "", "valid-changed"),  # a boolean is no number
    (True, True, {}, False, "", "valid-changed"),
    (False, True, {"a": 1}, False, "", "invalid-reached-handler"),
    (True, False, None, True, "Invalid arguments:\n- x: bad", "valid-refused"),
    (False, False, None, True, "Invalid arguments:\n- x: bad", "agree"),
    (False, False, None, True, "g0 failed: RecursionError: deep", "crash"),
    (True, False, None, False, "", "crash"),               # success, yet the handler never ran
])
def test_classification(valid: bool, ran: bool, received: Any, is_error: bool, text: str,
                        expected: str) -> None:
    assert calls.classify(valid, ran, received, {"a": 1}, is_error, text) == expected


def test_translation_makes_properties_optional_and_records_what_it_cannot_say() -> None:
    t = translate.translate({"properties": {"a": {}, "b": True}, "not": {"properties": {"c": {}}}})
    assert t.schema["required"] == [] and t.approximations  # `b: true` cannot say it
    assert t.schema["not"]["properties"]["c"] == {"required": False}
    assert translate.translate({"nullable": True}).unexpressible
    assert translate.translate({"enum": [{"nullable": 1, "foo": 2}]}).unexpressible == []


def test_comparison_with_a_baseline_names_what_was_fixed_and_what_broke() -> None:
    old = {"group_status": {"a.json#0": "built", "a.json#1": "refused"},
           "outcomes": {"a.json#0/0": "agree", "a.json#0/1": "crash+api-raised",
                        "a.json#0/2": "valid-refused", "a.json#0/3": "crash+network",
                        "b.json#0/0": "crash"}}
    new = {"files": [{"file": "a.json"}],
           "group_status": {"a.json#0": "built", "a.json#1": "built"},
           "outcomes": {"a.json#0/0": "invalid-reached-handler", "a.json#0/1": "agree",
                        "a.json#0/2": "crash", "a.json#0/3": "crash",
                        "a.json#1/0": "agree"}}
    text = report.compare(old, new)
    assert text.splitlines()[0] == (  # b.json was not run: not compared
        "vs baseline: 1 fixed, 1 better, 1 worse, 1 broken (agreed before); 1 now called, "
        "0 no longer called; 1 groups changed status")
    assert "broken: a.json#0/0: agree -> invalid-reached-handler" in text
    assert "worse: a.json#0/2: valid-refused -> crash" in text
    assert "a.json#0/3" not in text  # better: listed only in the count
    assert "group a.json#1: refused -> built" in text
