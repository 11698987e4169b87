"""``toolc check-handlers``: a real mypy run over a project; each handler, predicate and
wrapper whose type does not fit the spec is reported at its own ``def``, every other
finding as mypy gives it; and ``toolc init``'s mypy configuration keeps covering new
specs and handler modules."""

from __future__ import annotations

import ast
import importlib.util
import io
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from commands_support import build
from project_support import enter, make_project
from toolc.commands import check_handlers as command
from toolc.commands.check_handlers import check_handlers
from toolc.commands.init import init_project
from toolc.config import load_config

ROOT = Path(__file__).resolve().parents[2]
WRONG_SPEC = ROOT / "tests" / "fixtures" / "valid" / "wrong_handler" / "wrong.toolc.yaml"
WRONG_CODE = ROOT / "tests" / "typing" / "fixture_handlers" / "wrong.py"

BILLING_SPEC = """\
toolc: 1
module: billing
description: Billing tools.
tools:
  invoiceTotal:
    description: The total of an invoice, in cents.
    handler: billing.handlers:invoice_total
    params:
      invoice: {type: integer, description: The invoice number.}
toolsets:
  main: {kind: function, tools: [invoiceTotal]}
export: main
"""

BILLING_CODE = """\
from __future__ import annotations

from typing import Any

from toolc.runtime import RunContext


def _cents(amount: float) -> int:
    return str(amount)


def invoice_total(ctx: RunContext[Any], invoice: {invoice}) -> str:
    return str(_cents(12.5))
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
            mypy_caches: Callable[[str], Path]) -> Path:
    monkeypatch.delenv("MYPYPATH", raising=False)
    # (the projects' own mypy options, not --strict: a cache of their own)
    monkeypatch.setenv("MYPY_CACHE_DIR", str(mypy_caches("projects")))
    return enter(tmp_path, monkeypatch)


def run() -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = check_handlers(out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def defined_at(path: Path, *names: str) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = {n.name: n.lineno for n in tree.body
             if isinstance(n, ast.FunctionDef | ast.ClassDef)}
    return [lines[name] for name in names]


def test_each_wrong_handler_predicate_and_wrapper_is_reported_at_its_def(project: Path
                                                                         ) -> None:
    make_project(project, {"wrong": WRONG_SPEC.read_text()}, python_path=["src"],
                 files={"src/fixture_handlers/__init__.py": "",
                        "src/fixture_handlers/wrong.py": WRONG_CODE.read_text()})
    package = project / "src" / "fixture_handlers"
    assert build() == 0  # the build finds every name; only mypy the types
    code, out, _ = run()
    assert code == 1
    errors = [line for line in out.splitlines() if ": error: " in line]
    shown = "src/fixture_handlers/wrong.py"
    assert [line.split(":")[:2] for line in errors] == [
        [shown, str(n)] for n in defined_at(package / "wrong.py", "count", "missing",
                                            "structured", "not_a_predicate", "NotAWrapper")]
    assert errors[0].startswith(
        f"{shown}:11:1: error: 'fixture_handlers.wrong:count' does not have the type the "
        "spec gives it, CountHandler (generated/wrong.py:")
    assert '"def count(ctx: RunContext[Any], *, n: str) -> str"' in errors[0]
    assert (f"{shown}:11:1: note: CountHandler is (ctx: rt.RunContext[Any], /, *, n: int) -> "
            "_AnyReturn | Awaitable[_AnyReturn]: the tool's arguments come after ctx as "
            "keyword arguments, named as in the spec") in out
    assert "'fixture_handlers.wrong:NotAWrapper'" in errors[-1]
    assert out.endswith("5 handler(s) do not fit their tools (mypy)\n")
    assert "generated/wrong.py:" not in "".join(line.split(": ")[0] for line in out.splitlines())


def rewrite(path: Path, text: str) -> None:
    """Write ``text`` so that mypy's cache sees the change: it takes a file whose size
    and whole-second mtime are as cached for unchanged, and ``int``/``str`` are the same
    length, so each rewrite moves the mtime on by a second of its own."""
    before = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(text)
    later = max(path.stat().st_mtime_ns, before + 1_000_000_000)
    os.utime(path, ns=(later, later))


def test_init_mypy_config_covers_a_new_spec_and_handler_package(
        project: Path, mypy_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`toolc init`'s `files` names folders, not handler modules: a second spec whose
    handlers live in a new package is checked by plain mypy and by check-handlers."""
    monkeypatch.setenv("MYPY_CACHE_DIR", str(mypy_cache))  # init's configuration is strict
    assert init_project(root=project, module="desk", out=io.StringIO()) == 0
    (project / "specs" / "billing.toolc.yaml").write_text(BILLING_SPEC)
    (project / "billing").mkdir()
    (project / "billing" / "__init__.py").write_text("")
    handlers = project / "billing" / "handlers.py"
    rewrite(handlers, BILLING_CODE.format(invoice="int"))
    assert build() == 0
    mypy = subprocess.run([sys.executable, "-m", "mypy"], cwd=project, capture_output=True,
                          text=True, timeout=600, check=False)
    assert mypy.returncode == 1 and mypy.stdout.startswith(
        'billing/handlers.py:9: error: Incompatible return value type (got "str", expected '
        '"int")  [return-value]'), mypy.stdout
    code, out, _ = run()
    body_error = ('billing/handlers.py:9:12: error: Incompatible return value type (got '
                  '"str", expected "int")  [return-value]')
    assert code == 1 and out.splitlines() == [
        body_error, "every handler fits its tool; mypy found 1 other error(s)"]
    rewrite(handlers, BILLING_CODE.format(invoice="str").replace("return str(amount)",
                                                                  "return round(amount)"))
    code, out, _ = run()
    assert code == 1 and out.startswith(
        "billing/handlers.py:12:1: error: 'billing.handlers:invoice_total' does not have "
        "the type the spec gives it, InvoiceTotalHandler (generated/billing.py:")
    rewrite(handlers, BILLING_CODE.format(invoice="int").replace("return str(amount)",
                                                                  "return round(amount)"))
    clean = "every handler fits its tool: mypy found no error in generated/ and the modules"
    assert run()[:2] == (0, clean + " it imports\n")


