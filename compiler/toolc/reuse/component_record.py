"""A component as ``.toolc-cache/components.json`` keeps it: written for the next build,
and read back as untrusted input.

Each entry is checked for shape: one that is off has the whole record ignored, and said
so (``toolc.reuse.records``); the files it names are plain relative paths inside the
project, its diagnostics warnings and infos of known codes located in its own specs,
its budget figures and golden files those of its own modules.
"""


from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeGuard

from ..budget import ExportBudget
from ..config import Config
from ..diagnostics import RULES, Diagnostic, Span
from ..frontend import Mark
from ..output.confine import entry_problem
from ..publish import SCHEMAS_DIR
from .modules import Graph
from .records import (
    BadRecord,
    check_looked_up,
    diagnostic_from,
    diagnostic_record,
    ignored,
    read_record,
)

RECORD_FORMAT = 1
RECORD_FILE = "components.json"


@dataclass(slots=True)
class Component:
    """What the analysis of one component took in and made, as the record keeps it."""

    modules: Graph
    specs: dict[str, str]                  # spec as shown -> sha256 of its bytes
    schemas: dict[str, str] = field(default_factory=dict)      # schema file -> sha256
    code: dict[str, list[str]] = field(default_factory=dict)   # looked up -> outcome
    user_code: dict[str, str] | None = None                    # file -> sha256
    suppressions: dict[str, list[Mark]] = field(default_factory=dict)  # spec -> marks
    diagnostics: list[Diagnostic] = field(default_factory=list)  # without TC022
    budgets: dict[str, ExportBudget] = field(default_factory=dict)
    golden: dict[str, dict[str, tuple[str, list[int]]]] = field(default_factory=dict)


def as_record(c: Component) -> dict[str, Any]:
    """The component as JSON, as ``component_from`` reads it back."""
    return {
        "modules": {name: {"spec": spec, "imports": list(imports)}
                    for name, (spec, imports) in c.modules.items()},
        "specs": c.specs, "schemas": c.schemas, "code": c.code, "user_code": c.user_code,
        "suppressions": {spec: [[[s.line, s.col, s.length], list(written), list(used)]
                                for s, written, used in marks]
                         for spec, marks in c.suppressions.items()},
        "diagnostics": [diagnostic_record(d) for d in c.diagnostics],
        "budgets": {name: b.as_json() for name, b in c.budgets.items()},
        "golden": {name: {rel: [sha, identity] for rel, (sha, identity) in files.items()}
                   for name, files in c.golden.items()},
    }


def read_components(config: Config) -> dict[str, Any] | None:
    """The record, if of this format and holding a list of components (its entries are
    read by ``component_from``)."""
    data = read_record(config, RECORD_FILE)
    if data is None or data.get("format") != RECORD_FORMAT:
        return None
    if not isinstance(data.get("components"), list):
        ignored(RECORD_FILE, 'has no list of "components"')
        return None
    return data


def _strings(value: Any) -> TypeGuard[dict[str, str]]:
    return isinstance(value, dict) and all(isinstance(k, str) and isinstance(v, str)
                                           for k, v in value.items())


def _files(value: Any) -> TypeGuard[dict[str, str]]:
    """File -> hash, each file a plain relative path in the project (nothing else is read:
    a record naming another is bad, :class:`BadRecord`)."""
    if not _strings(value):
        return False
    for rel in value:
        if entry_problem(rel) is not None:
            raise BadRecord(f"names {rel[:200]!r}, not a relative path inside the project")
    return True


def _ints(value: Any, n: int) -> bool:
    return isinstance(value, list) and len(value) == n and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value)


def component_from(item: Any) -> Component | None:
    """A recorded component, or None (analysed again) if any part of it is off."""
    if not isinstance(item, dict):
        return None
    specs, modules = item.get("specs"), item.get("modules")
    if not _strings(specs) or not specs or not isinstance(modules, dict) or not modules:
        return None
    graph: Graph = {}
    for name, node in modules.items():
        if not (name.isidentifier() and isinstance(node, dict) and node.get("spec") in specs
                and isinstance(node.get("imports"), list)
                and all(i in modules for i in node["imports"])):
            return None  # a component imports only its own modules
        graph[name] = (node["spec"], tuple(node["imports"]))
    if set(specs) != {spec for spec, _ in graph.values()}:
        return None  # a spec taken over without its module would leave the build
    component = Component(graph, specs)
    schemas, code, user_code = item.get("schemas"), item.get("code"), item.get("user_code")
    if not _files(schemas) or not isinstance(code, dict) or not (
            user_code is None or _files(user_code)):
        return None
    check_looked_up(code)
    if not all(isinstance(o, list) and all(isinstance(p, str) for p in o) for o in code.values()):
        return None
    component.schemas, component.code, component.user_code = schemas, code, user_code
    if not (_marks(item.get("suppressions"), component)
            and _diagnostics(item.get("diagnostics"), component)
            and _budgets(item.get("budgets"), component)
            and _golden(item.get("golden"), component)):
        return None
    return component


def _marks(value: Any, component: Component) -> bool:
    if not isinstance(value, dict):
        return False
    for spec, marks in value.items():
        if spec not in component.specs or not isinstance(marks, list):
            return False
        found: list[Mark] = []
        for mark in marks:
            if not (isinstance(mark, list) and len(mark) == 3 and _ints(mark[0], 3)
                    and isinstance(mark[1], list) and isinstance(mark[2], list)
                    and all(isinstance(c, str) and len(c) <= 200 for c in mark[1])
                    and all(c in RULES for c in mark[2])):
                return False
            found.append((Span(spec, *mark[0]), tuple(mark[1]), tuple(mark[2])))
        component.suppressions[spec] = found
    return True


def _diagnostics(value: Any, component: Component) -> bool:
    if not isinstance(value, list) or len(value) > 100_000:
        return False
    for item in value:
        d = diagnostic_from(item)
        if d is None or d.code == "TC022" or d.span is None or d.span.path not in component.specs:
            return False
        component.diagnostics.append(d)
    return True


def _budgets(value: Any, component: Component) -> bool:
    if not isinstance(value, dict) or set(value) != set(component.modules):
        return False
    for name, item in value.items():
        figures = ExportBudget.from_json(item)
        if name not in component.modules or figures is None or figures.module != name:
            return False
        component.budgets[name] = figures
    return True


def _golden(value: Any, component: Component) -> bool:
    if not isinstance(value, dict) or set(value) != set(component.modules):
        return False
    for name, files in value.items():
        if not isinstance(files, dict):
            return False
        prefix = f"{SCHEMAS_DIR}/{name}/"
        kept: dict[str, tuple[str, list[int]]] = {}
        for rel, entry in files.items():
            if not (isinstance(rel, str) and rel.startswith(prefix) and "/" not in
                    rel[len(prefix):] and entry_problem(rel) is None
                    and isinstance(entry, list) and len(entry) == 2
                    and isinstance(entry[0], str) and _ints(entry[1], 3)):
                return False
            kept[rel] = (entry[0], entry[1])
        component.golden[name] = kept
    return True
