"""The records of ``.toolc-cache/``: written for the next build, read back as untrusted input.

Every record (``build.json``, ``modules.json``, ``components.json``) is only ever a shortcut
for the author's own writing builds: a checking build (CI, where ``.toolc-cache/`` could
come from the pull request) never reads one, and nothing is written through a link there
(``toolc.output.lock.cache_folder``). Each is read as untrusted input (``read_record``): a
regular file, bounded, JSON; the files it names are read only as plain relative paths
inside the project (``hashes_match``), and only diagnostics of the known shape are said
again (``diagnostic_from``). A bad record is ignored, told once in a line
(``records_noticed``), and written anew by the next clean build.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from ..config import Config
from ..diagnostics import RULES, Diagnostic, Severity, Span
from ..output.confine import OutputError, check_way, entry_problem
from ..output.files import replace_file
from ..output.lock import CACHE_DIR, cache_folder
from ..untrusted import FILE_BYTES, RECORD_BYTES, FileRefused, read_untrusted


def cache_dir(config: Config, *, create: bool = False) -> Path | None:
    """``.toolc-cache/`` of the project, or None where a link or a file stands there: no
    cache (or record) then, rather than one elsewhere."""
    try:
        return cache_folder(config.root, create=create)
    except OutputError:
        return None

def write_record(config: Config, name: str, record: dict[str, Any]) -> None:
    """``record`` as JSON in ``.toolc-cache/name``, through a fresh temporary file; a file
    that cannot be written only costs the next build its shortcut."""
    folder = cache_dir(config, create=True)
    if folder is None:
        return
    with contextlib.suppress(OSError):  # never through a link planted there
        replace_file(folder / name, json.dumps(record, sort_keys=True).encode("utf-8"))

def forget_record(config: Config, name: str) -> None:
    folder = cache_dir(config)
    if folder is not None:
        with contextlib.suppress(OSError):
            (folder / name).unlink()

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

def diagnostic_record(d: Diagnostic) -> dict[str, Any]:
    span = list(d.span) if d.span is not None else None
    return {"code": d.code, "severity": str(d.severity), "message": d.message,
            "span": span, "notes": list(d.notes)}

def diagnostic_from(item: Any) -> Diagnostic | None:
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
