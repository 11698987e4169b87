"""The project's spec files: found, named as diagnostics show them, loaded and analysed.

:func:`compile_specs` is the front end over a project's files, what every command that
reads specs calls (``toolc build`` through :mod:`toolc.pipeline`, ``validate``, ``diff``,
``serve``, ``import``). Light to import: a build that the no-op cache answers only
discovers its specs, and loads nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .budget import ExportBudget, measure
from .config import Config
from .diagnostics import BUDGET_CODES, DiagnosticBag, SpecError
from .ir import ProjectIR
from .loader import MAX_BYTES, LoadedFile, load_file
from .output.components import Taken, collides
from .output.incremental import MEMORY
from .untrusted import FileRefused, read_untrusted

SPEC_SUFFIX = ".toolc.yaml"
Progress = Callable[[str], None]


@dataclass(slots=True)
class Compiled:
    """What the front end made of the specs: diagnostics, sources and (if clean) the IR."""

    bag: DiagnosticBag
    sources: dict[str, str] = field(default_factory=dict)
    project: ProjectIR | None = None
    budgets: list[ExportBudget] | None = None   # per export, when the IR was made
    modules: dict[str, str] = field(default_factory=dict)  # spec as shown -> its module
    # The components whose analysis was taken over: ``project`` holds the other modules
    # only (a whole project is compiled again where one is needed: ``toolc build --live``).
    taken: Taken | None = None


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


def compile_specs(config: Config, paths: Sequence[Path] = (),
                  progress: Progress | None = None, taken: Taken | None = None,
                  read: Mapping[Path, bytes] | None = None) -> Compiled:
    """Load and analyse the specs; every problem goes into the returned bag.

    ``taken``: components whose analysis is taken over (``toolc.output.components``;
    ``read``: the bytes of their specs, as their digests were taken): their specs are
    not analysed again. When the analysis of the rest could say anything else than a
    full analysis would (it has errors, a module name meets a taken one), the full
    analysis is run instead, and ``Compiled.taken`` is None."""
    # lazy: loads pydantic
    from .checks.project import ClientView
    from .frontend import analyse

    bag = config.bag()
    compiled = Compiled(bag, taken=taken)
    loaded: list[LoadedFile] = []
    unread: dict[str, str] = {}  # specs that could not be loaded -> their text, if read
    files = discover(config, paths)
    kept = taken.specs if taken is not None else set()
    if taken is not None:
        if not _take_sources(config, compiled, taken, files, read or {}):
            return compile_specs(config, paths, progress)
        taken.replay(bag)
    for i, path in enumerate(files, 1):
        shown = shown_path(config, path)
        if shown in kept:
            continue  # taken over
        if progress:
            # lazy: 2 more toolc modules, only with progress shown (a file name may hold ESC)
            from .report.diagnostic_formats import escape_controls

            progress(f"loading {i}/{len(files)} {escape_controls(shown)}")
        try:
            item = load_file(str(path), shown, str(config.root), parse=MEMORY.parser(path))
        except SpecError as exc:
            bag.extend(exc.diagnostics)
            if not any(d.code == "TC010" for d in exc.diagnostics):  # never read those
                compiled.sources[shown] = text_for_display(path)
            unread[shown] = compiled.sources.get(shown, "")
            continue
        compiled.sources[shown] = item.text
        declared = item.data.get("module") if isinstance(item.data, dict) else None
        if isinstance(declared, str):
            compiled.modules[shown] = declared
        loaded.append(item)
    if taken is not None and (bag.has_errors or collides(taken, (
            compiled.modules[item.path] for item in loaded if item.path in compiled.modules))):
        return compile_specs(config, paths, progress)
    if progress:
        progress(f"checking {len(loaded)} spec(s)")
    view = ClientView(config.clients, config.server_name, config.server_names)
    project = analyse(loaded, bag, config.root, formats=config.format,
                      python_path=config.python_path, clients=view, unread=unread,
                      targets=config.targets)
    if taken is not None and bag.has_errors:
        return compile_specs(config, paths, progress)
    compiled.project = None if bag.has_errors else project
    if compiled.project is not None:
        budgets = measure(compiled.project, config, bag)
        if taken is not None:
            budgets = sorted([*budgets, *taken.budgets], key=lambda b: b.module)
        compiled.budgets = budgets
        bag.judge_suppressions(BUDGET_CODES.__contains__)
    return compiled


def _take_sources(config: Config, compiled: Compiled, taken: Taken, files: Sequence[Path],
                  read: Mapping[Path, bytes]) -> bool:
    """The taken specs' texts and module names, from the bytes their digests were taken
    of; False if one is not among the specs found (or cannot be decoded)."""
    by_shown = {shown_path(config, path): path for path in files}
    for spec in taken.specs:
        path = by_shown.get(spec)
        data = read.get(path) if path is not None else None
        if data is None:
            return False
        try:
            compiled.sources[spec] = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return False
    for name, (spec, _) in taken.graph.items():
        compiled.modules[spec] = name
    return True


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


def text_for_display(path: Path) -> str:
    try:  # a spec is read to its bound (TC002); the path is resolved already
        return read_untrusted(path, MAX_BYTES)[:1_000_000].decode("utf-8", "replace")
    except (OSError, FileRefused):
        return ""
