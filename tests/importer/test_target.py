"""Where ``toolc import`` writes its spec: inside the project, never through a link. A
committed link at the target (``specs/tools.toolc.yaml -> /anywhere``) or on the way
is refused (exit 2) and nothing outside the project is touched, ``--force`` or not."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from import_support import import_project, run
from project_support import enter
from toolc.commands.import_specs import run_import

IMPORT = {"stdio": "some-server", "http": None, "config_file": None, "module": "tools",
          "out_path": None}


def do_import(**options: Any) -> tuple[int, str, str]:
    """An import of the saved listing (the server is not contacted)."""
    return run(run_import, **{**IMPORT, "saved": "tools.json", **options})


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "outside").mkdir()
    return enter(import_project(tmp_path / "project"), monkeypatch)


def outside_files(project: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in (project.parent / "outside").iterdir()}


def test_a_dangling_link_at_the_target_is_not_written_through(project: Path) -> None:
    target = project / "specs" / "tools.toolc.yaml"
    target.symlink_to(project.parent / "outside" / "anywhere.yaml")
    code, out, err = do_import()
    assert code == 2, out + err
    assert err == ("error: specs/tools.toolc.yaml is a symbolic link: toolc writes nothing "
                   "through a link (it could point outside the project); the spec was not "
                   "written (give --out elsewhere in the project, or --out - to print it)\n")
    assert "ok" not in out
    assert outside_files(project) == {}
    assert target.is_symlink()


def test_force_does_not_replace_a_file_a_link_points_to(project: Path) -> None:
    victim = project.parent / "outside" / "victim.yaml"
    victim.write_text("precious\n")
    (project / "specs" / "tools.toolc.yaml").symlink_to(victim)
    code, _, err = do_import(force=True)
    assert code == 2 and "is a symbolic link" in err
    assert outside_files(project) == {"victim.yaml": "precious\n"}


def test_a_link_on_the_way_is_refused(project: Path) -> None:
    (project / "specs" / "vendor").symlink_to(project.parent / "outside")
    code, _, err = do_import(out_path="specs/vendor/tools.toolc.yaml")
    assert code == 2
    assert err.startswith("error: specs/vendor/tools.toolc.yaml cannot be written: "
                          "specs/vendor is a symbolic link")
    assert outside_files(project) == {}


def test_a_target_outside_the_project_is_refused(project: Path) -> None:
    code, _, err = do_import(out_path="../outside/tools.toolc.yaml")
    assert code == 2
    assert err.startswith("error: ../outside/tools.toolc.yaml is outside the project")
    assert outside_files(project) == {}


def test_force_replaces_a_regular_file_in_the_project(project: Path) -> None:
    target = project / "specs" / "tools.toolc.yaml"
    target.write_text("old\n")
    assert do_import()[0] == 1  # exists: --force needed
    code, out, err = do_import(force=True)
    assert code == 0, out + err
    assert "kind: mcp" in target.read_text() and not target.is_symlink()
    assert sorted(p.name for p in target.parent.iterdir()) == ["tools.toolc.yaml"]
