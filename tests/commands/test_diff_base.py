"""`toolc diff` judged by the base (toolc.diff.gate): the hostile pull requests of issue 22,
each in a real git repository, each shown its changes to the rules and failed by them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import project_support
import pytest
from commands_support import SPEC, build, cli, commit, diff, edit
from report_support import rendered

SECOND = """\
  delNote:
    description: Delete a note.
    handler: notes_app:remove
    params:
      id: {type: string, description: The note's id.}
"""
RELAXED = '[tool.toolc.severity]\nmissing-description = "warning"\n'  # a team's own rule
DROPPED = "        description: Labels for the note.\n"


def pyproject(repo: Path, extra: str = "") -> None:
    (repo / "pyproject.toml").write_text(project_support.pyproject(extra=extra))


@pytest.fixture
def two_tools(repo: Path) -> Path:
    """The base: addNote and delNote published, TC201 a warning (the team's choice)."""
    (repo / "specs" / "notes.toolc.yaml").write_text(SPEC + SECOND)
    pyproject(repo, RELAXED)
    assert build() == 0
    commit(repo, "base: two tools")
    return repo


def remove_and_drop(repo: Path) -> None:
    """What the pull request does to the tools: delNote removed, a description dropped."""
    (repo / "specs" / "notes.toolc.yaml").write_text(SPEC.replace(DROPPED, ""))


def rows(found: list[dict[str, object]]) -> list[tuple[object, ...]]:
    return [(c["tool"], c["rule"], c["pointer"], c["severity"], c["accepted"]) for c in found]


@pytest.mark.parametrize("lowered", ["off", "info"])
def test_rules_turned_off_beside_a_removal_still_fail_and_say_so(two_tools: Path,
                                                                 lowered: str) -> None:
    """Issue 22: `severity = {TOOL_REMOVED = "off", DESCRIPTION_REMOVED = "off"}` next to
    the removal made `toolc diff --against HEAD~1` exit 0 saying "No changes"."""
    remove_and_drop(two_tools)
    pyproject(two_tools, RELAXED + "[tool.toolc.diff]\nseverity = {TOOL_REMOVED = "
              f'"{lowered}", DESCRIPTION_REMOVED = "{lowered}"}}\n')
    assert build() == 0
    commit(two_tools, "pull request")
    code, out, err = diff(against="HEAD~1", fmt="json")
    assert code == 1, err
    doc = json.loads(out)
    assert list(doc) == ["policy", "changes", "warnings"]  # the rules' changes come first
    weakened = "/tool/toolc/diff/severity/"
    assert rows(doc["policy"]) == [
        ("pyproject.toml", "POLICY_WEAKENED", weakened + "DESCRIPTION_REMOVED", "error", False),
        ("pyproject.toml", "POLICY_WEAKENED", weakened + "TOOL_REMOVED", "error", False)]
    assert [c["spec"] for c in doc["policy"]] == [
        {"path": "pyproject.toml", "line": 6, "col": 32 + len(lowered), "note": None},
        {"path": "pyproject.toml", "line": 6, "col": 13, "note": None}]
    assert (doc["policy"][1]["old"], doc["policy"][1]["new"]) == (None, lowered)
    # The base's severities judge the tools' changes.
    assert rows(doc["changes"]) == [
        ("notes/addNote", "DESCRIPTION_REMOVED", "/inputSchema/properties/tags/description",
         "error", False),
        ("notes/delNote", "TOOL_REMOVED", "", "error", False)]

    code, out, _ = diff(against="HEAD~1", fmt="markdown")
    assert code == 1 and "No changes in the published tools." not in out
    top = out.index("#### The gate's rules: `pyproject.toml`")
    assert top < out.index("#### `notes/addNote`") < out.index("#### `notes/delNote`")
    assert ("**The pull request changes the gate's rules: 2 weaken them; the base's rules "
            "judge it.**") in out
    assert (f"[tool.toolc.diff] severity of TOOL_REMOVED: '{lowered}' in this pull request, "
            "unset (the rule's own: error) at HEAD~1: this weakens the gate; HEAD~1's rules "
            "judge it") in rendered(out).root.text()  # as the comment shows it (escaped)

    code, out, _ = diff(against="HEAD~1", fmt="github")
    first = out.splitlines()[0]
    assert code == 1 and first.startswith("::error file=pyproject.toml,line=6,title="
                                          "POLICY_WEAKENED in pyproject.toml (error)::")


def test_a_per_file_severity_that_newly_covers_the_specs_is_refused(two_tools: Path) -> None:
    """The base made TC201 off for vendored specs only; the pull request widens the glob to
    every spec, drops a description and turns the diff's rule off: the base's severity
    of TC201 judges its specs, which then do not build."""
    pyproject(two_tools, '[tool.toolc.per-file-severity]\n"specs/vendor/*" = {TC201 = "off"}\n')
    commit(two_tools, "base: vendored specs may lack descriptions")
    remove_and_drop(two_tools)
    pyproject(two_tools, '[tool.toolc.per-file-severity]\n"specs/*" = {TC201 = "off"}\n'
              '[tool.toolc.diff]\nseverity = {DESCRIPTION_REMOVED = "off"}\n')
    code, out, err = diff(against="HEAD")
    assert code == 1 and out == ""
    assert "specs/notes.toolc.yaml:9:7: error[TC201]" in err
    assert ("error[POLICY_WEAKENED] /tool/toolc/per-file-severity/specs~1*/TC201  "
            "pyproject.toml:4:14\n    [tool.toolc.per-file-severity] 'specs/*': TC201 "
            "(missing-description): 'off' in this pull request, unset (error for the project) "
            "at HEAD (it newly covers 1 spec file: specs/notes.toolc.yaml): this weakens the "
            "gate; HEAD's rules judge it") in err
    # The glob the base had is gone: for its files, a tightening (info).
    assert "info[POLICY_TIGHTENED] /tool/toolc/per-file-severity/specs~1vendor~1*/TC201" in err
    assert "The specs have errors, so no golden file was compared." in err


def test_a_project_wide_severity_lowered_in_the_pull_request_is_the_bases(repo: Path) -> None:
    edit(repo, DROPPED, "")
    pyproject(repo, '[tool.toolc.severity]\nTC201 = "off"\n')
    code, _, err = diff()  # against HEAD: the committed rules judge an uncommitted edit
    assert code == 1 and "error[TC201]" in err
    assert "error[POLICY_WEAKENED] /tool/toolc/severity/TC201  pyproject.toml:4:1" in err


def test_a_raised_fail_on_is_a_weakening_and_the_bases_threshold_judges(repo: Path) -> None:
    pyproject(repo, '[tool.toolc.diff]\nfail_on = "warning"\n')
    commit(repo, "base: warnings fail")
    edit(repo, "items: {type: string}", "items: {type: string}\n        default: []")
    assert diff(against="HEAD")[0] == 1  # DEFAULT_CHANGED: a warning, at the base's threshold
    pyproject(repo, '[tool.toolc.diff]\nfail_on = "never"\n')
    code, out, _ = diff(against="HEAD", fmt="json")
    assert code == 1
    doc = json.loads(out)
    assert rows(doc["policy"]) == [
        ("pyproject.toml", "POLICY_WEAKENED", "/tool/toolc/diff/fail_on", "error", False)]
    assert (doc["policy"][0]["old"], doc["policy"][0]["new"]) == ("warning", "never")
    assert rows(doc["changes"]) == [
        ("notes/addNote", "DEFAULT_CHANGED", "/inputSchema/properties/tags/default", "warning",
         False)]
    # The command line is the CI job's own: it still decides.
    assert diff(against="HEAD", fail_on="error")[0] == 1  # the weakening is an error


def test_a_tightened_rule_is_shown_as_info_and_judges_once_merged(repo: Path) -> None:
    edit(repo, "Add a note.", "Add a note to the notebook.")  # DESCRIPTION_CHANGED: info
    pyproject(repo, '[tool.toolc.diff]\nfail_on = "info"\nseverity = {TOOL_ADDED = "error"}\n')
    code, out, _ = diff(against="HEAD", fmt="json")
    assert code == 0  # the base's threshold (error) judges this pull request
    assert [(c["rule"], c["pointer"], c["severity"]) for c in json.loads(out)["policy"]] == [
        ("POLICY_TIGHTENED", "/tool/toolc/diff/fail_on", "info"),
        ("POLICY_TIGHTENED", "/tool/toolc/diff/severity/TOOL_ADDED", "info")]
    commit(repo, "merged")
    assert diff(against="HEAD")[0] == 1  # now the base's own threshold


def test_moving_the_output_reads_the_old_side_where_the_base_keeps_it(two_tools: Path) -> None:
    """Issue 22: with `output = "gen2"` the old side was read from `<REF>:gen2/schemas`,
    absent, so an empty set: every tool TOOL_ADDED, exit 0, the removal never seen."""
    remove_and_drop(two_tools)
    pyproject(two_tools, 'output = "gen2"\n' + RELAXED)
    shutil.rmtree(two_tools / "generated")
    assert build() == 0 and (two_tools / "gen2" / "schemas" / "notes").is_dir()
    commit(two_tools, "pull request: golden files in gen2/")
    code, out, err = diff(against="HEAD~1", fmt="json")
    assert code == 1, err
    doc = json.loads(out)
    assert doc["policy"] == []
    assert rows(doc["changes"]) == [
        ("notes/addNote", "DESCRIPTION_REMOVED", "/inputSchema/properties/tags/description",
         "error", False),
        ("notes/delNote", "TOOL_REMOVED", "", "error", False)]
    _, out, _ = diff(against="HEAD~1", fmt="markdown")
    assert ("Compared HEAD~1:generated/schemas with a fresh build of the specs."
            in rendered(out).root.text())


def test_a_base_without_its_golden_folder_cannot_be_compared(repo: Path) -> None:
    pyproject(repo, 'output = "gen2"\n')
    commit(repo, "base names gen2/ but never built it")
    code, out, err = diff(against="HEAD")
    assert (code, out, err) == (2, "", "error: cannot compare: HEAD has no gen2/schemas\n")
    code, _, err = diff()  # the committed golden files: the same base
    assert code == 2 and "cannot compare: HEAD has no gen2/schemas" in err


def test_a_base_without_readable_rules_is_judged_by_the_defaults(two_tools: Path) -> None:
    (two_tools / "pyproject.toml").write_text("[tool.toolc\n")  # not TOML
    commit(two_tools, "base: a broken pyproject.toml")
    remove_and_drop(two_tools)
    pyproject(two_tools, RELAXED + '[tool.toolc.diff]\nseverity = {TOOL_REMOVED = "off"}\n')
    code, _, err = diff(against="HEAD")
    assert code == 1
    [note] = [line for line in err.splitlines() if line.startswith("toolc: ")]
    assert note.startswith("toolc: HEAD:pyproject.toml cannot be read (not valid TOML: ")
    assert note.endswith("): the default rules judge this pull request")
    assert "error[TC201]" in err  # the default severity of TC201, not the PR's warning


def test_the_pull_request_may_accept_its_own_change_of_the_rules_visibly(
        two_tools: Path) -> None:
    pyproject(two_tools, RELAXED + '[tool.toolc.diff]\nseverity = {META_CHANGED = "off"}\n'
              '[[tool.toolc.diff.accept]]\ntool = "pyproject.toml"\nrule = "POLICY_WEAKENED"\n'
              'reason = "agreed in #12: no client reads _meta"\n')
    code, out, _ = diff(against="HEAD", fmt="json")
    assert code == 0
    doc = json.loads(out)
    assert rows(doc["policy"]) == [
        ("pyproject.toml", "POLICY_WEAKENED", "/tool/toolc/diff/severity/META_CHANGED", "error",
         True),
        ("pyproject.toml", "ACCEPTANCE_ADDED", "/tool/toolc/diff/accept/0", "info", False)]
    assert doc["policy"][0]["reason"] == "agreed in #12: no client reads _meta"
    assert doc["policy"][1]["message"] == (
        "accepted in this pull request: POLICY_WEAKENED in pyproject.toml (1 change): "
        "agreed in #12: no client reads _meta")
    assert doc["policy"][1]["spec"]["line"] == 7
    commit(two_tools, "merged")
    assert json.loads(diff(against="HEAD", fmt="json")[1])["policy"] == []  # the base's now


def test_an_acceptance_the_base_has_is_not_listed_again(two_tools: Path) -> None:
    accept = ('[[tool.toolc.diff.accept]]\ntool = "delNote"\nrule = "TOOL_REMOVED"\n'
              'reason = "retired"\n')
    pyproject(two_tools, RELAXED + accept)
    commit(two_tools, "base accepts the removal")
    (two_tools / "specs" / "notes.toolc.yaml").write_text(SPEC)
    code, out, _ = diff(against="HEAD", fmt="json")
    doc = json.loads(out)
    assert code == 0 and doc["policy"] == []
    assert rows(doc["changes"]) == [("notes/delNote", "TOOL_REMOVED", "", "error", True)]


def test_build_judges_by_the_committed_rules_and_says_what_ci_will_make_of_them(
        two_tools: Path) -> None:
    """A writing build's summary says what CI will do: an uncommitted `off` hides nothing."""
    remove_and_drop(two_tools)
    pyproject(two_tools, RELAXED + '[tool.toolc.diff]\nseverity = {TOOL_REMOVED = "off"}\n')
    code, out, _ = cli("build", "--no-certify")
    assert code == 0
    changes = out.partition("Schema changes against the golden files this build replaces "
                            "in generated/schemas/:")[2]
    assert changes.index("the gate's rules (pyproject.toml)") < changes.index("tool notes/")
    assert "error[TOOL_REMOVED]" in changes
    assert ("2 changes in 2 tools: 1 weakening of the gate's rules, 1 breaking, 1 description "
            "lost; CI fails on them unless accepted in [tool.toolc.diff]") in changes
    code, out, _ = cli("build", "--check", "--no-certify", "--format", "json")
    assert [c["rule"] for c in json.loads(out)["policy"]] == ["POLICY_WEAKENED"]
