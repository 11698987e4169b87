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
and nothing is written through a link there (``toolc.output.lock.cache_folder``).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..config import Config
from ..diagnostics import RULES, Diagnostic, Severity, Span
from ..ir import ProjectIR, ToolsetIR, referred, user_code
from ..loader import link_problem
from .confine import OutputError, is_plain_file
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
    path, tmp = folder / name, folder / (Path(name).stem + ".tmp")
    try:
        tmp.unlink(missing_ok=True)  # a link put there is removed, never written through
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0),
                     0o644)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(json.dumps(record, sort_keys=True))
        os.replace(tmp, path)
    except OSError:
        pass


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
    folder = cache_dir(config)
    if folder is None:
        return {}
    try:
        data = json.loads((folder / CACHE_FILE.name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}
DEPENDENCIES = ("pydantic", "pydantic-core", "PyYAML", "jsonschema", "jsonschema-rs", "Jinja2",
                "click", "mcp", "mcp-types")


def read_specs(config: Config, specs: Sequence[Path]) -> dict[Path, bytes] | None:
    """Each spec's bytes; None if a spec cannot be read (or only through a link out of
    the project: the build reports it, TC010, and reads nothing through it)."""
    found: dict[Path, bytes] = {}
    for path in specs:
        if link_problem(str(path), str(config.root)) is not None or not path.is_file():
            return None
        try:
            found[path] = path.read_bytes()
        except OSError:
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
    code = code if certified else None
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
                known[path] = hashlib.sha256(path.read_bytes()).hexdigest()
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
    out = config.output
    if os.path.lexists(out / JOURNAL):
        return None  # an interrupted write: let the full build finish it
    record = _remembered(config)
    if not isinstance(record, dict) or record.get("key") != key:
        return None
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
    """Every file has its hash; ``plain``: and is a plain file (a link is rebuilt)."""
    if not isinstance(hashes, dict):
        return False
    for rel, expected in hashes.items():
        if plain and not is_plain_file(root / rel):
            return False
        try:
            data = (root / rel).read_bytes()
        except OSError:
            return False
        if hashlib.sha256(data).hexdigest() != expected:
            return False
    return True


def _lookups_match(config: Config, lookups: object) -> bool:
    """Whether the handler check would find what it found (a module's source edited,
    added or removed on the python-path: its TC340-TC342 could change)."""
    if not isinstance(lookups, dict) or not all(
            isinstance(name, str) and isinstance(o, list) for name, o in lookups.items()):
        return False
    if not lookups:
        return True
    # lazy: 1 more toolc module (ast), only when the project's handlers were looked up
    from ..python_source import outcomes_match, source_index

    return outcomes_match(source_index(config.python_path, config.root.resolve()), lookups)
