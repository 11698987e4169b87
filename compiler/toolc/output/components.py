"""Reuse of the analysis, per component: a build analyses only the specs an edit can reach.

A *component* is a set of modules connected by imports, in either direction. What the
front end makes of a module (its diagnostics, its IR, so its budget figures and golden
files) depends on its own spec, on the specs of the modules it imports and, through
checks that look at every use of a type or a toolset, on the modules that import it;
of the modules outside its component it sees only their names (TC308 and TC313
compare every module's name). So when every input of a component is unchanged since the
last clean build, what its analysis reported (warnings and infos, and which inline
suppressions it used), its budget figures and its golden files are taken over as they
were, and the front end runs over the other specs only.

The inputs of a component, recorded in ``.toolc-cache/components.json``: the environment
(toolc's version and code, the dependencies, ``[tool.toolc]``, as for the no-op cache),
each spec's path and bytes, the schema files its ``$ref``s inline, what the handler check
found for each module name it looked up, and the user code certification imports. Its
golden files must still be the files this machine's build wrote (inode, modification
time, size) with their recorded hashes. Its modules' code and certification verdicts are
``toolc.output.incremental``'s, under the same module keys as ever.

Where taking over could say anything else than a full analysis, the build runs the full
one (``toolc.specs``, ``toolc.pipeline``): when the analysis of the rest looked up a
module name none of its specs declares (a taken module's, or a near miss of one its
"did you mean" would not see), when a module name meets a taken one, when
a taken module's key changed (schema files or user code of the rest are in every key),
when a taken module's code or verdict cannot be reused. A component is recorded only if
every diagnostic of its analysis is located in its own specs.

The record is untrusted input like ``modules.json``: each entry is checked for shape
(one that is off has the whole record ignored, and said so), the files it names are read
only inside the project, only warnings and infos of known codes are replayed, nothing
is taken unless its golden files are the ones written here, and a checking build never
reads it.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeGuard

from ..budget import ExportBudget
from ..config import Config
from ..diagnostics import (
    CERTIFY_CODES,
    COMPARISON_CODES,
    RULES,
    Diagnostic,
    DiagnosticBag,
    Span,
    Suppression,
)
from ..ir import ProjectIR
from ..publish import SCHEMAS_DIR
from ..python_source import outcomes_match, source_index
from ..untrusted import FILE_BYTES, FileRefused, read_untrusted
from .cache import (
    BadRecord,
    _diagnostic_from,
    _diagnostic_record,
    cache_dir,
    certified_code,
    check_looked_up,
    forget_cache_file,
    hashes_match,
    ignored,
    inside_project,
    read_record,
    write_cache_file,
)
from .confine import OutputError, check_way, entry_problem
from .incremental import MEMORY, Graph, file_identity

RECORD_FORMAT = 1
RECORD_FILE = "components.json"
Mark = tuple[Span, tuple[str, ...], tuple[str, ...]]  # a suppression: comment, written, used


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


@dataclass(slots=True)
class Taken:
    """The components a build takes over, and the golden texts read back for them."""

    components: list[Component]
    golden: dict[str, str] = field(default_factory=dict)   # output path -> text

    def golden_read(self) -> dict[str, tuple[list[int], str]]:
        """The golden files read back, by path inside the golden folder: the identity
        each had then, and its text (what the diff need not read again)."""
        prefix = SCHEMAS_DIR + "/"
        return {rel.removeprefix(prefix): (identity, self.golden[rel])
                for c in self.components for files in c.golden.values()
                for rel, (_, identity) in files.items() if rel in self.golden}

    @property
    def graph(self) -> Graph:
        return {name: node for c in self.components for name, node in c.modules.items()}

    @property
    def specs(self) -> set[str]:
        return {spec for c in self.components for spec in c.specs}

    @property
    def schemas(self) -> dict[str, str]:
        return {path: sha for c in self.components for path, sha in c.schemas.items()}

    @property
    def user_code(self) -> dict[str, str] | None:
        found: dict[str, str] = {}
        for c in self.components:
            if c.user_code is None:
                return None
            found.update(c.user_code)
        return found

    @property
    def budgets(self) -> list[ExportBudget]:
        return [b for c in self.components for b in c.budgets.values()]

    def replay(self, bag: DiagnosticBag) -> None:
        """Into ``bag``: the taken specs' suppressions (so that the judges of every stage
        say again what they said of them) and what their analysis reported."""
        for c in self.components:
            for spec, marks in c.suppressions.items():
                bag.add_suppressions(spec, [Suppression(span, written)
                                            for span, written, _ in marks])
                for span, _, used in marks:
                    bag.suppressions[spec][span.line].used.update(used)
            bag.items.extend(c.diagnostics)


# -- taking over ---------------------------------------------------------------------------


def take_over(config: Config, environment: str, digests: Mapping[str, str]) -> Taken | None:
    """The recorded components whose every input is unchanged (``digests``: each spec
    found, as shown, -> sha256 of its bytes), or None when there is none."""
    recorded = _recorded(config)
    if recorded is None or recorded[0] != _digest(environment):
        return None
    return _unchanged(config, recorded[1], digests)


def _recorded(config: Config) -> tuple[Any, list[Component]] | None:
    """The record's environment digest and its components, read and checked once per
    record file in a warm process (``MEMORY``: an editor's keystroke reads it again)."""
    folder = cache_dir(config)
    seen = None if folder is None else (str(folder / RECORD_FILE),
                                        file_identity(folder / RECORD_FILE))
    kept = MEMORY.components if MEMORY.enabled else None
    if kept is not None and seen is not None and seen[1] is not None and kept[0] == seen:
        held: tuple[Any, list[Component]] = kept[1]
        return held
    record = _record(config)
    if record is None:
        return None
    try:
        found = [_component(item) for item in record["components"]]
        if None in found:
            raise BadRecord("has a component that toolc does not write")
    except BadRecord as exc:
        ignored(RECORD_FILE, exc.why)
        return None
    made = (record.get("environment"), [c for c in found if c is not None])
    if MEMORY.enabled and seen is not None:
        MEMORY.components = (seen, made)
    return made


def _unchanged(config: Config, recorded: list[Component],
               digests: Mapping[str, str]) -> Taken | None:
    """The ``recorded`` components whose every input is unchanged."""
    taken = Taken([])
    index = None
    claimed: set[str] = set()  # specs and module names of the components taken so far
    for component in recorded:
        if any(digests.get(s) != sha for s, sha in component.specs.items()):
            continue
        if claimed & ({*component.specs} | {*component.modules}):
            continue  # a record names each once; one that does not is not believed twice
        if not hashes_match(config.root, component.schemas, plain=True):
            continue
        if component.user_code is not None and not hashes_match(config.root, component.user_code):
            continue
        if component.code:
            index = index or source_index(config.python_path, config.root.resolve())
            if not outcomes_match(index, component.code):
                continue
        texts = _golden_texts(config, component)
        if texts is not None:
            taken.components.append(component)
            taken.golden.update(texts)
            claimed.update(component.specs, component.modules)
    return taken if taken.components else None


def _golden_texts(config: Config, component: Component) -> dict[str, str] | None:
    """The component's golden files as this machine's build wrote them, or None. (One
    ``lstat`` a file: 1,000 of them are read here on every build that takes them.)"""
    out, texts = config.output, {}
    seen: set[Path] = set()
    for name, files in component.golden.items():
        # Exactly the golden files there: a record that left one out would have the
        # build remove it.
        if _listed(out / SCHEMAS_DIR / name) != {rel.rpartition("/")[2] for rel in files}:
            return None
        for i, (rel, (sha, identity)) in enumerate(files.items()):
            if i == 0:  # a module's golden files share their folder
                try:
                    check_way(out, rel, seen)
                except OutputError:
                    return None
            path = os.path.join(out, rel)
            try:
                st = os.lstat(path)
                if not stat.S_ISREG(st.st_mode) or \
                        [st.st_ino, st.st_mtime_ns, st.st_size] != identity:
                    return None
                kept = MEMORY.read.get(path)
                if kept is not None and kept[0] == identity and kept[1] == sha:
                    texts[rel] = kept[2]  # a warm process read this very file before
                    continue
                data = read_untrusted(path, FILE_BYTES)
            except (OSError, FileRefused):
                return None
            if hashlib.sha256(data).hexdigest() != sha:
                return None
            texts[rel] = data.decode("utf-8", "surrogateescape")
            if MEMORY.enabled:
                MEMORY.read[path] = (identity, sha, texts[rel])
    return texts


def _listed(folder: Path) -> set[str] | None:
    """The ``.json`` names in ``folder`` (None: it is not a folder there)."""
    try:
        return {name for name in os.listdir(folder) if name.endswith(".json")}
    except OSError:
        return None if os.path.lexists(folder) else set()


def collides(taken: Taken, names: Iterable[str]) -> bool:
    """Whether a module name of the analysed specs meets a taken one, even in case only
    (TC308, TC313: a full analysis reports them, and decides which module is first)."""
    folded = {name.casefold() for name in taken.graph}
    return any(name.casefold() in folded for name in names)


# -- recording -----------------------------------------------------------------------------


def remember(config: Config, environment: str, project: ProjectIR, bag: DiagnosticBag,
             budgets: Iterable[ExportBudget], files: Mapping[str, str],
             digests: Mapping[str, str], taken: Taken | None) -> None:
    """Record the components of this clean build: those analysed now, from ``project``,
    and those taken over. Nothing is recorded when a diagnostic is located outside the
    specs (a schema file, say): no component could be said to own it."""
    made = _components(project)
    owner = {m.path: i for i, group in enumerate(made) for m in group}
    kept = taken.specs if taken is not None else set()
    found: list[list[Diagnostic]] = [[] for _ in made]
    for d in bag:
        if d.code == "TC022" or d.code in CERTIFY_CODES or d.code in COMPARISON_CODES:
            continue  # the judges say TC022 again; verdicts are incremental.py's
        if d.span is None or (d.span.path not in owner and d.span.path not in kept):
            forget(config)
            return
        if d.span.path in owner:
            found[owner[d.span.path]].append(d)
    figures = {b.module: b for b in budgets}
    taken_golden = taken.golden if taken is not None else {}
    components: list[Component] = []
    for group, diagnostics in zip(made, found, strict=True):
        specs = {m.path: digests.get(m.path) for m in group}
        if None in specs.values():
            continue  # a spec read only after the build began: analysed again next time
        part = ProjectIR({m.name: m for m in group}, {})
        inputs = [project.inputs[m.path] for m in group if m.path in project.inputs]
        components.append(Component(
            modules={m.name: (m.path, m.imports) for m in group},
            specs={path: sha for path, sha in specs.items() if sha is not None},
            schemas={f: project.schema_files[f] for i in inputs for f in i.schema_files
                     if f in project.schema_files},
            code={name: list(outcome) for i in inputs for name, outcome in i.code},
            user_code=inside_project(certified_code(config, part)),
            suppressions={m.path: [(s.span, s.written, tuple(sorted(s.used)))
                                   for s in bag.suppressions.get(m.path, {}).values()]
                          for m in group},
            diagnostics=diagnostics,
            budgets={m.name: figures[m.name] for m in group if m.name in figures}))
    _golden_of(config, components, {rel: text for rel, text in files.items()
                                     if rel not in taken_golden})
    # A taken component's golden files were found as recorded, and kept as they are.
    components.extend(taken.components if taken is not None else ())
    write_cache_file(config, RECORD_FILE, {
        "format": RECORD_FORMAT, "environment": _digest(environment),
        "components": [_component_record(c) for c in components]})


def _components(project: ProjectIR) -> list[list[Any]]:
    """The modules of ``project`` grouped by imports, either way (in module order)."""
    parent = {name: name for name in project.modules}

    def root(name: str) -> str:
        while parent[name] != name:
            parent[name] = parent[parent[name]]
            name = parent[name]
        return name

    for name, module in project.modules.items():
        for other in module.imports:
            if other in parent:
                parent[root(other)] = root(name)
    groups: dict[str, list[Any]] = {}
    for name, module in project.modules.items():
        groups.setdefault(root(name), []).append(module)
    return list(groups.values())


def _golden_of(config: Config, components: list[Component],
               files: Mapping[str, str]) -> None:
    """Each component's golden files as written: hash and identity (inode, modification
    time, size), for the next build to find them unchanged."""
    by_module: dict[str, dict[str, tuple[str, list[int]]]] = {}
    for rel, text in files.items():
        if rel.startswith(SCHEMAS_DIR + "/"):
            module, _, _ = rel[len(SCHEMAS_DIR) + 1:].partition("/")
            try:
                st = os.lstat(os.path.join(config.output, rel))
                identity = [st.st_ino, st.st_mtime_ns, st.st_size]
            except OSError:
                identity = [0, 0, -1]  # never found again: analysed next time
            by_module.setdefault(module, {})[rel] = (
                hashlib.sha256(text.encode("utf-8")).hexdigest(), identity)
    for component in components:
        component.golden = {name: by_module.get(name, {}) for name in component.modules}


def forget(config: Config) -> None:
    forget_cache_file(config, RECORD_FILE)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# -- the record, as written and as read back -------------------------------------------------


def _component_record(c: Component) -> dict[str, Any]:
    return {
        "modules": {name: {"spec": spec, "imports": list(imports)}
                    for name, (spec, imports) in c.modules.items()},
        "specs": c.specs, "schemas": c.schemas, "code": c.code, "user_code": c.user_code,
        "suppressions": {spec: [[[s.line, s.col, s.length], list(written), list(used)]
                                for s, written, used in marks]
                         for spec, marks in c.suppressions.items()},
        "diagnostics": [_diagnostic_record(d) for d in c.diagnostics],
        "budgets": {name: b.as_json() for name, b in c.budgets.items()},
        "golden": {name: {rel: [sha, identity] for rel, (sha, identity) in files.items()}
                   for name, files in c.golden.items()},
    }


def _record(config: Config) -> dict[str, Any] | None:
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


def _component(item: Any) -> Component | None:
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
        d = _diagnostic_from(item)
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
