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
``toolc.reuse.modules``'s, under the same module keys as ever.

What is taken is handed to the front end as a ``toolc.frontend.Replay``. Where taking
over could say anything else than a full analysis, the front end runs the full one:
when the analysis of the rest looked up a module name none of its specs declares (a
taken module's, or a near miss of one its "did you mean" would not see), when a module
name meets a taken one. Nothing is taken when a
taken module's code (or, certifying, its verdict) cannot be reused: it would need its IR
(``toolc.reuse.last_build``). A component is recorded only if every diagnostic of its
analysis is located in its own specs.

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
from typing import Any

from ..budget import ExportBudget
from ..config import Config
from ..diagnostics import (
    CERTIFY_CODES,
    COMPARISON_CODES,
    Diagnostic,
    DiagnosticBag,
)
from ..frontend import Replay
from ..ir import ProjectIR
from ..output.confine import OutputError, check_way
from ..publish import SCHEMAS_DIR
from ..python_source import outcomes_match, source_index
from ..untrusted import FILE_BYTES, FileRefused, read_untrusted
from .component_record import (
    RECORD_FILE,
    RECORD_FORMAT,
    Component,
    as_record,
    component_from,
    read_components,
)
from .inputs import certified_code
from .memory import MEMORY
from .modules import Graph, file_identity
from .records import (
    BadRecord,
    cache_dir,
    forget_record,
    hashes_match,
    ignored,
    inside_project,
    write_record,
)


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

    def replay(self, read: Mapping[str, bytes]) -> Replay | None:
        """What the front end is handed in place of analysing the taken specs again
        (``read``: each spec's bytes, as shown, as their digests were taken); None if a
        spec's bytes are not there or cannot be decoded."""
        sources: dict[str, str] = {}
        for spec in self.specs:
            data = read.get(spec)
            if data is None:
                return None
            try:
                sources[spec] = data.decode("utf-8-sig")
            except UnicodeDecodeError:
                return None
        return Replay({name: spec for name, (spec, _) in self.graph.items()}, sources,
                      [(c.suppressions, c.diagnostics) for c in self.components],
                      self.budgets)


# -- taking over ---------------------------------------------------------------------------


def take_over(config: Config, environment: str, digests: Mapping[str, str]) -> Taken | None:
    """The recorded components whose every input is unchanged (``digests``: each spec
    found, as shown, -> sha256 of its bytes), or None when there is none."""
    recorded = _recorded(config)
    if recorded is None or recorded[0] != _digest(environment):
        return None
    try:
        return _unchanged(config, recorded[1], digests)
    except BadRecord as exc:
        ignored(RECORD_FILE, exc.why)
        return None


def _recorded(config: Config) -> tuple[Any, list[Component]] | None:
    """The record's environment digest and its components, read and checked once per
    record file in a warm process (``MEMORY``: an editor's keystroke reads it again)."""
    folder = cache_dir(config)
    path = None if folder is None else folder / RECORD_FILE
    seen = (str(path), file_identity(path)) if path is not None else None
    kept = MEMORY.components if MEMORY.enabled else None
    if kept is not None and seen is not None and seen[1] is not None and kept[0] == seen:
        held: tuple[Any, list[Component]] = kept[1]
        return held
    record = read_components(config)
    if record is None:
        return None
    try:
        found = [component_from(item) for item in record["components"]]
        if None in found:
            raise BadRecord("has a component that toolc does not write")
    except BadRecord as exc:
        ignored(RECORD_FILE, exc.why)
        return None
    held = (record.get("environment"), [c for c in found if c is not None])
    if MEMORY.enabled and seen is not None and seen[1] is not None:
        MEMORY.components = (seen, held)
    return held


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
            continue  # the judges say TC022 again; verdicts are modules.py's
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
    write_record(config, RECORD_FILE, {
        "format": RECORD_FORMAT, "environment": _digest(environment),
        "components": [as_record(c) for c in components]})


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
    forget_record(config, RECORD_FILE)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
