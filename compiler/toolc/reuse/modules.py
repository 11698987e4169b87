"""Per module: what the last clean build made of a module whose inputs are unchanged.

The no-op answer (``toolc.reuse.noop``) comes only when nothing changed at all. When
something did, a writing build runs the front end over the components an edit reached
(``toolc.reuse.components`` hands the analysis of the others), then, per module, is
handed what the last clean build made of a module whose *key* is unchanged:

- its generated code (``<module>.py``), read back from the output folder and handed only
  when it still has the hash recorded for it (else generated again);
- its certification verdict: the module is not served again, and what its certification
  reported (warnings, infos, the inline suppressions it used) is said again in its place
  (``toolc.certify.verdicts``).

The key of a module hashes everything its code and its verdict depend on: toolc's
version and code, the dependencies' versions and ``[tool.toolc]`` (as the no-op cache
does), the schema files its ``$ref``s and those of the modules it imports inline, the
user code certifying it imports (its export's predicates, prepare functions and
wrappers, wherever they are declared, and its contexts' deps factories), and for the
module and every module it imports, directly or not, its spec's path and text. An edit
to a predicate makes new keys only for the modules whose export uses it. Golden files
are published again from the IR every time (a warm process keeps them by key:
``toolc.reuse.memory``): that costs less than reading and verifying them.

The record (``.toolc-cache/modules.json``) is untrusted input, like everything in a
checkout: every entry is checked for shape, only files the build would write are read
(through no link), a reused text must have the recorded hash, only info and warning
diagnostics of certification codes are replayed. A bad record costs time, never the
output's correctness. A checking build never reads it, and the diff against the golden
files on disk is computed on every build.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..certify.verdicts import Mark, Verdict
from ..config import Config
from ..diagnostics import CERTIFY_CODES
from ..graphs import reachable
from ..ir import ProjectIR
from ..output.confine import OutputError, check_way, is_plain_file
from ..untrusted import FILE_BYTES, FileRefused, read_untrusted
from .inputs import certified_code
from .records import diagnostic_from, diagnostic_record, ignored, read_record, write_record

Graph = dict[str, tuple[str, tuple[str, ...]]]  # module -> (its spec as shown, its imports)
Entries = dict[str, dict[str, Any]]  # the record's entries, by module, as read back

RECORD_FORMAT = 1

RECORD_FILE = "modules.json"

_HEX64 = re.compile(r"[0-9a-f]{64}")


@dataclass(slots=True)
class ModuleReuse:
    """What a build takes over from the last one, per module, and what it makes anew."""

    keys: dict[str, str] = field(default_factory=dict)        # module -> its key
    texts: dict[str, str] = field(default_factory=dict)       # module -> reused code
    verdicts: dict[str, Verdict] = field(default_factory=dict)  # module -> replayed
    fresh: dict[str, Verdict] = field(default_factory=dict)   # what certification made
    # The modules whose certification imports only user code that was hashed.
    certifiable: set[str] = field(default_factory=set)
    # The whole project's schema files and certified user code (the no-op cache's).
    schema_files: dict[str, str] = field(default_factory=dict)
    user_code: dict[str, str] | None = None


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
    # would say no more, and its repr costs more than the text (bench/RESULTS.md).
    h = hashlib.sha256(path.encode() + b"\0")
    h.update(sources.get(path, "").encode("utf-8", "surrogatepass"))
    return h.hexdigest()

def needed_modules(graph: Graph, name: str) -> set[str]:
    """``name`` and every module it imports, directly or not (those of ``graph``)."""
    return set(reachable([name], lambda m: graph[m][1] if m in graph else ())) & graph.keys()


# -- what is reused ---------------------------------------------------------------------


def plan_reuse(config: Config, keys: dict[str, str], entries: Entries, *, certify: bool,
               certifiable: set[str]) -> ModuleReuse:
    """What the record (its ``entries``) lets this build reuse; everything else is made
    anew. A verdict is reused only for a module whose certification's user code was all
    hashed."""
    reuse = ModuleReuse(keys, certifiable=certifiable)
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
            environment: str, entries: Entries, *, certify: bool,
            taken: ModuleReuse | None = None) -> ModuleReuse:
    """The keys of this build's modules and what the record (its ``entries``) lets it
    reuse. A module whose certification imports user code that cannot all be hashed
    has no verdict reused (nor recorded: ``ModuleReuse.certifiable``). ``taken``: what
    the modules of the components whose analysis was taken over reuse (their keys as
    recorded: every input of theirs is as it was). ``environment``:
    ``toolc.reuse.inputs.environment_text``."""

    graph = module_graph(project)
    hashes: dict[Path, str] = {}
    bases, certifiable = {}, set()
    for name in project.modules:
        code = certified_code(config, project, [name], hashes)
        if code is not None:
            certifiable.add(name)
        bases[name] = module_base(environment, _schema_files(project, graph, name), code)
    reuse = plan_reuse(config, module_keys(graph, sources, bases), entries, certify=certify,
                       certifiable=certifiable)
    reuse.schema_files = dict(project.schema_files)
    reuse.user_code = certified_code(config, project, hashes=hashes)
    if taken is not None:
        reuse.keys.update(taken.keys)
        reuse.texts.update(taken.texts)
        reuse.verdicts.update(taken.verdicts)
        reuse.certifiable.update(taken.certifiable)
        reuse.schema_files.update(taken.schema_files)
        more = taken.user_code
        reuse.user_code = None if reuse.user_code is None or more is None else {
            **reuse.user_code, **more}
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


def covers(reuse: ModuleReuse, modules: Iterable[str], *, certify: bool) -> bool:
    """Whether ``reuse`` has the code (and, certifying, the verdict) of every module."""
    return all(name in reuse.texts and (not certify or name in reuse.verdicts)
               for name in modules)


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


# -- the record ---------------------------------------------------------------------------


def remember(config: Config, files: Mapping[str, str], reuse: ModuleReuse, entries: Entries,
             *, certified: bool) -> None:
    """Record each module's key, code hash and (when certified, or carried over from the
    record read at the start, ``entries``, for the same key) its verdict, for the next
    build."""

    modules: dict[str, Any] = {}
    for name in reuse.keys:  # taken components' modules too
        verdict = reuse.fresh.get(name) or reuse.verdicts.get(name)
        if name not in reuse.certifiable:
            verdict = None
        elif verdict is None and not certified:
            verdict = _carried(entries, name, reuse.keys[name])
        identity = file_identity(config.output / f"{name}.py")
        if identity is None:
            continue  # not there after all: nothing to reuse next time
        modules[name] = {
            "key": reuse.keys[name],
            "code": code_hash(files[f"{name}.py"]),
            "file": identity,
            "verdict": None if verdict is None else {
                "diagnostics": [diagnostic_record(d) for d in verdict.diagnostics],
                "marks": [list(m) for m in verdict.marks]},
        }
    write_record(config, RECORD_FILE, {"format": RECORD_FORMAT, "modules": modules})


def _carried(entries: Entries, name: str, key: str) -> Verdict | None:
    """A verdict a ``--no-certify`` build keeps: the last one, if for the same key."""
    entry = entries.get(name)
    return entry["verdict"] if entry is not None and entry["key"] == key else None


def entries(config: Config) -> Entries:
    """The record's entries; none if any is not of the shape toolc writes (the record is
    ignored, and said so) or the record is of another format."""
    data = read_record(config, RECORD_FILE)
    if data is None or data.get("format") != RECORD_FORMAT:
        return {}
    if not isinstance(data.get("modules"), dict):
        ignored(RECORD_FILE, 'has no object of "modules"')
        return {}
    found: Entries = {}
    for name, item in data["modules"].items():
        entry = _entry(item)
        if entry is None:
            ignored(RECORD_FILE, f"has an entry for {name[:200]!r} that toolc does not write")
            return {}
        found[name] = entry
    return found


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
    diagnostics = [diagnostic_from(d) for d in raw]
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
