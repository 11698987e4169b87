"""`toolc validate FILES...`: the named specs, checked in the context of the whole project."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from project_support import bundled_project, enter
from toolc.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def bundled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The bundled two-module project: showcase uses workbench's toolset `main`."""
    return enter(bundled_project(tmp_path), monkeypatch)


def validate(*paths: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["validate", *paths], catch_exceptions=False)
    return result.exit_code, result.stdout


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_one_spec_that_uses_another_module_validates_alone(bundled: Path) -> None:
    assert validate("specs/showcase.toolc.yaml") == (
        0, "ok: 1 spec(s) of 2 module(s), no problems\n")
    assert validate("specs/workbench.toolc.yaml", "specs")[0] == 0


def test_only_the_named_files_problems_are_reported(bundled: Path) -> None:
    edit(bundled / "specs" / "workbench.toolc.yaml", "    description: Return the newest",
         "    descripton: Return the newest")
    code, out = validate("specs/showcase.toolc.yaml")
    assert (code, out) == (0, "ok: 1 spec(s) of 2 module(s), no problems\n")
    code, out = validate("specs/workbench.toolc.yaml")
    assert code == 1 and "specs/workbench.toolc.yaml:" in out and "TC101" in out
    assert "specs/showcase.toolc.yaml:" not in out


def test_a_cross_file_problem_the_named_file_causes_is_reported(bundled: Path) -> None:
    """Renaming workbench's toolset breaks showcase: validating workbench says so."""
    edit(bundled / "specs" / "workbench.toolc.yaml", "  main: {kind: prefixed",
         "  primary: {kind: prefixed")
    edit(bundled / "specs" / "workbench.toolc.yaml", "export: main", "export: primary")
    code, out = validate("specs/workbench.toolc.yaml")
    assert code == 1 and "specs/showcase.toolc.yaml:65:" in out and "workbench.main" in out


def test_a_named_file_outside_the_spec_folder_is_checked_with_the_project(
        bundled: Path) -> None:
    extra = bundled / "more"
    extra.mkdir()
    (extra / "tour.toolc.yaml").write_text(
        "toolc: 1\nmodule: tour\ntoolsets:\n  all: {kind: combined, toolsets: "
        "[workbench.main, workbench.nope]}\nexport: all\n")
    code, out = validate("more/tour.toolc.yaml")
    assert code == 1 and "more/tour.toolc.yaml:4:" in out and "workbench.nope" in out
    assert "workbench.main'" not in out  # found in the project's other spec


def test_a_missing_file_is_a_usage_error(bundled: Path) -> None:
    assert validate("specs/nope.toolc.yaml")[0] == 2


def test_a_named_file_waiting_for_a_spec_that_does_not_load_shows_that_error(
        bundled: Path) -> None:
    # showcase uses workbench's toolset `main`; a syntax error in workbench would make
    # showcase's references TC307 ("no spec declares") and hide why
    edit(bundled / "specs" / "workbench.toolc.yaml", "module: workbench\n",
         "module: workbench\ndescription: Tools: the workbench's.\n")
    code, out = validate("specs/showcase.toolc.yaml")
    assert code == 1
    assert "TC307" not in out
    assert "specs/workbench.toolc.yaml:" in out and "error[TC003]" in out
    assert "to module 'workbench' in specs/showcase.toolc.yaml are not reported until this " \
           "spec loads" in out
