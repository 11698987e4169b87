"""What every record's key hashes besides the specs, and the inputs a record names.

The environment (the records' format, toolc's version and the hash of its own code, the
dependencies' versions, ``[tool.toolc]``), each spec's bytes as the loader would read
them, and the files of the user code certification imports (its predicates, prepare
functions, wrappers and contexts' deps factories, found on the python-path).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ..config import Config
from ..ir import ProjectIR, ToolsetIR, referred, user_code
from ..loader import MAX_BYTES, link_problem
from ..untrusted import FILE_BYTES, FileRefused, read_untrusted

CACHE_FORMAT = 1


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
    ``importlib.metadata`` says the same but its import and search are a sizeable part
    of a small build (bench/RESULTS.md, "Costs behind the code")."""
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
