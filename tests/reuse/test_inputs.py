"""toolc.reuse.inputs: what every record's key covers."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import toolc
from toolc.reuse import inputs
from toolc.reuse.inputs import PACKAGE, code_digest


def test_the_code_digest_covers_the_whole_package() -> None:
    # Once the cache moved into output/, the digest covered only that folder, and a
    # change to a template was answered "up to date" with the old output.
    assert Path(toolc.__file__).resolve().parent == PACKAGE
    assert (PACKAGE / "templates" / "module.py.jinja").is_file()


def test_the_code_digest_changes_with_any_module_or_template(tmp_path: Path) -> None:
    (tmp_path / "templates").mkdir()
    (tmp_path / "sub").mkdir()
    (tmp_path / "cli.py").write_text("a = 1\n")
    (tmp_path / "sub" / "deep.py").write_text("b = 1\n")
    (tmp_path / "templates" / "module.py.jinja").write_text("{{ x }}\n")
    (tmp_path / "notes.txt").write_text("not code\n")
    first = code_digest(tmp_path)
    seen = {first}
    for name in ("cli.py", "sub/deep.py", "templates/module.py.jinja"):
        (tmp_path / name).write_text((tmp_path / name).read_text() + "# edited\n")
        seen.add(code_digest(tmp_path))
    assert len(seen) == 4
    (tmp_path / "notes.txt").write_text("still not code\n")
    assert code_digest(tmp_path) in seen


def test_dependency_versions_are_what_importlib_metadata_says(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from importlib.metadata import PackageNotFoundError, version

    def expected(name: str) -> str:
        try:
            return version(name)
        except PackageNotFoundError:
            return "absent"

    assert inputs.dependency_versions() == {n: expected(n) for n in inputs.DEPENDENCIES}
    # an earlier entry of sys.path wins, as it does for imports; spelling is normalized
    (tmp_path / "PyYAML-9.9.dist-info").mkdir()
    (tmp_path / "pydantic_core-0.1.dist-info").mkdir()
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    versions = inputs.dependency_versions()
    assert (versions["PyYAML"], versions["pydantic-core"]) == ("9.9", "0.1")
    monkeypatch.setattr(sys, "path", [str(tmp_path)])
    assert inputs.dependency_versions()["click"] == "absent"
