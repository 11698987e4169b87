"""The no-op rebuild cache: a build whose inputs have not changed does nothing.

A build without errors records, in .toolc-cache/build.json beside pyproject.toml (not in the
committed output: the record changes with toolc's code and the machine's dependency
versions, and a committed file must not churn for that), a hash of everything its output
depends on: the spec files (paths and bytes; the schema files their `$ref`s inline are
recorded after the build, with their hashes), the [tool.toolc] configuration, toolc's
version and the hash of its own code (an editable install changes without a new
version), and the versions of its dependencies. When the next build finds the same
hash, and every file the manifest lists is still on disk with its recorded hash (so a
generated file edited by hand is rebuilt), it is up to date: analysis, generation and
certification are skipped. Certification imports user code (predicates, prepare
functions, wrappers): a certified record also holds the hashes of the files of those
modules found on the python-path, and a project whose certification depends on what
cannot be hashed (a module elsewhere) is never certified from the cache. MCP servers
are never contacted by certification, so they are no input of it.

The record is only ever a shortcut for the author's own writing builds: a checking build
(CI, where ``.toolc-cache/`` could come from the pull request) never answers from it,
and nothing is written through a link there (``toolc.output.lock.cache_folder``). Each
record (this one, ``modules.json``, ``components.json``) is read as untrusted input
(``read_record``): a regular file, bounded, JSON; the files it names are read only as
plain relative paths inside the project. A bad record is ignored, told once in a line
(``records_noticed``), and written anew by the next clean build.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from ..config import Config
from ..diagnostics import RULES, Diagnostic, Severity, Span
from ..ir import ProjectIR, ToolsetIR, referred, user_code
from ..loader import MAX_BYTES, link_problem
from ..untrusted import FILE_BYTES, RECORD_BYTES, FileRefused, read_untrusted
from .confine import OutputError, check_way, entry_problem
from .files import replace_file
from .journal import JOURNAL
from .lock import CACHE_DIR, cache_folder
from .plan import MANIFEST, Plan, read_manifest

CACHE_FORMAT = 1
CACHE_FILE = Path(CACHE_DIR) / "build.json"


def cache_dir(config: Config, *, create: bool = False) -> Path | None:
    """``.toolc-cache/`` of the project, or None where a link or a file stands there: no
    cache (or record) then, rather than one elsewhere."""
    try:
        return cache_folder(config.root, create=create)
    except OutputError:
        return None


def remember_build(config: Config, record: dict[str, Any]) -> None:
    write_cache_file(config, CACHE_FILE.name, record)


def write_cache_file(config: Config, name: str, record: dict[str, Any]) -> None:
    """``record`` as JSON in ``.toolc-cache/name``, through a fresh temporary file; a file
    that cannot be written only costs the next build its shortcut."""
    folder = cache_dir(config, create=True)
    if folder is None:
        return
    with contextlib.suppress(OSError):  # never through a link planted there
        replace_file(folder / name, json.dumps(record, sort_keys=True).encode("utf-8"))


def forget_build(config: Config) -> None:
    forget_cache_file(config, CACHE_FILE.name)


def forget_cache_file(config: Config, name: str) -> None:
    folder = cache_dir(config)
    if folder is not None:
        with contextlib.suppress(OSError):
            (folder / name).unlink()


def remembered(config: Config, key: str) -> Any:
    """One entry of the last clean build's record (None when absent): for what the build
    only reports (the token budget), which a no-op build says again."""
    return _remembered(config).get(key)


def _remembered(config: Config) -> dict[str, Any]:
    return read_record(config, CACHE_FILE.name) or {}


# -- records read as untrusted input ---------------------------------------------------


class BadRecord(Exception):
    """A record toolc cannot have written; ``why`` completes "the record ..."."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


# Who is told of a bad record during a build, and the records told of already.
_TOLD: ContextVar[tuple[Callable[[str], None], set[str]] | None] = ContextVar(
    "toolc_records_told", default=None)


@contextlib.contextmanager
def records_noticed(say: Callable[[str], None] | None) -> Iterator[None]:
    """Within: each bad record read is told to ``say`` in one line, once (None: untold)."""
    token = _TOLD.set(None if say is None else (say, set()))
    try:
        yield
    finally:
        _TOLD.reset(token)


def ignored(name: str, why: str) -> None:
    """The record ``.toolc-cache/name`` is bad (``why``): it is ignored, and said so."""
    told = _TOLD.get()
    if told is None or name in told[1]:
        return
    told[1].add(name)
    told[0](f"warning: {CACHE_DIR}/{name} {why}; the record is ignored (this build does "
            "without it, and a clean build writes it anew)")


