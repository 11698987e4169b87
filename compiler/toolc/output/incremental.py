"""Incremental builds: per module, reuse what an unchanged module produced last time.

The no-op cache (``toolc.output.cache``) answers only when nothing changed at all. When
something did, a writing build runs the front end over the components an edit reached
(``toolc.output.components`` takes the others over), then, per module, reuses what the
last clean build made of a module whose *key* is unchanged:

- its generated code (``<module>.py``), read back from the output folder and reused only
  when it still has the hash recorded for it (else generated again);
- its certification verdict: the module is not served again, and what its certification
  reported (warnings, infos, the inline suppressions it used) is replayed in its place.

The key of a module hashes everything its code and its verdict depend on: toolc's
version and code, the dependencies' versions and ``[tool.toolc]`` (as the no-op cache
does), the schema files its ``$ref``s and those of the modules it imports inline, the
user code certifying it imports (its export's predicates, prepare functions and
wrappers, wherever they are declared, and its contexts' deps factories), and for the
module and every module it imports, directly or not, its spec's path and text. An edit
to a predicate makes new keys only for the modules whose export uses it. Golden files are published again from the IR every time:
that costs less than reading and verifying them (26 ms for 1,000 tools).

The record (``.toolc-cache/modules.json``) is untrusted input, like everything in a
checkout: every entry is checked for shape, only files the build would write are read
(through no link), a reused text must have the recorded hash, only info and warning
diagnostics of certification codes are replayed. A bad record costs time, never the
output's correctness. A checking build never reads it, and the diff against the golden
files on disk is computed on every build.

``MEMORY`` keeps what a long-lived process (``toolc build --watch``) already made, so
that it does not read it back from disk: the loaded spec files, by their bytes, the
golden texts it made and read, and the golden files parsed (``Memory``).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..config import Config
from ..diagnostics import CERTIFY_CODES, Diagnostic, DiagnosticBag
from ..graphs import reachable
from ..ir import ProjectIR
from ..publish import module_files
from ..untrusted import FILE_BYTES, FileRefused, read_untrusted
from .cache import (
    _diagnostic_from,
    _diagnostic_record,
    certified_code,
    ignored,
    read_record,
    write_cache_file,
)
from .confine import OutputError, check_way, is_plain_file

if TYPE_CHECKING:
    from ..diff import ToolSet
    from ..generate import ModuleSink
    from ..loader import LoadedFile
    from .components import Taken

Graph = dict[str, tuple[str, tuple[str, ...]]]  # module -> (its spec as shown, its imports)

RECORD_FORMAT = 1
RECORD_FILE = "modules.json"
_HEX64 = re.compile(r"[0-9a-f]{64}")
Mark = tuple[str, int, str]  # a suppression used: (spec path, line, code)


@dataclass(slots=True)
class Verdict:
    """What certifying one module reported, and which inline suppressions it used."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)


@dataclass(slots=True)
class Reuse:
    """What a build takes over from the last one, per module, and what it makes anew."""

    keys: dict[str, str] = field(default_factory=dict)        # module -> its key
    texts: dict[str, str] = field(default_factory=dict)       # module -> reused code
    verdicts: dict[str, Verdict] = field(default_factory=dict)  # module -> replayed
    fresh: dict[str, Verdict] = field(default_factory=dict)   # filled by certification
    # The modules whose certification imports only user code that was hashed.
    certifiable: set[str] = field(default_factory=set)
    # The whole project's schema files and certified user code (the no-op cache's).
    schema_files: dict[str, str] = field(default_factory=dict)
    user_code: dict[str, str] | None = None

    def served(self, project: ProjectIR) -> list[str]:
        """The modules certification must serve (those without a reused verdict)."""
        return [name for name in project.modules if name not in self.verdicts]


# -- a warm process's memory ------------------------------------------------------------


