"""docs/architecture.md's module table names every module of the package, so the map a
newcomer reads cannot drift from the package (a module added, moved or renamed must be
placed in the table too)."""

from __future__ import annotations

import ast
import io
import re
import tokenize
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


DURATION = re.compile(r"\b\d[\d.,]*\s?(?:ms|µs|us|s|seconds)\b")


def quoted_durations(source: str) -> list[tuple[int, str]]:
    """(line, text) of each comment or docstring of ``source`` that quotes a duration."""
    found = [(tok.start[0], tok.string) for tok in tokenize.generate_tokens(
        io.StringIO(source).readline) if tok.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node, clean=False)
            if doc is not None:
                found.append((node.body[0].lineno, doc))
    return [(line, text) for line, text in found if DURATION.search(text)]


# Durations that are settings a reader must know (a timeout, a wait), not measurements.
SETTINGS = {
    "file_events.py": "watchfiles' Rust timeout, which bounds how late a stop is seen",
    "runtime/mcp/toolset.py": "the default timeout of a call to an MCP server",
    "serving/reload.py": "watchfiles' Rust timeout, which bounds how late a stop is seen",
}


def test_no_comment_in_the_package_quotes_a_timing() -> None:
    """A comment says why; the figure behind it is in bench/RESULTS.md ("Costs behind
    the code"), where measurements live."""
    quoted = [f"{path.relative_to(PACKAGE).as_posix()}:{line}: {text.strip()[:60]}"
              for path in sorted(PACKAGE.rglob("*.py"))
              if path.relative_to(PACKAGE).as_posix() not in SETTINGS
              for line, text in quoted_durations(path.read_text(encoding="utf-8"))]
    assert quoted == []


def test_a_timing_is_seen_in_a_comment_and_a_docstring_not_in_code() -> None:
    source = ('"""Takes 0.1 s."""\nTIMEOUT_S = 5  # within 20 ms\n'
              'def f():\n    """About 1.5 us."""\n    return "3 s"\n')
    assert [line for line, _ in quoted_durations(source)] == [2, 1, 4]
