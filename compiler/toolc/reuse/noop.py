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

A checking build never answers from the record (``toolc.reuse.records``: what every
record is, and how it is read).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..config import Config
from ..diagnostics import Diagnostic
from ..output.confine import OutputError
from ..output.journal import JOURNAL
from ..output.lock import CACHE_DIR
from ..output.plan import MANIFEST, Plan, read_manifest
from .inputs import environment_text, read_specs
from .records import (
    BadRecord,
    check_looked_up,
    diagnostic_from,
    diagnostic_record,
    forget_record,
    hashes_match,
    ignored,
    inside_project,
    read_record,
    write_record,
)

CACHE_FILE = Path(CACHE_DIR) / "build.json"

def remember_build(config: Config, record: dict[str, Any]) -> None:
    write_record(config, CACHE_FILE.name, record)

def forget_build(config: Config) -> None:
    forget_record(config, CACHE_FILE.name)

def remembered(config: Config, key: str) -> Any:
    """One entry of the last clean build's record (None when absent): for what the build
    only reports (the token budget), which a no-op build says again."""
    return _remembered(config).get(key)

def _remembered(config: Config) -> dict[str, Any]:
    return read_record(config, CACHE_FILE.name) or {}

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
            "diagnostics": [diagnostic_record(d) for d in diagnostics]}

def replayed(config: Config) -> list[Diagnostic]:
    """The warnings and infos the recorded build reported. The record is a file on disk:
    only entries of the known shape are taken (known codes, no errors, bounded text)."""
    record = _remembered(config)
    items = record.get("diagnostics") if isinstance(record, dict) else None
    out: list[Diagnostic] = []
    for item in items if isinstance(items, list) else ():
        d = diagnostic_from(item)
        if d is not None:
            out.append(d)
    return out

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
