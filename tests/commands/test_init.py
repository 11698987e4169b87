"""``toolc init`` writes only inside the folder, never through a link: a link at any file
it would write (even a dangling one), or on the way to it, is refused with exit 2 before
anything is written, and nothing outside is touched, ``--force`` or not."""

from __future__ import annotations

import io
import os
import subprocess
from pathlib import Path

import pytest
from forkserver_support import python_cmd
from toolc.commands.init import init_project


@pytest.fixture
def folders(tmp_path: Path) -> tuple[Path, Path]:
    root, outside = tmp_path / "project", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    return root, outside


def init(root: Path, *, force: bool = False) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = init_project(force=force, root=root, module="app", out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def contents(folder: Path) -> dict[str, str]:
    """Every file below ``folder`` (links as where they point), by relative path."""
    return {p.relative_to(folder).as_posix(): (f"-> {p.readlink()}" if p.is_symlink()
                                               else p.read_text())
            for p in sorted(folder.rglob("*")) if p.is_symlink() or p.is_file()}


@pytest.mark.parametrize("at", ["specs/app.toolc.yaml", "app_tools.py", "pyproject.toml",
                                ".gitignore", ".toolc"])
def test_a_dangling_link_is_refused_and_nothing_written(folders: tuple[Path, Path],
                                                        at: str) -> None:
    root, outside = folders
    (root / at).parent.mkdir(parents=True, exist_ok=True)
    (root / at).symlink_to(outside / "anywhere")
    before = contents(root)
    code, out, err = init(root, force=True)
    assert code == 2, out + err
    assert err.startswith("error: ") and f"{at} is a symbolic link" in err
    assert err.endswith("; nothing was written\n")
    assert out == "" and contents(root) == before and contents(outside) == {}


@pytest.mark.parametrize("at", ["pyproject.toml", "app_tools.py"])
def test_a_file_a_link_points_to_is_left_alone(folders: tuple[Path, Path], at: str) -> None:
    root, outside = folders
    (outside / "victim").write_text('[project]\nname = "victim"\n')
    (root / at).symlink_to(outside / "victim")
    code, _, err = init(root, force=True)
    assert code == 2 and "is a symbolic link" in err
    assert contents(outside) == {"victim": '[project]\nname = "victim"\n'}


def test_a_fifo_where_a_file_is_added_to_is_refused(folders: tuple[Path, Path]) -> None:
    """In a child with a timeout: opening a FIFO to read or write it waits for the other
    end, which would hang the suite rather than fail."""
    root, _ = folders
    os.mkfifo(root / ".gitignore")
    done = subprocess.run(python_cmd("-m", "toolc", "init", "--module", "app"), cwd=root,
                          capture_output=True, text=True, timeout=240, check=False)
    assert done.returncode == 2
    assert done.stderr == "error: .gitignore is not a regular file; nothing was written\n"
    assert sorted(contents(root)) == []


def test_plain_files_are_written_and_added_to(folders: tuple[Path, Path]) -> None:
    root, _ = folders
    (root / ".gitignore").write_text("*.pyc")
    code, _, err = init(root)
    assert code == 0, err
    assert (root / ".gitignore").read_text() == "*.pyc\n.toolc-cache/\n"
    assert sorted(contents(root)) == [".gitignore", ".toolc/spec.schema.json", "app_tools.py",
                                      "pyproject.toml", "specs/app.toolc.yaml", "tests/test_app.py"]
