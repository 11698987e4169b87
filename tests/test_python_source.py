"""Module sources found without importing them (toolc.python_source): where the handler
check looks, and what a build records of each lookup to ask again later."""

from __future__ import annotations

from pathlib import Path

from toolc.python_source import SourceIndex, inside, outcomes_match


def test_a_python_path_outside_the_project_is_not_read(tmp_path: Path) -> None:
    """[tool.toolc] may come from a pull request: a python-path entry outside the
    project is not searched, so none of its names reach a "did you mean"."""
    project, outside = tmp_path / "project", tmp_path / "elsewhere"
    (project / "src").mkdir(parents=True)
    outside.mkdir()
    assert inside((project / "src", outside, project / "src" / ".." / ".." / "elsewhere"),
                   project.resolve()) == (project / "src",)
    assert inside((outside,), None) == (outside,)


def test_an_outcome_names_the_file_and_its_hash_and_changes_with_it(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "mod.py").write_text("def f(): ...\n")
    index = SourceIndex((tmp_path,))
    assert index.module("pkg.mod") is not None
    recorded = dict(index.outcomes)
    assert recorded["pkg.mod"][:2] == ["file", str(tmp_path / "pkg" / "mod.py")]
    assert outcomes_match(SourceIndex((tmp_path,)), recorded)
    (tmp_path / "pkg" / "mod.py").write_text("def g(): ...\n")  # edited: found again
    assert not outcomes_match(SourceIndex((tmp_path,)), recorded)


def test_a_module_not_found_or_unreadable_is_an_outcome_too(tmp_path: Path) -> None:
    index = SourceIndex((tmp_path,))
    assert index.module("absent") is None
    (tmp_path / "ns" / "sub").mkdir(parents=True)  # a namespace package: a reason
    assert index.module("ns.sub") == "it is a namespace package"
    recorded = dict(index.outcomes)
    assert recorded == {"absent": ["none"], "ns.sub": ["reason", "it is a namespace package"]}
    (tmp_path / "absent.py").write_text("x = 1\n")  # now there: the check could differ
    assert not outcomes_match(SourceIndex((tmp_path,)), recorded)


def test_lookups_are_noted_per_spec(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("")
    index = SourceIndex((tmp_path,))
    index.asking = "specs/one.toolc.yaml"
    index.module("a")
    index.asking = "specs/two.toolc.yaml"
    index.module("a")
    index.module("b")
    assert index.asked == {"specs/one.toolc.yaml": {"a"}, "specs/two.toolc.yaml": {"a", "b"}}
