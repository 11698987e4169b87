"""The shape of a generated module: nothing built or imported at import, names built on
first use (with what they need, cycles together), and the module's public surface."""

from __future__ import annotations

import dataclasses
import json
import os
import pickle
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from generate_support import TYPING
from toolc.generate import generate_module
from toolc.generate.assemble import strongly_connected
from toolc.generate.layout import ANY
from toolc.generate.models import AliasDef
from toolc.ir import ProjectIR, Ref

Load = Callable[[str], Any]

_PROBE = """
import json, sys
from pydantic import BaseModel
import toolc.runtime
classes = len(BaseModel.__subclasses__())
import generated_schemas.schemas as m
out = {
    "classes_made": len(BaseModel.__subclasses__()) - classes,
    "user_code": sorted(n for n in sys.modules if n.startswith("fixture_handlers")),
    "built": sorted(n for n in vars(m) if n in m.__all__),
}
m.EverythingParams
out["after_one"] = sorted(n for n in vars(m) if n in m.__all__)
out["user_code_after"] = sorted(n for n in sys.modules if n.startswith("fixture_handlers"))
print(json.dumps(out))
"""


def test_importing_builds_nothing_and_imports_no_user_code(staged: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(staged), str(TYPING)])}
    done = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True,
                          env=env, check=True)
    found = json.loads(done.stdout)
    assert found["classes_made"] == 0
    assert found["user_code"] == [] and found["user_code_after"] == []
    assert found["built"] == []
    # one model, and exactly the models and aliases it refers to
    assert found["after_one"] == [
        "Email", "EverythingParams", "EverythingParamsPoint", "EverythingParamsReasonDuplicate",
        "EverythingParamsReasonNotPlanned", "EverythingParamsSettings", "File", "Folder", "Json",
        "Level", "Shape", "ShapeOption1", "ShapeOption2", "Tree"]


def test_every_public_name_resolves_and_dir_lists_it(importable: Load) -> None:
    for where in ("schemas.schemas", "names.names", "every_kind.kinds", "workbench.workbench"):
        module = importable(where)
        assert module.__all__ == sorted(module.__all__)
        assert set(module.__all__) <= set(dir(module))
        for name in module.__all__:
            assert getattr(module, name) is getattr(module, name), name  # built once


def test_an_unknown_name_is_an_attribute_error(importable: Load) -> None:
    module = importable("workbench.workbench")
    assert not hasattr(module, "Nope")
    with pytest.raises(AttributeError, match="has no attribute 'Nope'"):
        module.Nope  # noqa: B018


def test_models_are_named_as_their_module_attribute(importable: Load) -> None:
    """A class made inside a builder still reads, reprs and pickles as <module>.<name>."""
    schemas = importable("schemas.schemas")
    assert schemas.Tree.__qualname__ == "Tree"
    assert schemas.Tree.__module__ == "generated_schemas.schemas"
    tree = schemas.Tree.model_validate({"label": "a", "children": [{"label": "b"}]})
    assert pickle.loads(pickle.dumps(tree)) == tree


def test_mutually_recursive_types_are_built_together(importable: Load) -> None:
    schemas = importable("schemas.schemas")
    folder = schemas.Folder.model_validate(
        {"name": "root", "files": [{"name": "a", "folder": {"name": "sub"}}]})
    assert type(folder.files[0]) is schemas.File
    assert type(folder.files[0].folder) is schemas.Folder


def test_protocols_exist_at_run_time_too(importable: Load) -> None:
    workbench = importable("workbench.workbench")
    handler = workbench.ReadLogHandler
    assert handler.__doc__ == "Return the newest lines of the server log."
    assert getattr(handler, "_is_protocol", False)


def test_strongly_connected_puts_cycles_together_dependencies_first() -> None:
    defs = [AliasDef("A", ANY, {"B"}), AliasDef("B", ANY, {"C"}), AliasDef("C", ANY, {"B"}),
            AliasDef("D", ANY, set()), AliasDef("E", ANY, {"A", "D"})]
    groups = [[d.name for d in group] for group in strongly_connected(defs)]
    assert groups == [["B", "C"], ["A"], ["D"], ["E"]]


def test_a_reference_that_is_not_identifiers_is_never_written_as_code(
        projects: dict[str, ProjectIR]) -> None:
    """Defence in depth: the front end refuses such references, the generator would not
    paste one into an import even if it got one (the runtime's LazyRef takes it as text)."""
    project = projects["workbench"]
    module = project.modules["workbench"]
    odd = Ref("os; import sys", "x")
    tool = dataclasses.replace(module.tools["readLog"], handler=odd)
    text = generate_module(dataclasses.replace(
        module, tools={**module.tools, "readLog": tool}), project)
    assert "import os; import sys" not in text
    assert "rt.LazyRef(\"os; import sys\", \"x\")" in text
    assert "_check_ReadLog" not in text and "_check_SaveNote" in text


VALID = Path(__file__).parents[1] / "fixtures" / "valid"
EXPECTED = sorted(p for p in VALID.glob("*/expected/*.py") if p.name != "__init__.py")
SECTIONS = ["# The pydantic models:", "# The type aliases:", "# The handler Protocols:",
            "# The tools:", "# The toolsets:", "# At run time:"]
ALIAS = re.compile(r"^(\w+): TypeAlias = (r?\"\"\"|[\"'])", re.MULTILINE)


@pytest.mark.parametrize("path", EXPECTED, ids=lambda p: f"{p.parents[1].name}/{p.name}")
def test_a_generated_module_reads_as_what_it_is(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    classes = [line.split("(")[0] for line in lines if line.startswith("class ")]
    assert len(classes) == len(set(classes))  # each model and Protocol written once
    recorded = "only records its body" in text
    assert recorded == bool(classes) and text.count("only records its body") <= 1
    assert not recorded or "only records its body" in "".join(lines[:4])  # said at the top
    found = [s for s in SECTIONS if s in text]
    assert sorted(found, key=text.index) == found and found[-1] == "# At run time:"
    assert "_GROUPS" not in text and "_TOOLSETS" not in text  # builders are found by name
    # each alias written once, at the top level, as the string mypy reads as its type
    aliases = [m[1] for m in ALIAS.finditer(text)]
    for name in aliases:
        assert len(re.findall(rf"^\s*{name}(: TypeAlias)? =", text, re.MULTILINE)) == 1
    assert "_build_" not in text
    assert bool(aliases) == ("a type alias" in "".join(lines[:5]))  # said at the top
    if "def _check_user_code" in text:
        assert "# Never called" in lines[lines.index("    def _check_user_code() -> None:") - 1]
    declared = [line.split(":")[0].strip() for line in lines
                if line.startswith("    ") and ": rt." in line and "=" not in line
                and not line.startswith("     ")]
    for attr in declared:
        assert f"def _toolset_{attr}() ->" in text, attr