def read_record(config: Config, name: str) -> dict[str, Any] | None:
    """The record ``.toolc-cache/name`` as a JSON object; None when there is none, or a
    bad one (ignored: not a regular file, over its bound, not a JSON object)."""
    folder = cache_dir(config)
    if folder is None:
        return None
    try:
        data = json.loads(read_untrusted(folder / name, RECORD_BYTES))
    except FileNotFoundError:
        return None
    except FileRefused as exc:
        why = exc.why
    except OSError as exc:
        why = f"cannot be read ({exc.strerror or exc})"
    except (ValueError, RecursionError):
        why = "is not JSON"
    else:
        if isinstance(data, dict):
            return data
        why = "is not a JSON object"
    ignored(name, why)
    return None


def inside_project(files: dict[str, str] | None) -> dict[str, str] | None:
    """``files`` (path -> hash) if each is a plain relative path inside the project: all a
    record may name (a module found outside the project is not recorded, but hashed
    again by certification)."""
    if files is None or any(entry_problem(rel) is not None for rel in files):
        return None
    return files


def check_looked_up(names: Iterable[object]) -> None:
    """Refuse a record whose handler lookups name anything but a module: a path would
    have the lookup read ``<path>.py`` wherever it is (:class:`BadRecord`)."""
    for name in names:
        if not (isinstance(name, str) and all(part.isidentifier() for part in name.split("."))):
            raise BadRecord(f"names {str(name)[:200]!r} as a module looked up, not a "
                            "module name")


DEPENDENCIES = ("pydantic", "pydantic-core", "PyYAML", "jsonschema", "jsonschema-rs", "Jinja2",
                "click", "mcp", "mcp-types")


def read_specs(config: Config, specs: Sequence[Path]) -> dict[Path, bytes] | None:
    """Each spec's bytes; None if a spec cannot be read (or only through a link out of
    the project: the build reports it, TC010, and reads nothing through it)."""
    found: dict[Path, bytes] = {}
    for path in specs:
        if link_problem(str(path), str(config.root)) is not None:
            return None
        try:  # the file the loader reads: the link resolved, regular, bounded
            found[path] = read_untrusted(os.path.realpath(path), MAX_BYTES)
        except (OSError, FileRefused):
            return None
    return found


def input_key(config: Config, specs: Sequence[Path],
              read: Mapping[Path, bytes] | None = None) -> str | None:
    """The hash of every input of a build of ``specs`` (``read``: their bytes, when they
    were read already); None if a spec cannot be read."""
    data = read_specs(config, specs) if read is None else read
    if data is None:
        return None
    h = hashlib.sha256(environment_text(config).encode())
    for path in specs:
        h.update(config.relative(path).encode() + b"\0" + hashlib.sha256(data[path]).digest())
    return h.hexdigest()


def environment_text(config: Config) -> str:
    """``environment_record`` as the text every record's key hashes."""
    return json.dumps(environment_record(config), sort_keys=True, default=str)


def environment_record(config: Config) -> dict[str, Any]:
    """What every output of a build depends on besides the specs: the cache's format,
    toolc's version and code, the dependencies' versions, ``[tool.toolc]``."""
    # lazy: the package's version as it is now (read at each build, not at import)
    from .. import __version__

    return {
        "format": CACHE_FORMAT,
        "toolc": [__version__, toolc_code_digest()],
        "dependencies": dependency_versions(),
        "config": {
            "specs": [config.relative(p) for p in config.specs],
            "output": config.relative(config.output),
            "python_path": [config.relative(p) for p in config.python_path],
            "severities": {code: str(sev) for code, sev in sorted(config.severities.items())},
            "per_file_severities": [[glob, {code: str(sev) for code, sev in table.items()}]
                                    for glob, table in config.per_file_severities],
            "diff": config.diff,
            "format": config.format,  # `format: assert` changes the published schemas
            "budget": [config.token_budget, config.tool_budget, config.tool_search],
            "clients": [config.clients, config.server_name, config.server_names],
            # the targets decide the findings and the views published beside the tools
            "targets": [config.targets, sorted(config.refs.items())],
        },
    }


# The whole toolc package (this module is one level down in it): every module and
# template a build's output depends on.
PACKAGE = Path(__file__).resolve().parents[1]


@functools.cache
def toolc_code_digest() -> str:
    """The hash of toolc's own code and templates, once per process."""
    return code_digest(PACKAGE)


