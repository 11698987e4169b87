"""[tool.toolc]: defaults, every key, and a located error for each bad input."""

from __future__ import annotations

from pathlib import Path

import pytest
from toolc.config import load_config
from toolc.diagnostics import Severity, SpecError


def project(tmp_path: Path, table: str) -> Path:
    (tmp_path / "pyproject.toml").write_text(f"[project]\nname = 'x'\n\n{table}\n")
    return tmp_path


def test_defaults_without_pyproject(tmp_path: Path) -> None:
    config = load_config(tmp_path)
    assert config.specs == (tmp_path.resolve() / "specs",)
    assert config.output == tmp_path.resolve() / "generated"


def test_reads_every_key(tmp_path: Path) -> None:
    root = project(tmp_path, """[tool.toolc]
specs = ["a", "b/c.toolc.yaml"]
output = "out"
python-path = ["src"]
format = "assert"
serve-deps = "app.deps:make"
targets = ["gemini", "openai-strict", "gemini"]
[tool.toolc.severity]
TC201 = "warning"
unportable-name = "off"
[tool.toolc.diff]
severity = {FORMAT_ADDED = "info"}
""")
    config = load_config(root / "a")
    assert config.root == root.resolve()
    assert config.specs == (root.resolve() / "a", root.resolve() / "b/c.toolc.yaml")
    assert config.output == root.resolve() / "out"
    assert config.python_path == (root.resolve() / "src",)
    assert config.format == "assert"
    assert config.serve_deps == "app.deps:make"
    assert config.targets == ("gemini", "openai-strict")
    assert config.severities == {"TC201": Severity.WARNING, "TC302": Severity.OFF}
    assert config.diff == {"severity": {"FORMAT_ADDED": "info"}}


@pytest.mark.parametrize(
    ("table", "message", "line"),
    [
        ('[tool.toolc]\nspec = "s"', "unknown key 'spec' in [tool.toolc] (did you mean 'specs'?)", 5),
        ("[tool.toolc]\noutput = 3", "output must be a path", 5),
        ('[tool.toolc]\nspecs = [1]', "specs must be a path or a list of paths", 5),
        ('[tool.toolc.severity]\nmissing-descripton = "off"', "did you mean 'missing-description'", 5),
        ('[tool.toolc.severity]\nTC201 = "loud"', "must be \"off\", \"warning\" or \"error\"", 5),
        ('[tool.toolc]\nspecs = "s', "not valid TOML", 1),
        ('[tool.toolc]\nformat = "strict"', 'format must be "annotate" or "assert"', 5),
        ('[tool.toolc]\nserve-deps = "app.deps"', 'serve-deps must be "package.module:factory"', 5),
        ('[tool.toolc]\nserve-deps = ["a:b"]', 'serve-deps must be "package.module:factory"', 5),
        ('[tool.toolc]\ntargets = ["openai"]', ("unknown target 'openai' in [tool.toolc] "
         "targets (did you mean 'openai-strict'?); known: openai-strict, anthropic-strict, "
         "gemini"), 5),
        ('[tool.toolc]\ntargets = "gemini"', "targets must be a list of target names", 5),
    ],
)
def test_bad_config_is_a_located_error(tmp_path: Path, table: str, message: str,
                                       line: int) -> None:
    with pytest.raises(SpecError) as exc:
        load_config(project(tmp_path, table))
    [d] = exc.value.diagnostics
    assert d.code == "TC901"
    assert message in d.message
    assert d.span is not None and d.span.line == line


@pytest.mark.parametrize(
    ("table", "line"),
    [
        ('[tool.toolc]\noutput = "../elsewhere"', 5),
        ('[tool.toolc]\noutput = "/tmp"', 5),
        ('[tool.toolc]\noutput = "."', 5),
        ('[tool.toolc]\noutput = "gen"\nspecs = ["specs", "../../etc"]', 6),
        ('[tool.toolc]\noutput = "linked"', 5),  # a link in the project to outside it
    ],
)
def test_specs_and_output_must_lie_inside_the_project(tmp_path: Path, table: str,
                                                      line: int) -> None:
    root = tmp_path / "project"
    root.mkdir()
    (tmp_path / "outside").mkdir()
    (root / "linked").symlink_to(tmp_path / "outside")
    with pytest.raises(SpecError) as exc:
        load_config(project(root, table))
    [d] = exc.value.diagnostics
    assert d.code == "TC902" and d.span is not None and d.span.line == line
    assert "project" in d.message


def test_a_link_that_stays_inside_the_project_is_followed(tmp_path: Path) -> None:
    (tmp_path / "build" / "gen").mkdir(parents=True)
    (tmp_path / "generated").symlink_to(tmp_path / "build" / "gen")
    config = load_config(project(tmp_path, '[tool.toolc]\noutput = "generated"'))
    assert config.output == tmp_path.resolve() / "generated"


def test_per_file_severity_reads_globs_in_order(tmp_path: Path) -> None:
    root = project(tmp_path, """[tool.toolc.per-file-severity]
"specs/vendor/*.toolc.yaml" = { TC201 = "off", unportable-name = "info" }
"legacy.toolc.yaml" = { missing-description = "warning" }
""")
    config = load_config(root)
    assert config.per_file_severities == (
        ("specs/vendor/*.toolc.yaml", {"TC201": Severity.OFF, "TC302": Severity.INFO}),
        ("legacy.toolc.yaml", {"TC201": Severity.WARNING}),
    )
    bag = config.bag()
    assert bag.per_file == config.per_file_severities


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ('"/etc/*.yaml" = { TC201 = "off" }', "must be a project-relative path"),
        ('"../other/*.yaml" = { TC201 = "off" }', "has `..`"),
        ('"" = { TC201 = "off" }', "is empty"),
        ('"specs/*.yaml" = "off"', "must be a table"),
        ('"specs/*.yaml" = { TC2O1 = "off" }', "unknown rule 'TC2O1'"),
        ('"specs/*.yaml" = { TC201 = "quiet" }', '"off", "info", "warning" or "error"'),
    ],
)
def test_bad_per_file_severity_is_located(tmp_path: Path, entry: str, message: str) -> None:
    root = project(tmp_path, f"[tool.toolc.per-file-severity]\n{entry}\n")
    with pytest.raises(SpecError) as info:
        load_config(root)
    [d] = info.value.diagnostics
    assert d.code == "TC901" and message in d.message, d.message
    assert d.span is not None and d.span.line == 5


def test_per_file_severity_must_be_a_table(tmp_path: Path) -> None:
    root = project(tmp_path, '[tool.toolc]\nper-file-severity = "off"\n')
    with pytest.raises(SpecError) as info:
        load_config(root)
    assert "must be a table of globs" in info.value.diagnostics[0].message
