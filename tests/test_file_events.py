"""What the two watches share: the outermost existing paths to watch."""

from __future__ import annotations

from pathlib import Path

from toolc.file_events import outermost


def test_only_the_outermost_existing_folders_are_watched(tmp_path: Path) -> None:
    specs, nested, handlers = tmp_path / "specs", tmp_path / "specs" / "more", tmp_path / "src"
    for folder in (nested, handlers):
        folder.mkdir(parents=True)
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text("", encoding="utf-8")
    found = outermost([nested, specs, handlers, tmp_path / "gone", pyproject, specs / "."])
    assert sorted(found) == sorted([specs.resolve(), handlers.resolve(), pyproject.resolve()])


def test_a_file_holds_nothing_and_the_project_folder_holds_everything(tmp_path: Path) -> None:
    spec = tmp_path / "a.toolc.yaml"
    spec.write_text("", encoding="utf-8")
    assert outermost([spec, spec]) == [spec.resolve()]
    assert outermost([spec, tmp_path]) == [tmp_path.resolve()]