class Memory:
    """What a long-lived process keeps between builds (``toolc build --watch`` turns it on):
    each spec file's loaded form, by path, reused while its bytes are the same (nothing
    downstream changes a LoadedFile: the model and the checks make their own objects);
    each module's golden texts, by module, reused while its key is the same (they are
    made from its IR alone, which its key covers); the golden files read back, while
    each is the same file (inode, modification time, size) with the same recorded hash;
    the last build's golden files parsed (a file of the same text is not parsed again).
    Only this process wrote any of it."""

    def __init__(self) -> None:
        self.enabled = False
        self.loaded: dict[Path, tuple[str, bytes, LoadedFile]] = {}
        self.golden: dict[str, tuple[str, dict[str, str]]] = {}
        # Output files read back (a taken component's golden files), by path: the text
        # while the file's identity and the recorded hash are the same.
        self.read: dict[str, tuple[list[int], str, str]] = {}
        self.tools: ToolSet | None = None  # the last build's new golden files, parsed

    def parser(self, path: Path) -> Callable[[bytes, str], LoadedFile] | None:
        """What ``load_file`` parses the bytes of ``path`` with (None: as usual)."""
        if not self.enabled:
            return None

        def parse(raw: bytes, shown: str) -> LoadedFile:
            # lazy: the loader (YAML), only when the watch loads a spec
            from ..loader import load_bytes

            kept = self.loaded.get(path)
            if kept is not None and kept[0] == shown and kept[1] == raw:
                return kept[2]
            loaded = load_bytes(raw, shown)
            self.loaded[path] = (shown, raw, loaded)
            return loaded

        return parse


MEMORY = Memory()


# -- keys -------------------------------------------------------------------------------


def module_keys(graph: Graph, sources: Mapping[str, str],
                bases: Mapping[str, str]) -> dict[str, str]:
    """Each module's key (see the module's docstring): its base (what it depends on
    besides specs), and the path and text of its spec and of every spec it imports."""
    own = {name: _module_digest(path, sources) for name, (path, _) in graph.items()}
    keys: dict[str, str] = {}
    for name, base in bases.items():
        h = hashlib.sha256(base.encode())
        for needed in sorted(needed_modules(graph, name)):
            h.update(needed.encode() + b"\0" + own[needed].encode())
        keys[name] = h.hexdigest()
    return keys


def module_base(environment: str, schema_files: Mapping[str, str],
                user_code: Mapping[str, str] | None) -> str:
    """What a module's code and verdict depend on besides specs: the environment, the
    schema files it and the modules it imports inline, the user code certifying it
    imports (None: some of it could not be hashed)."""
    return hashlib.sha256(json.dumps([environment, sorted(schema_files.items()), user_code],
                                     sort_keys=True).encode()).hexdigest()


def module_graph(project: ProjectIR) -> Graph:
    """Each module's spec and the modules it imports."""
    return {name: (module.path, module.imports) for name, module in project.modules.items()}


