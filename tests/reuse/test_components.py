"""Per-component reuse of the analysis (toolc.reuse.components): what is taken over, when
the full analysis runs instead, and that the record is untrusted input. The randomized
comparison with clean builds is in test_incremental.py."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import mcp  # noqa: F401  # the certifying processes forked by the builds inherit it
import pytest
from incremental_support import State, output_of, shown, write
from toolc.config import load_config
from toolc.diagnostics import Diagnostic, Severity, Span
from toolc.pipeline import BuildResult, build
from toolc.reuse import components

RECORD = Path(".toolc-cache") / components.RECORD_FILE


def _built(root: Path, state: State) -> None:
    write(root, state)
    assert build(load_config(root)).ok


def _edit_mid(root: Path, state: State, text: str = "Locate an address, edited.") -> None:
    state.tools["mid"][0][1] = text
    write(root, state)


def _clean_copy(root: Path) -> Path:
    return root.parent / (root.name + "-clean")


def _both(root: Path) -> tuple[BuildResult, BuildResult]:
    """The build of ``root`` (its records read), and a clean build of the project as it
    was before (a copy without the records, built in ``_clean_copy(root)``)."""
    clean = _clean_copy(root)
    shutil.rmtree(clean, ignore_errors=True)
    shutil.copytree(root, clean, ignore=shutil.ignore_patterns(".toolc-cache"))
    return build(load_config(root)), build(load_config(clean), use_cache=False)


def _record(root: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((root / RECORD).read_text())
    return data


def _lone(record: dict[str, Any]) -> dict[str, Any]:
    [found] = [c for c in record["components"] if "lone" in c["modules"]]
    return found


def test_an_unchanged_component_is_not_analysed_and_says_what_it_said(tmp_path: Path) -> None:
    state = State()
    _built(tmp_path, state)
    _edit_mid(tmp_path, state)
    ours, theirs = _both(tmp_path)
    assert ours.compiled.taken is not None and list(ours.compiled.taken.modules) == ["lone"]
    assert ours.compiled.project is not None and "lone" not in ours.compiled.project.modules
    # lone's TC220 (info) and its unused suppression (TC022, said again by the judge from
    # the replayed suppression) are there, as a clean build says them.
    codes = {(d.code, d.span.path) for d in ours.compiled.bag if d.span is not None}
    assert ("TC022", "specs/lone.toolc.yaml") in codes
    assert ("TC220", "specs/lone.toolc.yaml") in codes
    assert shown(ours) == shown(theirs)
    assert output_of(tmp_path) == output_of(_clean_copy(tmp_path))
    assert [b.module for b in ours.compiled.budgets or ()] == \
        [b.module for b in theirs.compiled.budgets or ()]


@pytest.mark.parametrize("name", ["solo", "Solo"])
def test_a_module_name_meeting_a_taken_one_runs_the_full_analysis(tmp_path: Path,
                                                                  name: str) -> None:
    """TC308 and TC313 compare every module's name: a full analysis reports them."""
    state = State()
    _built(tmp_path, state)
    state.solo_links = False  # solo alone, so that lone's rename meets a taken module
    _built(tmp_path, state)
    state.lone_name = name
    write(tmp_path, state)
    ours, theirs = _both(tmp_path)
    assert not ours.ok and ours.compiled.taken is None
    assert {d.code for d in ours.compiled.bag if d.severity is Severity.ERROR} & {"TC308", "TC313"}
    assert shown(ours) == shown(theirs)


def test_an_error_in_the_rest_is_said_as_the_full_analysis_says_it(tmp_path: Path) -> None:
    """The others are still taken over when the rest looked up no module name it lacks
    (one it lacks may be a taken module's, or a "did you mean" among them: then the full
    analysis runs; tests/lsp/test_analysis.py edits at random both ways)."""
    state = State()
    _built(tmp_path, state)
    state.broken = "mid"
    write(tmp_path, state)
    ours, theirs = _both(tmp_path)
    assert not ours.ok and ours.compiled.taken is not None
    assert shown(ours) == shown(theirs)


def test_a_component_with_a_changed_input_is_analysed_again(tmp_path: Path) -> None:
    state = State()
    _built(tmp_path, state)
    state.point = "A point, moved."   # the schema file lone's `$ref` inlines
    _edit_mid(tmp_path, state)
    ours, theirs = _both(tmp_path)
    assert ours.compiled.taken is None  # nothing left to take: every component changed
    assert shown(ours) == shown(theirs)


def test_a_golden_file_edited_by_hand_is_not_taken(tmp_path: Path) -> None:
    state = State()
    _built(tmp_path, state)
    golden = tmp_path / "generated" / "schemas" / "lone" / "far.json"
    made = golden.read_bytes()
    golden.write_bytes(made.replace(b"Reach far", b"Reach near"))
    _edit_mid(tmp_path, state)
    ours = build(load_config(tmp_path))
    assert ours.ok and ours.compiled.taken is None
    assert golden.read_bytes() == made
    assert ours.diff is not None and any("lone" in c.tool for c in ours.diff.changes)