def test_without_mypy_it_says_which_extra_brings_it(project: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    (project / "pyproject.toml").write_text('[tool.toolc]\nspecs = "specs"\n')
    find = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "mypy" else find(name, *a))
    code, out, err = run()
    assert (code, out) == (2, "")
    assert err == ("error: toolc check-handlers runs mypy, which is not installed with this "
                   "toolc: pip install 'toolc[dev]'\n")


def test_a_wrapped_check_line_maps_every_line_it_spans() -> None:
    tree = ast.parse("""\
if TYPE_CHECKING:
    def _check_user_code() -> None:
        import some.module as _user_some_module

        _check_AVeryLongToolName: AVeryLongToolNameHandler = (
            _user_some_module.Holder.method
        )
class AVeryLongToolNameHandler(Protocol):
    def __call__(self, ctx: rt.RunContext[Any], /, *, text: str) -> _AnyReturn: ...
""")
    [(check, first, last)] = command._module_checks(tree, "generated/g.py")
    assert (first, last) == (5, 7)
    assert (check.module, check.attr, check.type) == ("some.module", "Holder.method",
                                                      "AVeryLongToolNameHandler")
    assert check.signature == "(ctx: rt.RunContext[Any], /, *, text: str) -> _AnyReturn"


def test_mypy_files_that_would_be_options_are_not_passed(project: Path) -> None:
    """`[tool.mypy] files` may come from a pull request: an entry starting with `-` would
    be an option of mypy's command line, not a file."""
    (project / "pyproject.toml").write_text(
        '[tool.toolc]\nspecs = "specs"\n[tool.mypy]\nfiles = ["--install-types", "tests"]\n')
    assert command._configured_files(load_config(project)) == ["tests"]
    (project / "pyproject.toml").write_text('[tool.toolc]\n[tool.mypy]\nfiles = "a, -b,c"\n')
    assert command._configured_files(load_config(project)) == ["a", "c"]