def code_digest(package: Path) -> str:
    """The hash of the ``.py`` and ``.jinja`` files under ``package``."""
    h = hashlib.sha256()
    for path in sorted(package.rglob("*")):
        if path.suffix in (".py", ".jinja") and "__pycache__" not in path.parts:
            h.update(path.relative_to(package).as_posix().encode() + b"\0")
            h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


def dependency_versions() -> dict[str, str]:
    """The installed version of each dependency, read from the names of the
    ``.dist-info`` folders on ``sys.path`` (the first one wins, as for imports):
    ``importlib.metadata`` says the same but costs about 70 ms a build to import and
    search, a tenth of a small build."""
    wanted = {_dist_key(name): name for name in DEPENDENCIES}
    found: dict[str, str] = {}
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for folder in names:
            if not folder.endswith(".dist-info"):
                continue
            dist, _, version = folder.removesuffix(".dist-info").partition("-")
            name = wanted.get(_dist_key(dist))
            if name is not None and name not in found and version:
                found[name] = version
    return {name: found.get(name, "absent") for name in DEPENDENCIES}


def _dist_key(name: str) -> str:
    """A distribution's name as its .dist-info folder may spell it (PEP 503 and 427)."""
    return name.lower().replace("-", "_").replace(".", "_")


def cache_record(config: Config, key: str, *, certified: bool,
                 diagnostics: Sequence[Diagnostic] = (), code: dict[str, str] | None,
                 schemas: dict[str, str], lookups: dict[str, list[str]]) -> dict[str, Any]:
    """What a build without errors records for the next one to compare; its warnings
    and infos are kept, so that an up-to-date build says them again. ``code``: the hashes
    of the user code certification imported (``certified_code``), ``schemas`` those of the
    schema files the project inlines, ``lookups`` what the handler check found for each
    module it looked up (``toolc.python_source``)."""
    code = inside_project(code) if certified else None
    return {"key": key, "certified": certified and code is not None, "code": code,
            "schemas": schemas, "lookups": lookups,
            "diagnostics": [_diagnostic_record(d) for d in diagnostics]}


def _diagnostic_record(d: Diagnostic) -> dict[str, Any]:
    span = list(d.span) if d.span is not None else None
    return {"code": d.code, "severity": str(d.severity), "message": d.message,
            "span": span, "notes": list(d.notes)}


def replayed(config: Config) -> list[Diagnostic]:
    """The warnings and infos the recorded build reported. The record is a file on disk:
    only entries of the known shape are taken (known codes, no errors, bounded text)."""
    record = _remembered(config)
    items = record.get("diagnostics") if isinstance(record, dict) else None
    out: list[Diagnostic] = []
    for item in items if isinstance(items, list) else ():
        d = _diagnostic_from(item)
        if d is not None:
            out.append(d)
    return out


def _diagnostic_from(item: Any) -> Diagnostic | None:
    if not isinstance(item, dict) or item.get("code") not in RULES:
        return None
    message, notes, span = item.get("message"), item.get("notes"), item.get("span")
    try:
        severity = Severity.parse(str(item.get("severity")))
    except ValueError:
        return None
    if severity not in (Severity.INFO, Severity.WARNING) or not isinstance(message, str) \
            or len(message) > 10_000 or not isinstance(notes, list) \
            or not all(isinstance(n, str) and len(n) <= 10_000 for n in notes):
        return None
    where = None
    if span is not None:
        if not (isinstance(span, list) and len(span) == 4 and isinstance(span[0], str)
                and all(isinstance(v, int) and not isinstance(v, bool) for v in span[1:])):
            return None
        where = Span(span[0], span[1], span[2], span[3])
    return Diagnostic(item["code"], severity, message, where, tuple(notes))


def certified_code(config: Config, project: ProjectIR, modules: Iterable[str] | None = None,
                   hashes: dict[Path, str] | None = None) -> dict[str, str] | None:
    """Hashes of the files certification imports user code from, serving ``modules``
    (default: every module); None if not all known. ``hashes``: files hashed already."""
    names = list(project.modules) if modules is None else list(modules)
    imported: set[str] = set()
    for toolset in _certified_toolsets(project, names):
        # An mcp toolset is never connected to by certification (pinned or not, what it
        # lists comes from the spec), so it needs no hash of its own.
        ref = user_code(toolset)
        if ref is not None:
            imported.add(ref.module)
    for name in names:  # declared contexts' deps factories
        imported.update(ref.module for _, ref in project.modules[name].certify_contexts)
    known = {} if hashes is None else hashes
    files: dict[str, str] = {}
    for name in sorted(imported):
        parts = name.split(".")
        # The module and the packages it is in (their __init__ runs too); what these
        # import in turn is not followed.
        for depth in range(1, len(parts) + 1):
            path = _module_file(config, ".".join(parts[:depth]))
            if path is None:
                return None
            if path not in known:
                try:  # the module the child imports (a link followed), bounded
                    known[path] = hashlib.sha256(read_untrusted(path, FILE_BYTES,
                                                                follow=True)).hexdigest()
                except (OSError, FileRefused):
                    return None
            files[config.relative(path)] = known[path]
    return files


