"""docs/python.md runs: its `python` blocks, in order, in one namespace, from a copy of
the repository's generated/ with the guide's own specs (`mail`, `paint`) built beside it.

A block whose first line is `# file: NAME.py` is a module the guide asks the reader to
write: it is written to disk (on the python path), not run.
"""

from __future__ import annotations

import re
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest
from docs_support import generated_copy
from project_support import make_project
from toolc.config import load_config
from toolc.frontend import compile_specs
from toolc.pipeline import render_outputs

ROOT = Path(__file__).resolve().parents[1]
GUIDE = (ROOT / "docs" / "python.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```(python|yaml)\n(.*?)```", GUIDE, re.DOTALL)


def files_to_write() -> dict[str, str]:
    """The modules the guide asks the reader to write, by file name."""
    return {text.splitlines()[0].removeprefix("# file: ").strip(): text
            for lang, text in BLOCKS
            if lang == "python" and text.startswith("# file: ")}


def build_guide_specs(project: Path) -> None:
    """The guide's yaml specs (`mail`, `paint`), built as `toolc build` would (their
    handler modules written first, so that the build checks the references), into
    project/generated."""
    specs = {module_of(text): text for lang, text in BLOCKS if lang == "yaml"}
    make_project(project, specs, files=files_to_write(), output="generated", python_path=["."])
    compiled = compile_specs(load_config(project))
    assert compiled.project is not None and not list(compiled.bag), \
        [d.message for d in compiled.bag]
    for rel, text in render_outputs(compiled.project).items():
        if rel.endswith(".py") and rel != "__init__.py":
            (project / "generated" / rel).write_text(text, encoding="utf-8")


def module_of(spec: str) -> str:
    [module] = re.findall(r"^module: (\w+)$", spec, re.MULTILINE)
    return str(module)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    copy = generated_copy(tmp_path, monkeypatch)
    next(copy)
    build_guide_specs(tmp_path)
    yield tmp_path
    for name in ("mail_app", "paint_app"):
        sys.modules.pop(name, None)
    next(copy, None)  # forget the copy's modules


def test_the_guide_has_an_example_per_adapter() -> None:
    code = "\n".join(text for lang, text in BLOCKS if lang == "python")
    for module in ("pydantic_ai", "openai_agents", "langchain", "claude_agent_sdk"):
        assert f"from toolc.adapters.{module} import" in code


def test_every_python_block_runs(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    guide = types.ModuleType("python_guide")  # a real module: dataclasses look theirs up
    monkeypatch.setitem(sys.modules, "python_guide", guide)
    namespace = guide.__dict__
    for lang, text in BLOCKS:
        if lang != "python":
            continue
        first = text.splitlines()[0]
        if first.startswith("# file: "):
            continue  # written before the build
        code = compile(text, f"docs/python.md block {first!r}", "exec", dont_inherit=True)
        exec(code, namespace)  # noqa: S102  # the guide is this repository's own text
