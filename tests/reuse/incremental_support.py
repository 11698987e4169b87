"""The project of the incremental-build tests (tests/output/test_incremental.py,
test_components.py): five modules, four of them connected, made from a ``State`` that
the tests edit, written and built as a user's project would be."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from project_support import pyproject
from toolc.pipeline import BuildResult
from toolc.report.text import diagnostics_text

HANDLERS = '''\
"""Handlers, predicate and prepare function of the incremental-build test (version {version})."""

import dataclasses


async def handle(ctx, **params):
    return "ok"


def always(ctx):
    return True


def blank(ctx, tools):  # loses the descriptions: a certification finding (TC502)
    return [dataclasses.replace(tool, description="") for tool in tools]
'''

# The same module with a `blank` that keeps the descriptions: no finding any more.
KEEPING = HANDLERS.replace('description="") for tool in tools]', 'description=tool.description)'
                           ' for tool in tools]')

WORDS = ["alpha", "bravo", "carbon", "delta", "echo", "fable", "gamma", "harbor", "index"]


@dataclass
class State:
    """The project, as the spec texts are made from it."""

    tools: dict[str, list[list[str]]] = field(default_factory=lambda: {
        "base": [["ping", "Answer pong."]],
        "mid": [["locate", "Locate an address."], ["route", "Route between addresses."]],
        "top": [["plan", "Plan a trip."]],
        "solo": [["alone", "Stand alone."]],
    })
    address: list[str] = field(default_factory=lambda: ["street", "city"])
    address_description: str = ""  # none: TC201 at Address, listing its undescribed uses
    broken: str | None = None
    solo: bool = True
    solo_links: bool = True        # solo's tool takes a base.Address: one component
    lone_name: str = "lone"        # renamed onto solo's name, in case or not: errors
    lone_dotted: bool = False      # its tool `far.x` (TC302, suppressed) or `far` (TC022)
    point: str = "A point."        # the schema file lone's `$ref` inlines
    tamper: bool = False           # a golden file of lone's edited by hand
    lone_handler: int = 0          # its handler module: found (0, 1), may be (2), absent (3)
    config: str = ""
    version: int = 0
    keeping: bool = False          # the prepare function keeps the descriptions
    made: int = 0

    def texts(self) -> dict[str, str]:
        texts = {"base": self._base(), "mid": self._mid(), "top": self._top()}
        if self.solo:
            params = "      where: {type: base.Address}\n" if self.solo_links else ""
            texts["solo"] = self._module("solo", [], "toolsets:\n  own: {kind: function, "
                                         f"tools: [{self._names('solo')}]}}\nexport: own\n",
                                         params)
        far = "far.x" if self.lone_dotted else "far"
        texts["lone"] = (f"toolc: 1\nmodule: {self.lone_name}\ndescription: The lone module.\n"
                         f"tools:\n  {far}:  # toolc: ignore[TC302]\n"
                         "    description: Reach far.\n    handler: far_app:handle\n"
                         "    params:\n      at: {$ref: 'point.json', description: Where.}\n")
        if self.broken in texts:
            texts[self.broken] = texts[self.broken].replace(
                "    handler: app:handle\n", "    handler: app:handle\n    colour: red\n", 1)
        return texts

    def _names(self, module: str) -> str:
        return ", ".join(name for name, _ in self.tools[module])

    def _tools(self, module: str, params: str) -> str:
        out = "tools:\n"
        for name, description in self.tools[module]:
            out += (f"  {name}:\n    description: {description}\n    handler: app:handle\n"
                    f"    params:\n{params}")
        return out

    def _module(self, module: str, head: list[str], toolsets: str, params: str = "") -> str:
        params = params or ("      mail: {type: string, format: email, "
                            "description: Where to write.}\n")
        return "\n".join([f"toolc: 1\nmodule: {module}\ndescription: The {module} module.",
                          *head, self._tools(module, params) + toolsets])

    def _base(self) -> str:
        props = "".join(f"      {p}: {{type: string, description: The {p}.}}\n"
                        for p in self.address)
        # Without a description, Address is one TC201 at the type that lists its
        # undescribed uses: solo's, while solo uses it (a diagnostic of base that an
        # importer changes).
        described = (f"    description: {self.address_description}\n"
                     if self.address_description else "")
        types = (f"types:\n  Address:\n{described}"
                 f"    type: object\n    properties:\n{props.rstrip()}")
        return self._module("base", [types], "toolsets:\n  core: {kind: function, tools: "
                            f"[{self._names('base')}]}}\nexport: core\n")

    def _mid(self) -> str:
        params = "      where: {type: base.Address, description: The address.}\n"
        return self._module("mid", [], "toolsets:\n  own: {kind: function, tools: "
                            f"[{self._names('mid')}]}}\n  all: {{kind: combined, "
                            "toolsets: [own, base.core]}\nexport: all\n", params)

    def _top(self) -> str:
        return self._module("top", [], "toolsets:\n  own: {kind: function, tools: "
                            f"[{self._names('top')}]}}\n  shown: {{kind: filtered, inner: own, "
                            "predicate: \"app:always\"}\n  tidy: {kind: prepared, inner: "
                            "shown, prepare: \"app:blank\"}\n  all: {kind: combined, "
                            "toolsets: [tidy, mid.all]}\nexport: all\n")


FAR_APP = ["async def handle(ctx, **params):\n    return 'far'\n",
           "async def handle(ctx, **params):  # again\n    return 'far'\n",
           "def __getattr__(name):  # TC342: it may provide `handle`\n    raise AttributeError\n",
           "async def other(ctx, **params):  # TC341: no `handle`\n    return 'far'\n"]


def write(root: Path, state: State) -> None:
    # Certification's TC502 a warning: a build with certification findings succeeds, and
    # a reusing build must say them again.
    severity = ", ".join(['TC502 = "warning"', 'TC201 = "warning"',
                          *[state.config] * state.config.startswith("TC")])
    extra = "" if state.config.startswith("TC") else state.config
    (root / "pyproject.toml").write_text(
        pyproject(python_path=["handlers"], extra=f"{extra}\nseverity = {{ {severity} }}\n"))
    specs = root / "specs"
    specs.mkdir(exist_ok=True)
    texts = state.texts()
    for old in specs.glob("*.toolc.yaml"):
        if old.name.removesuffix(".toolc.yaml") not in texts:
            old.unlink()
    for module, text in texts.items():
        path = specs / f"{module}.toolc.yaml"
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
    point = json.dumps({"type": "object", "description": state.point, "properties": {
        "x": {"type": "number", "description": "Across."}}})
    if not (specs / "point.json").exists() or (specs / "point.json").read_text() != point:
        (specs / "point.json").write_text(point)
    (root / "handlers").mkdir(exist_ok=True)
    (root / "handlers" / "app.py").write_text(
        (KEEPING if state.keeping else HANDLERS).format(version=state.version))
    (root / "handlers" / "far_app.py").write_text(FAR_APP[state.lone_handler])
    if state.tamper:
        state.tamper = False
        for golden in (root / "generated" / "schemas").glob("*/far*.json"):
            golden.write_text(golden.read_text().replace("Reach far", "Reach near"))


def output_of(root: Path) -> dict[str, bytes]:
    out = root / "generated"
    return {p.relative_to(out).as_posix(): p.read_bytes()
            for p in sorted(out.rglob("*")) if p.is_file()} if out.is_dir() else {}


def shown(result: BuildResult) -> dict[str, Any]:
    """What a build says and decides, to compare (the plan's lists, not how it was found).
    The diagnostics as every format shows them: in ``DiagnosticBag.sorted`` order (a
    build that took components over has found them in another)."""
    plan = result.plan
    return {"ok": result.ok,
            "diagnostics": diagnostics_text(result.compiled.bag.sorted(), result.compiled.sources),
            "written": plan.written if plan else None,
            "removed": plan.removed if plan else None,
            "unchanged": plan.unchanged if plan else None}


def returns_of(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[Any]:
    """What each call of ``owner.name`` returns from now on, in order (it still runs)."""
    found: list[Any] = []
    real = getattr(owner, name)

    def keep(*args: Any, **kwargs: Any) -> Any:
        found.append(real(*args, **kwargs))
        return found[-1]

    monkeypatch.setattr(owner, name, keep)
    return found