def test_a_planted_or_broken_record_only_costs_time(tmp_path: Path) -> None:
    state = State()
    _built(tmp_path, state)
    record = _record(tmp_path)
    lone = _lone(record)
    # A replayed error, a golden file outside the output, a suppression of a code that
    # is no rule: each makes its component analysed again, never its claim believed.
    lone["diagnostics"].append({"code": "TC341", "severity": "error", "message": "planted",
                                "span": ["specs/lone.toolc.yaml", 1, 1, 1], "notes": []})
    others = [c for c in record["components"] if c is not lone]
    others[0]["golden"][next(iter(others[0]["golden"]))] = {
        "../../escape.json": ["0" * 64, [1, 2, 3]]}
    record["components"].append("not a component")
    record["components"].append({"modules": {"x": {"spec": "../x", "imports": ["y"]}}})
    (tmp_path / RECORD).write_text(json.dumps(record))
    _edit_mid(tmp_path, state)
    ours, theirs = _both(tmp_path)
    assert ours.compiled.taken is None
    assert shown(ours) == shown(theirs)
    assert not (tmp_path.parent / "escape.json").exists()
    (tmp_path / RECORD).write_text("{not json")
    _edit_mid(tmp_path, state, "Locate, once more.")
    assert build(load_config(tmp_path)).ok  # an unreadable record: a full analysis


def test_a_record_that_leaves_a_file_or_spec_out_is_not_believed(tmp_path: Path) -> None:
    """Taken over as recorded, a component without one of its golden files would have the
    build remove that file, and a spec without its module would leave the build."""
    state = State()
    _built(tmp_path, state)
    record = _record(tmp_path)
    lone = _lone(record)
    lone["golden"]["lone"] = {}
    others = [c for c in record["components"] if c is not lone]
    others[0]["specs"]["specs/lone.toolc.yaml"] = lone["specs"]["specs/lone.toolc.yaml"]
    (tmp_path / RECORD).write_text(json.dumps(record))
    _edit_mid(tmp_path, state)
    ours, theirs = _both(tmp_path)
    assert ours.compiled.taken is None
    assert shown(ours) == shown(theirs)
    assert (tmp_path / "generated" / "schemas" / "lone" / "far.json").exists()


def test_a_component_recorded_twice_is_taken_once(tmp_path: Path) -> None:
    """Its warnings said once, as a clean build says them."""
    state = State()
    _built(tmp_path, state)
    record = _record(tmp_path)
    record["components"].append(_lone(record))
    (tmp_path / RECORD).write_text(json.dumps(record))
    _edit_mid(tmp_path, state)
    ours, theirs = _both(tmp_path)
    assert ours.compiled.taken is not None and len(ours.compiled.taken.said) == 1
    assert shown(ours) == shown(theirs)


def test_a_record_that_came_with_a_copy_takes_nothing(tmp_path: Path) -> None:
    """A checkout brings its own generated/ and .toolc-cache/ (times kept by the copy):
    their golden files are not the ones this machine's build wrote."""
    state = State()
    origin, copy = tmp_path / "origin", tmp_path / "copy"
    origin.mkdir()
    _built(origin, state)
    shutil.copytree(origin, copy)
    lone = _lone(_record(copy))
    lone["diagnostics"] = []  # the claim: lone has nothing to say
    record = _record(copy)
    record["components"] = [lone if "lone" in c["modules"] else c
                            for c in record["components"]]
    (copy / RECORD).write_text(json.dumps(record))
    _edit_mid(copy, state)
    ours = build(load_config(copy))
    assert ours.compiled.taken is None
    assert any(d.code == "TC220" for d in ours.compiled.bag)


def test_a_checking_build_never_reads_the_record(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    state = State()
    _built(tmp_path, state)
    monkeypatch.setattr(components, "take_over", lambda *a, **k: pytest.fail("read"))
    _edit_mid(tmp_path, state)
    result = build(load_config(tmp_path), check=True)
    assert result.ok and result.diff is not None and result.diff.changes


def test_nothing_is_recorded_when_a_diagnostic_is_outside_every_spec(tmp_path: Path) -> None:
    """No component could be said to own it: none is taken next time."""
    state = State()
    _built(tmp_path, state)
    _edit_mid(tmp_path, state)
    result = build(load_config(tmp_path))
    assert result.ok and result.compiled.project is not None
    assert (tmp_path / RECORD).exists()
    result.compiled.bag.items.append(Diagnostic("TC220", Severity.INFO, "elsewhere",
                                                Span("specs/point.json", 1, 1)))
    config = load_config(tmp_path)
    components.remember(config, "environment", result.compiled.project, result.compiled.bag,
                        result.compiled.budgets or (), result.files, {}, None)
    assert not (tmp_path / RECORD).exists()
