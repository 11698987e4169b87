"""Code references found without importing: the module's source, parsed, and its names."""

from __future__ import annotations

import sys
from pathlib import Path

from toolc.checks.code import target_problem
from toolc.python_source import SourceIndex


def _index(tmp_path: Path, files: dict[str, str]) -> SourceIndex:
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return SourceIndex((tmp_path,))


def test_names_a_module_binds_are_found_wherever_it_binds_them(tmp_path: Path) -> None:
    index = _index(tmp_path, {"app/__init__.py": "", "app/tools.py": (
        "import os\nfrom json import dumps as dump\nx: int = 1\n"
        "try:\n    import fast as speed\nexcept ImportError:\n    speed = None\n"
        "if True:\n    def later(ctx): ...\n"
        "async def run(ctx): ...\nclass Box:\n    def open(self, ctx): ...\n    size = 3\n"),
        "app/sub/__init__.py": ""})
    for ref in ("app.tools:os", "app.tools:dump", "app.tools:x", "app.tools:speed",
                "app.tools:later", "app.tools:run", "app.tools:Box.open", "app.tools:Box.size",
                "app:sub", "app:tools"):
        assert target_problem(index, ref) is None, ref


def test_what_is_missing_is_an_error_with_a_suggestion(tmp_path: Path) -> None:
    index = _index(tmp_path, {"app/__init__.py": "", "app/tools.py": "def run(ctx): ...\n"})
    assert target_problem(index, "app.tools:runn") == (
        "TC341", "module 'app.tools' has no attribute 'runn'; did you mean 'run'?",
        "app.tools:run")
    code, message, instead = target_problem(index, "app.tool:run") or ("", "", "")
    assert code == "TC340" and "did you mean 'app.tools'?" in message
    assert instead == "app.tools:run"  # what the diagnostic's fix writes


def test_what_only_running_could_tell_is_a_warning(tmp_path: Path) -> None:
    index = _index(tmp_path, {
        "dyn.py": "from elsewhere import *\n",
        "lazy.py": "def __getattr__(name): ...\n",
        "inst.py": "class T:\n    pass\ntools = T()\n",
        "kid.py": "class Base: ...\nclass Kid(Base):\n    pass\n",
        "broken.py": "def (:\n",
        "fast.cpython-311-x86_64-linux-gnu.so": "",
    })
    for ref, why in (("dyn:anything", "may provide 'anything'"),
                     ("lazy:anything", "may provide 'anything'"),
                     ("inst:tools.run", "'tools' of module 'inst' is not a class"),
                     ("kid:Kid.inherited", "may provide 'inherited'"),
                     ("broken:f", "cannot be parsed"),
                     ("fast:f", "compiled extension")):
        code, message, _ = target_problem(index, ref) or ("", "", None)
        assert code == "TC342" and why in message, (ref, message)


def test_nothing_is_imported(tmp_path: Path) -> None:
    index = _index(tmp_path, {"boom_mod.py": "raise SystemExit('imported!')\ndef f(): ...\n"})
    assert target_problem(index, "boom_mod:f") is None
    assert "boom_mod" not in sys.modules
