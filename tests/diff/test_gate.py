"""The base's rules read from git (bounded, never followed through a link), compared with a
pull request's rule by rule, and placed at their line of pyproject.toml."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from toolc.config import GateRules, gate_rules_of, load_config
from toolc.diagnostics import Severity
from toolc.diff import Change, DiffInputError
from toolc.diff.gate import LIMIT, Base, head_base, place_of, read_base, rule_changes
from toolc.diff.policy import Policy

GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
           "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
RULES = ('[tool.toolc]\noutput = "out"\n[tool.toolc.severity]\nTC201 = "warning"\n'
         '[tool.toolc.diff]\nfail_on = "warning"\n')


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                   env={**os.environ, **GIT_ENV})


def committed(repo: Path, text: str | None, message: str) -> None:
    """A commit whose pyproject.toml holds ``text`` (None: there is none)."""
    path = repo / "pyproject.toml"
    if path.is_symlink() or path.exists():
        path.unlink()
    if text is not None:
        path.write_text(text)
    (repo / "marker").write_text(message)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    git(tmp_path, "init", "-q", "-b", "main")
    committed(tmp_path, RULES, "rules")
    return tmp_path


def test_the_bases_rules_are_read_from_the_ref_not_the_working_tree(repo: Path) -> None:
    (repo / "pyproject.toml").write_text('[tool.toolc.diff]\nfail_on = "never"\n')
    base = read_base("HEAD", repo)
    assert base.note is None and base.golden_root == "out/schemas"
    assert base.rules.severities == {"TC201": Severity.WARNING}
    assert base.policy.fail_on == "warning"


@pytest.mark.parametrize(("text", "why"), [
    (None, "HEAD has no pyproject.toml"),
    ("[tool.toolc\n", "HEAD:pyproject.toml cannot be read (not valid TOML: "),
    (b"\xff\xfe", "HEAD:pyproject.toml cannot be read ('utf-8' codec can't decode"),
    ('[tool.toolc]\noutput = "../elsewhere"\n', "output '../elsewhere' is not a folder inside"),
    ('[tool.toolc]\noutput = "/etc"\n', "output '/etc' is not a folder inside the project"),
    ('[tool.toolc]\noutput = "."\n', "output '.' is not a folder inside the project"),
    ("[tool.toolc.severity]\nTC999 = 'off'\n", "unknown rule 'TC999'"),
    ('[tool.toolc.diff]\nfail_on = "sometimes"\n', "fail_on: 'sometimes' is not one of"),
    ("tool = 3\n", "[tool.toolc] is not a table"),
])
def test_a_missing_or_unreadable_pyproject_in_the_base_means_the_defaults(
        repo: Path, text: str | bytes | None, why: str) -> None:
    if isinstance(text, bytes):
        (repo / "pyproject.toml").write_bytes(text)
        git(repo, "commit", "-qam", "bytes")
    else:
        committed(repo, text, "broken")
    base = read_base("HEAD", repo)
    assert base.rules == GateRules() and base.policy == Policy()
    assert base.note is not None and why in base.note, base.note
    assert base.note.endswith(": the default rules judge this pull request")
    assert "\n" not in base.note


def test_the_base_is_never_read_through_a_link_or_without_bound(repo: Path) -> None:
    (repo / "rules.toml").write_text(RULES)
    (repo / "pyproject.toml").unlink()
    (repo / "pyproject.toml").symlink_to("rules.toml")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "a link")
    assert read_base("HEAD", repo).note == (
        "HEAD:pyproject.toml is not a regular file: the default rules judge this pull request")
    committed(repo, RULES + "#" * LIMIT, "large")
    assert read_base("HEAD", repo).note == (
        f"HEAD:pyproject.toml is larger than {LIMIT} bytes: the default rules judge this "
        "pull request")


def test_an_unknown_ref_is_an_input_error(repo: Path, tmp_path_factory: pytest.TempPathFactory
                                          ) -> None:
    with pytest.raises(DiffInputError, match="no-such is no commit in"):
        read_base("no-such", repo)
    with pytest.raises(DiffInputError):
        read_base("HEAD", tmp_path_factory.mktemp("plain"))


def test_head_base_is_none_outside_git_and_the_checkouts_rules_when_committed(
        repo: Path, tmp_path_factory: pytest.TempPathFactory,
        monkeypatch: pytest.MonkeyPatch) -> None:
    plain = tmp_path_factory.mktemp("plain")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(plain.parent))
    (plain / "pyproject.toml").write_text(RULES)
    assert head_base(load_config(plain)) is None
    base = head_base(load_config(repo))
    assert base is not None and base.rules == load_config(repo).gate_rules()
    (repo / "pyproject.toml").write_text("[tool.toolc]\n")
    base = head_base(load_config(repo))
    assert base is not None and base.policy.fail_on == "warning"  # HEAD's, not the disk's


def changes_of(base_text: str, pr_text: str, spec_paths: tuple[str, ...] = ()
               ) -> list[tuple[str, str]]:
    rules = gate_rules_of(base_text, "main:pyproject.toml")
    base = Base("main", rules, Policy.from_config(rules.diff))
    pr = gate_rules_of(pr_text, "pyproject.toml")
    return [(c.rule, c.pointer) for c in rule_changes(base, pr, [], pr_text, spec_paths)]


@pytest.mark.parametrize(("base", "pr", "found"), [
    # A rule of two severities (error in input, info in output) set to warning is lowered
    # on one side: weaker, though raised on the other.
    ("", "[tool.toolc.diff]\nseverity = {PROPERTY_ADDED_REQUIRED = 'warning'}\n",
     [("POLICY_WEAKENED", "/tool/toolc/diff/severity/PROPERTY_ADDED_REQUIRED")]),
    ("", "[tool.toolc.diff]\nseverity = {PROPERTY_ADDED_REQUIRED = 'error'}\n",
     [("POLICY_TIGHTENED", "/tool/toolc/diff/severity/PROPERTY_ADDED_REQUIRED")]),
    # Spelling out the rule's own severity changes nothing.
    ("", "[tool.toolc.diff]\nseverity = {TOOL_REMOVED = 'error'}\n", []),
    # Dropping the base's raise of a rule is weaker; dropping its lowering, stricter.
    ("[tool.toolc.diff]\nseverity = {TOOL_ADDED = 'error'}\n", "",
     [("POLICY_WEAKENED", "/tool/toolc/diff/severity/TOOL_ADDED")]),
    ("[tool.toolc.severity]\nTC201 = 'off'\n", "",
     [("POLICY_TIGHTENED", "/tool/toolc/severity/TC201")]),
    ("[tool.toolc.diff]\nfail_on = 'never'\n", "[tool.toolc.diff]\nfail_on = 'info'\n",
     [("POLICY_TIGHTENED", "/tool/toolc/diff/fail_on")]),
    ("", "[tool.toolc.diff]\nfail_on = 'warning'\n",
     [("POLICY_TIGHTENED", "/tool/toolc/diff/fail_on")]),
    # A per-file severity that lowers a rule below the base's project-wide one is weaker,
    # whatever it covers; one the project already sets that low is no change.
    ("", "[tool.toolc.per-file-severity]\n'specs/new/*' = {TC201 = 'warning'}\n",
     [("POLICY_WEAKENED", "/tool/toolc/per-file-severity/specs~1new~1*/TC201")]),
    ("[tool.toolc.severity]\nTC201 = 'warning'\n",
     ("[tool.toolc.severity]\nTC201 = 'warning'\n"
      "[tool.toolc.per-file-severity]\n'specs/new/*' = {TC201 = 'warning'}\n"), []),
])
def test_each_change_of_a_rule_is_weaker_or_stricter(base: str, pr: str,
                                                     found: list[tuple[str, str]]) -> None:
    assert changes_of(base, pr) == found


def test_a_glob_that_newly_covers_files_names_them() -> None:
    base = '[tool.toolc.per-file-severity]\n"specs/vendor/*" = {TC201 = "off"}\n'
    pr = '[tool.toolc.per-file-severity]\n"*.toolc.yaml" = {TC201 = "off"}\n'
    paths = ("specs/a.toolc.yaml", "specs/vendor/v.toolc.yaml", "specs/b.toolc.yaml")
    baseline = Base("main", gate_rules_of(base, "main"), Policy())
    [weaker, _stricter] = rule_changes(baseline, gate_rules_of(pr, "p"), [], pr, paths)
    assert weaker.rule == "POLICY_WEAKENED"
    assert ("(it newly covers 2 spec files: specs/a.toolc.yaml, specs/b.toolc.yaml)"
            in weaker.message)  # the vendored one was covered already


def test_new_acceptances_are_listed_with_their_reason_and_count() -> None:
    accept = ('[[tool.toolc.diff.accept]]\ntool = "readLog"\nrule = "TOOL_REMOVED"\n'
              'reason = "old"\n')
    new = ('[[tool.toolc.diff.accept]]\ntool = "w/readLog"\nrule = "TYPE_NARROWED"\n'
           'pointer = "/inputSchema"\nreason = "nobody sends strings"\n')
    base = Base("main", gate_rules_of(accept, "main"),
                Policy.from_config(gate_rules_of(accept, "main").diff))
    pr = gate_rules_of(accept + new, "p")
    tools = [Change("w/readLog", "/inputSchema/properties/a", "TYPE_NARROWED", Severity.ERROR, "m"),
             Change("readLog", "", "TOOL_REMOVED", Severity.ERROR, "m")]
    [added] = rule_changes(base, pr, tools, accept + new)
    assert (added.rule, added.pointer, added.spec and added.spec.line) == (
        "ACCEPTANCE_ADDED", "/tool/toolc/diff/accept/1", 5)
    assert added.message == ("accepted in this pull request: TYPE_NARROWED in w/readLog at "
                             "/inputSchema (1 change): nobody sends strings")
    assert added.new == {"tool": "w/readLog", "rule": "TYPE_NARROWED", "pointer": "/inputSchema",
                         "reason": "nobody sends strings"}


TOML = """\
[project]
name = "x"   # severity = 1
[tool.toolc]
specs = "specs"
diff.fail_on = "never"
[tool.toolc.diff]
severity = {TOOL_REMOVED = "off", DESCRIPTION_REMOVED = "off"}
[tool.toolc.diff.severity]
META_CHANGED = "off"
[tool.toolc.severity]
missing-description = "off"
[tool.toolc.per-file-severity]
"specs/*" = {TC201 = "off"}
[[tool.toolc.diff.accept]]
tool = "a"
"""


@pytest.mark.parametrize(("parts", "place"), [
    (("tool", "toolc", "diff", "fail_on"), (5, 6, None)),          # a dotted key
    (("tool", "toolc", "diff", "severity", "DESCRIPTION_REMOVED"), (7, 35, None)),
    (("tool", "toolc", "diff", "severity", "META_CHANGED"), (9, 1, None)),
    (("tool", "toolc", "severity", "TC201"), (11, 1, None)),       # written by its name
    (("tool", "toolc", "per-file-severity", "specs/*", "TC201"), (13, 14, None)),
    (("tool", "toolc", "diff", "accept", "0"), (14, 1, None)),
    (("tool", "toolc", "severity", "TC202"), (10, 1, "not set here")),
    (("tool", "toolc", "diff", "accept", "2"), (6, 1, "not set here")),
])
def test_a_setting_is_placed_at_its_line_however_toml_writes_it(
        parts: tuple[str, ...], place: tuple[int, int, str | None]) -> None:
    found = place_of(TOML, parts)
    assert (found.path, found.line, found.col, found.note) == ("pyproject.toml", *place)
    assert place_of("", parts).line == 1