def _certified_toolsets(project: ProjectIR, modules: Iterable[str]) -> Iterator[ToolsetIR]:
    """Every toolset certification serves for ``modules``: each one's export and what it
    is made of (in those modules or the ones they import)."""
    seen: set[tuple[str, str]] = set()
    todo = [(name, project.modules[name].export) for name in modules]
    while todo:
        where = todo.pop()
        module = project.modules.get(where[0])
        toolset = module.toolsets.get(where[1]) if module is not None else None
        if where in seen or toolset is None:
            continue
        seen.add(where)
        yield toolset
        for ref in referred(toolset):
            owner, _, name = ref.rpartition(".")
            todo.append((owner or where[0], name))


def _module_file(config: Config, module: str) -> Path | None:
    rel = Path(*module.split("."))
    for root in config.python_path:
        for candidate in (root / rel.with_suffix(".py"), root / rel / "__init__.py"):
            if candidate.is_file():
                return candidate
    return None


def cached_plan(config: Config, key: str, *, certify: bool) -> Plan | None:
    """The plan of an up-to-date output (every file unchanged), or None on a miss."""
    if os.path.lexists(config.output / JOURNAL):
        return None  # an interrupted write: let the full build finish it
    record = _remembered(config)
    if record.get("key") != key:
        return None
    try:
        return _plan_if_unchanged(config, record, certify=certify)
    except BadRecord as exc:
        ignored(CACHE_FILE.name, exc.why)
        return None


def _plan_if_unchanged(config: Config, record: dict[str, Any], *, certify: bool) -> Plan | None:
    out = config.output
    if not os.path.isfile(out / MANIFEST):
        return None
    try:
        files = read_manifest(out)  # every entry checked: a refusal is the full build's
    except OutputError:
        return None
    if certify and not (record.get("certified") is True
                        and hashes_match(config.root, record.get("code"))):
        return None
    if not hashes_match(out, files, plain=True) or not hashes_match(
            config.root, record.get("schemas", {})):
        return None  # a generated file edited or linked, or a schema file a `$ref` inlines
    if not _lookups_match(config, record.get("lookups")):
        return None  # a handler module the handler check read
    return Plan(written=(), removed=(), unchanged=tuple(sorted(files)))


def hashes_match(root: Path, hashes: object, *, plain: bool = False) -> bool:
    """Every file named (a plain relative path inside ``root`` -> its sha256) has its hash;
    ``plain``: and is reached through no link (a link is rebuilt). Each is read as a
    regular file, bounded, and only inside ``root``: a record naming any other path, or a
    link out of ``root``, is bad (:class:`BadRecord`), and nothing of it is read."""
    if not isinstance(hashes, dict):
        raise BadRecord("holds no object of path -> hash where one is due")
    real_root, seen = os.path.realpath(root), set[Path]()
    for rel, expected in hashes.items():
        if entry_problem(rel) is not None:
            raise BadRecord(f"names {str(rel)[:200]!r}, not a relative path inside the "
                            "project")
        target = os.path.join(root, rel)
        if plain:
            try:
                check_way(root, rel, seen)
            except OutputError:
                return False
        else:  # a link inside the project is followed; the file it names is opened
            target = os.path.realpath(target)
            if not target.startswith(real_root.rstrip(os.sep) + os.sep):
                raise BadRecord(f"names {rel[:200]!r}, a link to a file outside the project")
        try:
            data = read_untrusted(target, FILE_BYTES)
        except (OSError, FileRefused):
            return False
        if hashlib.sha256(data).hexdigest() != expected:
            return False
    return True


def _lookups_match(config: Config, lookups: object) -> bool:
    """Whether the handler check would find what it found (a module's source edited,
    added or removed on the python-path: its TC340-TC342 could change)."""
    if not isinstance(lookups, dict) or not all(isinstance(o, list) for o in lookups.values()):
        raise BadRecord("holds no object of module name -> outcome where one is due")
    check_looked_up(lookups)
    if not lookups:
        return True
    # lazy: 1 more toolc module (ast), only when the project's handlers were looked up
    from ..python_source import outcomes_match, source_index

    return outcomes_match(source_index(config.python_path, config.root.resolve()), lookups)