def _module_digest(path: str, sources: Mapping[str, str]) -> str:
    # A module's IR is made from its spec and the specs it imports (resolve reads no
    # other file but the schema files, which are in the base): hashing the IR itself
    # would say no more, and its repr costs 3-4 ms a module of 20 tools.
    h = hashlib.sha256(path.encode() + b"\0")
    h.update(sources.get(path, "").encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def needed_modules(graph: Graph, name: str) -> set[str]:
    """``name`` and every module it imports, directly or not (those of ``graph``)."""
    return set(reachable([name], lambda m: graph[m][1] if m in graph else ())) & graph.keys()


# -- what is reused ---------------------------------------------------------------------


def plan_reuse(config: Config, keys: dict[str, str], *, certify: bool,
               certifiable: set[str]) -> Reuse:
    """What the record lets this build reuse; everything else is made anew. A verdict
    is reused only for a module whose certification's user code was all hashed."""
    reuse = Reuse(keys, certifiable=certifiable)
    entries = _entries(config)
    for name, key in keys.items():
        entry = entries.get(name)
        if entry is None or entry["key"] != key:
            continue
        text = _reusable_text(config.output, f"{name}.py", entry["code"], entry["file"])
        if text is None:
            continue  # made anew, and certified anew
        reuse.texts[name] = text
        if certify and name in certifiable and entry["verdict"] is not None:
            reuse.verdicts[name] = entry["verdict"]
    return reuse


def prepare(config: Config, project: ProjectIR, sources: Mapping[str, str],
            environment: str, *, certify: bool, taken: Taken | None = None) -> Reuse:
    """The keys of this build's modules and what the record lets it reuse. A module
    whose certification imports user code that cannot all be hashed has no verdict
    reused (nor recorded: ``Reuse.certifiable``). ``taken``: the components whose
    analysis was taken over (``toolc.output.components``): every input of theirs is as
    recorded, and so are their modules' keys. ``environment``: ``cache.environment_text``."""

    graph = module_graph(project)
    hashes: dict[Path, str] = {}
    bases, certifiable = {}, set()
    for name in project.modules:
        code = certified_code(config, project, [name], hashes)
        if code is not None:
            certifiable.add(name)
        bases[name] = module_base(environment, _schema_files(project, graph, name), code)
    keys = module_keys(graph, sources, bases)
    schema_files = dict(project.schema_files)
    user_code = certified_code(config, project, hashes=hashes)
    if taken is not None:
        entries = _entries(config)
        keys.update({name: entries[name]["key"] for name in taken.graph if name in entries})
        certifiable.update(name for c in taken.components if c.user_code is not None
                           for name in c.modules)
        schema_files.update(taken.schemas)
        more = taken.user_code
        user_code = None if user_code is None or more is None else {**user_code, **more}
    reuse = plan_reuse(config, keys, certify=certify, certifiable=certifiable)
    reuse.schema_files, reuse.user_code = schema_files, user_code
    return reuse


def _schema_files(project: ProjectIR, graph: Graph, name: str) -> dict[str, str]:
    """The schema files ``name`` and the modules it imports inline, with their hashes."""
    found: dict[str, str] = {}
    for needed in needed_modules(graph, name):
        inputs = project.inputs.get(graph[needed][0])
        for path in inputs.schema_files if inputs is not None else ():
            if path in project.schema_files:
                found[path] = project.schema_files[path]
    return found


def covers(reuse: Reuse, modules: Iterable[str], *, certify: bool) -> bool:
    """Whether ``reuse`` has the code (and, certifying, the verdict) of every module."""
    return all(name in reuse.texts and (not certify or name in reuse.verdicts)
               for name in modules)


def publish_reusing(project: ProjectIR, reuse: Reuse) -> dict[str, str]:
    """``publish_project``, with the golden texts of a module whose key is unchanged
    taken from this process's memory (when it keeps one)."""

    files: dict[str, str] = {}
    for name, module in project.modules.items():
        kept = MEMORY.golden.get(name) if MEMORY.enabled else None
        if kept is not None and kept[0] == reuse.keys[name]:
            files.update(kept[1])
            continue
        made = module_files(module)
        if MEMORY.enabled:
            MEMORY.golden[name] = (reuse.keys[name], made)
        files.update(made)
    return files


def generate_reusing(project: ProjectIR, reuse: Reuse,
                     sink: ModuleSink | None = None) -> dict[str, str]:
    """``generate_project``, with each reused module's code taken as it is."""
    # lazy: the generator and its templates, only when a module is made
    from ..generate import INIT_FILE, generate_module, init_text

    init = init_text()
    if sink is not None:
        sink(INIT_FILE, init, None)
    files = {}
    for name, module in sorted(project.modules.items()):
        text = reuse.texts.get(name)
        files[f"{name}.py"] = text = generate_module(module, project) if text is None else text
        if sink is not None:
            sink(f"{name}.py", text, module)
    files[INIT_FILE] = init
    return files


def _reusable_text(out: Path, rel: str, expected: str, written: list[int]) -> str | None:
    """The file's text if it is a plain file, reached through no link, that is still the
    file the build wrote (``written``: its inode, modification time and size then) and
    has that hash. A file and record that came with a checkout are other files: so a
    planted pair is never reused."""
    try:
        check_way(out, rel)
    except OutputError:
        return None
    path = out / rel
    if not is_plain_file(path) or file_identity(path) != written:
        return None
    try:
        data = read_untrusted(path, FILE_BYTES)
    except (OSError, FileRefused):
        return None
    if hashlib.sha256(data).hexdigest() != expected:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def file_identity(path: Path) -> list[int] | None:
    try:
        st = path.lstat()
    except OSError:
        return None
    return [st.st_ino, st.st_mtime_ns, st.st_size]


def code_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# -- certification's side ----------------------------------------------------------------


def used_marks(bag: DiagnosticBag) -> set[Mark]:
    """Every (path, line, code) an inline suppression has suppressed so far."""
    return {(path, line, code) for path, lines in bag.suppressions.items()
            for line, item in lines.items() for code in item.used}


def replay(bag: DiagnosticBag, verdict: Verdict) -> None:
    """Say again what certifying a module said, and count its suppressions as used."""
    for path, line, code in verdict.marks:
        found = bag.suppressions.get(path, {}).get(line)
        if found is not None and code in found.codes:
            found.used.add(code)
    bag.items.extend(verdict.diagnostics)


def judged(bag: DiagnosticBag, verdicts: dict[str, Verdict], name: str,
           before: set[Mark], items: list[Diagnostic]) -> None:
    """Keep what certifying ``name`` reported (``before``: the marks used until then)."""
    verdicts[name] = Verdict(list(items), sorted(used_marks(bag) - before))


# -- the record ---------------------------------------------------------------------------


def remember(config: Config, files: Mapping[str, str], reuse: Reuse, *,
             certified: bool) -> None:
    """Record each module's key, code hash and (when certified, or carried over from a
    record of the same key) its verdict, for the next build."""

    modules: dict[str, Any] = {}
    for name in reuse.keys:  # taken components' modules too
        verdict = reuse.fresh.get(name) or reuse.verdicts.get(name)
        if name not in reuse.certifiable:
            verdict = None
        elif verdict is None and not certified:
            verdict = _carried(config, name, reuse.keys[name])
        identity = file_identity(config.output / f"{name}.py")
        if identity is None:
            continue  # not there after all: nothing to reuse next time
        modules[name] = {
            "key": reuse.keys[name],
            "code": code_hash(files[f"{name}.py"]),
            "file": identity,
            "verdict": None if verdict is None else {
                "diagnostics": [_diagnostic_record(d) for d in verdict.diagnostics],
                "marks": [list(m) for m in verdict.marks]},
        }
    write_cache_file(config, RECORD_FILE, {"format": RECORD_FORMAT, "modules": modules})


def _carried(config: Config, name: str, key: str) -> Verdict | None:
    """A verdict a ``--no-certify`` build keeps: the last one, if for the same key."""
    entry = _entries(config).get(name)
    return entry["verdict"] if entry is not None and entry["key"] == key else None


def _entries(config: Config) -> dict[str, dict[str, Any]]:
    """The record's entries; none if any is not of the shape toolc writes (the record is
    ignored, and said so) or the record is of another format."""
    data = read_record(config, RECORD_FILE)
    if data is None or data.get("format") != RECORD_FORMAT:
        return {}
    if not isinstance(data.get("modules"), dict):
        ignored(RECORD_FILE, 'has no object of "modules"')
        return {}
    entries: dict[str, dict[str, Any]] = {}
    for name, item in data["modules"].items():
        entry = _entry(item)
        if entry is None:
            ignored(RECORD_FILE, f"has an entry for {name[:200]!r} that toolc does not write")
            return {}
        entries[name] = entry
    return entries


def _entry(item: Any) -> dict[str, Any] | None:
    if not isinstance(item, dict):
        return None
    key, code, verdict = item.get("key"), item.get("code"), item.get("verdict")
    written = item.get("file")
    if not (isinstance(key, str) and _HEX64.fullmatch(key)
            and isinstance(code, str) and _HEX64.fullmatch(code)
            and isinstance(written, list) and len(written) == 3
            and all(isinstance(v, int) and not isinstance(v, bool) for v in written)):
        return None
    return {"key": key, "code": code, "file": written,
            "verdict": None if verdict is None else _verdict(verdict)}


def _verdict(item: Any) -> Verdict | None:
    """A recorded verdict, or None (the module is certified again) if any part is off."""

    if not isinstance(item, dict):
        return None
    raw, marks = item.get("diagnostics"), item.get("marks")
    if not isinstance(raw, list) or not isinstance(marks, list) or len(raw) > 100_000:
        return None
    diagnostics = [_diagnostic_from(d) for d in raw]
    if any(d is None or d.code not in CERTIFY_CODES for d in diagnostics):
        return None
    found: list[Mark] = []
    for mark in marks:
        if not (isinstance(mark, list) and len(mark) == 3 and isinstance(mark[0], str)
                and isinstance(mark[1], int) and not isinstance(mark[1], bool)
                and mark[2] in CERTIFY_CODES):
            return None
        found.append((mark[0], mark[1], mark[2]))
    return Verdict([d for d in diagnostics if d is not None], found)
