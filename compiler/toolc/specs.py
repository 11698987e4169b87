"""The project's spec files: found, named as diagnostics show them, read and loaded.

The load stage (``toolc.pipeline``): :func:`load_specs` loads every spec of a project
into a :class:`Loaded`, which the front end (``toolc.frontend``) analyses; nothing here
reports or analyses. Light to import: a build that the no-op cache answers only
discovers its specs, and loads nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .config import Config
from .diagnostics import Diagnostic, DiagnosticBag, SpecError
from .loader import MAX_BYTES, LoadedFile, load_bytes, load_file
from .untrusted import FileRefused, read_untrusted

SPEC_SUFFIX = ".toolc.yaml"
Progress = Callable[[str], None]
KeptSpec = tuple[str, bytes, LoadedFile]  # a spec's loaded form: as shown, its bytes, loaded


@dataclass(slots=True)
class Loaded:
    """What the load stage made of a project's spec files."""

    files: list[LoadedFile] = field(default_factory=list)     # loaded, in path order
    failed: list[Diagnostic] = field(default_factory=list)    # why the others were not
    unread: dict[str, str] = field(default_factory=dict)      # those, as shown -> text read
    sources: dict[str, str] = field(default_factory=dict)     # spec as shown -> its text
    modules: dict[str, str] = field(default_factory=dict)     # spec as shown -> its module
    skipped: frozenset[str] = frozenset()   # specs found and not loaded, as asked


def discover(config: Config, paths: Sequence[Path] = ()) -> list[Path]:
    """Every ``*.toolc.yaml`` under the given paths (default: the configured ones), sorted."""
    found: set[Path] = set()
    for root in paths or config.specs:
        if root.is_file():
            found.add(root)
        elif root.is_dir():
            # Not only regular files: a FIFO or a link named like a spec is reported by
            # the loader (TC010), not passed over in silence.
            found.update(p for p in root.rglob(f"*{SPEC_SUFFIX}") if not p.is_dir())
    return sorted(found)


def shown_path(config: Config, path: Path) -> str:
    """How diagnostics name a spec: by its own name, even when it is a symbolic link
    (``config.relative`` would name the file the link points to)."""
    folder = config.relative(path.parent)
    return path.name if folder == "." else f"{folder}/{path.name}"


def shown_paths(config: Config, paths: Iterable[Path]) -> dict[Path, str]:
    """Each path as :func:`shown_path` shows it, each folder resolved once (a project's
    specs share a few folders)."""
    folders: dict[Path, str] = {}
    found = {}
    for path in paths:
        parent = path.parent
        if parent not in folders:
            folders[parent] = config.relative(parent)
        folder = folders[parent]
        found[path] = path.name if folder == "." else f"{folder}/{path.name}"
    return found


def load_specs(config: Config, paths: Sequence[Path] = (), progress: Progress | None = None,
               *, skip: Collection[str] = (), known: dict[Path, KeptSpec] | None = None,
               overlay: Mapping[Path, bytes] | None = None) -> Loaded:
    """Load the project's specs (``paths``: those under these paths instead).

    ``skip``: specs, as shown, that are found but not loaded (their analysis is handed to
    the front end: ``toolc.frontend.Replay``). ``known``: each spec's loaded form, by
    path, from a process that keeps them (``toolc build --watch``): taken while the
    file's bytes are the same, and filled with what is loaded now. ``overlay``: specs (by
    absolute path) whose text an editor holds unsaved, loaded from that text instead of
    the file's, the ones not on disk too (``toolc lsp``)."""
    loaded = Loaded()
    overlay = overlay or {}
    files = sorted({*discover(config, paths), *overlay})
    shown_of = shown_paths(config, files)
    skipped = set()
    for i, path in enumerate(files, 1):
        shown = shown_of[path]
        if shown in skip:
            skipped.add(shown)
            continue
        if progress:
            # lazy: 2 more toolc modules, only with progress shown (a file name may hold ESC)
            from .report.escaping import escape_controls

            progress(f"loading {i}/{len(files)} {escape_controls(shown)}")
        try:
            item = load_file(str(path), shown, str(config.root), parse=_parser(known, path),
                             raw=overlay.get(path))
        except SpecError as exc:
            loaded.failed.extend(exc.diagnostics)
            if not any(d.code == "TC010" for d in exc.diagnostics):  # never read those
                loaded.sources[shown] = text_for_display(path, overlay.get(path))
            loaded.unread[shown] = loaded.sources.get(shown, "")
            continue
        loaded.sources[shown] = item.text
        declared = item.data.get("module") if isinstance(item.data, dict) else None
        if isinstance(declared, str):
            loaded.modules[shown] = declared
        loaded.files.append(item)
    loaded.skipped = frozenset(skipped)
    return loaded


def _parser(known: dict[Path, KeptSpec] | None,
            path: Path) -> Callable[[bytes, str], LoadedFile] | None:
    """What ``load_file`` parses the bytes of ``path`` with: the kept form while the bytes
    are the same (None, without ``known``: as usual)."""
    if known is None:
        return None

    def parse(raw: bytes, shown: str) -> LoadedFile:
        kept = known.get(path)
        if kept is not None and kept[0] == shown and kept[1] == raw:
            return kept[2]
        made = load_bytes(raw, shown)
        known[path] = (shown, raw, made)
        return made

    return parse


def sources_of(config: Config, bag: DiagnosticBag) -> dict[str, str]:
    """The spec texts replayed diagnostics quote (only files inside the project)."""
    sources: dict[str, str] = {}
    root = config.root.resolve()
    for d in bag:
        if d.span is None or d.span.path in sources:
            continue
        path = (config.root / d.span.path).resolve()
        if path.is_relative_to(root) and path.is_file():
            sources[d.span.path] = text_for_display(path)
    return sources


def text_for_display(path: Path, raw: bytes | None = None) -> str:
    """A spec's text as diagnostics quote it (``raw``: an editor's unsaved bytes)."""
    try:  # a spec is read to its bound (TC002); the path is resolved already
        data = read_untrusted(path, MAX_BYTES) if raw is None else raw
    except (OSError, FileRefused):
        return ""
    return data[:1_000_000].decode("utf-8", "replace")
