"""docs/architecture.md's module table names every module of the package, so the map a
newcomer reads cannot drift from the package (a module added, moved or renamed must be
placed in the table too)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "compiler" / "toolc"
ARCHITECTURE = ROOT / "docs" / "architecture.md"


def table_rows() -> list[str]:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    table = text.split("## Modules", 1)[1].split("\n## ", 1)[0]
    return [line for line in table.splitlines() if line.startswith("| `")]


def named_paths(rows: list[str]) -> set[str]:
    """Paths in the first cell of each row, ``pkg/{a,b}.py`` expanded; ``pkg/`` names
    the package's ``__init__.py``."""
    named: set[str] = set()
    for row in rows:
        first = row.split("|")[1]
        for path in re.findall(r"`([^`]+)`", first):
            braces = re.fullmatch(r"(.*)\{([^}]*)\}(.*)", path)
            paths = ([braces[1] + part + braces[3] for part in braces[2].split(",")]
                     if braces else [path])
            named.update(p + "__init__.py" if _is_package(p) else p for p in paths)
    return named


def _is_package(path: str) -> bool:
    return path.endswith("/") and (PACKAGE / path / "__init__.py").exists()


def package_modules() -> set[str]:
    return {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")}


def test_every_module_is_in_the_architecture_table() -> None:
    missing = package_modules() - named_paths(table_rows())
    assert not missing, f"docs/architecture.md's module table does not name: {sorted(missing)}"


def test_the_table_names_no_module_that_does_not_exist() -> None:
    named = {p for p in named_paths(table_rows()) if p.endswith(".py")}
    assert not named - package_modules(), sorted(named - package_modules())


def test_braces_and_packages_are_read_as_paths() -> None:
    rows = ["| `output/`, `a/{b,c}.py`, `d.py` | what |", "| `templates/` | not a package |"]
    assert named_paths(rows) == {"output/__init__.py", "a/b.py", "a/c.py", "d.py", "templates/"}


def documented_stages(text: str) -> list[str]:
    """The first word of each stage line of the block after the stages' marker."""
    block = text.split("<!-- the stages, in the order of pipeline.STAGES", 1)[1]
    block = block.split("```\n", 1)[1].split("```", 1)[0]
    return [line.split()[0] for line in block.splitlines() if line and not line[0].isspace()]


def test_the_architecture_shows_the_pipeline_s_stages_in_their_order() -> None:
    from toolc.pipeline import STAGES

    shown = documented_stages(ARCHITECTURE.read_text(encoding="utf-8"))
    assert shown == [stage.__name__ for stage in STAGES]


def test_the_stage_list_is_read_from_the_block() -> None:
    text = "<!-- the stages, in the order of pipeline.STAGES -->\n```\nload  a\n      b\nwrite c\n```\n"
    assert documented_stages(text) == ["load", "write"]
