"""One analysis of the project as the editor holds it: what ``toolc validate`` would say.

An analysis is the front end over every spec of the project, the open buffers in place
of their files (``compile_specs(overlay=)``), with the diagnostics shown as ``toolc
validate`` shows them (the findings about imported MCP servers folded, one per server).
It reuses what a warm ``toolc build --watch`` reuses, and nothing of its own: each spec's
loaded form while its bytes are unchanged (``toolc.reuse.memory``), and the analysis of
every component none of whose specs changed since the last clean writing build
(``components.take_over``, handed to the front end as a ``Replay``), so that a keystroke
analyses the specs it can reach. Where that could say anything else than a full
analysis, the front end runs the full one, as for a build. (Unlike a build, nothing is
written, so a taken component needs no reusable code.)

An analysis runs in the server's one worker thread (the loader's memory and the budget
of suggestions are the process's), with the collector paused as for any command that
builds.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..collector import collector_paused
from ..config import Config, load_config
from ..diagnostics import Diagnostic, SpecError
from ..frontend import Compiled, Replay, compile_specs
from ..report.vendored import PinnedServer, fold
from ..reuse import components
from ..reuse.inputs import environment_text, read_specs
from ..reuse.memory import MEMORY
from ..specs import discover, shown_paths


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The open spec buffers at one moment: what one analysis reads instead of the files."""

    generation: int
    overlay: Mapping[Path, bytes] = field(default_factory=dict)  # absolute path -> bytes
    versions: Mapping[Path, int] = field(default_factory=dict)   # the buffers' versions


@dataclass(slots=True)
class Analysis:
    """What one analysis found: the diagnostics ``toolc validate`` shows, per spec."""

    snapshot: Snapshot
    config: Config | None
    compiled: Compiled | None = None
    shown: list[Diagnostic] = field(default_factory=list)
    servers: list[PinnedServer] = field(default_factory=list)
    reused: int = 0          # components taken over
    seconds: float = 0.0

    def path_of(self, shown: str) -> Path:
        """The absolute path of a spec (or ``pyproject.toml``) as diagnostics name it."""
        if self.config is None:
            return Path(shown)
        return Path(shown) if Path(shown).is_absolute() else self.config.root / shown

    def text_of(self, shown: str) -> str | None:
        """The text the analysis read of a file, as diagnostics name it."""
        if self.compiled is not None and shown in self.compiled.sources:
            return self.compiled.sources[shown]
        raw = self.snapshot.overlay.get(self.path_of(shown))
        return raw.decode("utf-8", "replace") if raw is not None else None


def analyse(root: Path, snapshot: Snapshot) -> Analysis:
    """The project at ``root`` analysed as ``snapshot`` holds it."""
    started = time.perf_counter()
    with collector_paused():  # the policy of every command that builds (toolc.collector)
        found = _analyse(root, snapshot)
    found.seconds = time.perf_counter() - started
    return found


def _analyse(root: Path, snapshot: Snapshot) -> Analysis:
    try:
        config = load_config(root)
    except SpecError as exc:  # pyproject.toml itself: said there, nothing else analysed
        return Analysis(snapshot, None, shown=list(exc.diagnostics))
    MEMORY.enabled = True  # each spec's loaded form kept while its bytes are the same
    overlay = {path: raw for path, raw in snapshot.overlay.items() if _belongs(config, path)}
    read = _read(config, overlay)
    replay = _replay(config, read) if read is not None else None
    compiled = compile_specs(config, replay=replay, known=MEMORY.loaded, overlay=overlay)
    shown, servers = fold(compiled.bag.sorted(), compiled.sources)  # as toolc validate
    reused = len(compiled.taken.said) if compiled.taken is not None else 0
    return Analysis(snapshot, config, compiled, shown, servers, reused)


def _replay(config: Config, read: Mapping[Path, bytes]) -> Replay | None:
    """The analysis of the recorded components none of whose specs changed."""
    named = shown_paths(config, read)
    by_shown = {named[path]: data for path, data in read.items()}
    digests = {spec: hashlib.sha256(data).hexdigest() for spec, data in by_shown.items()}
    taken = components.take_over(config, environment_text(config), digests)
    return taken.replay(by_shown) if taken is not None else None


def _belongs(config: Config, path: Path) -> bool:
    """Whether an open spec is analysed with the project: one inside the project's folder
    (a spec elsewhere is checked with it, as ``toolc validate FILE`` does)."""
    return path.is_relative_to(config.root)


def _read(config: Config, overlay: Mapping[Path, bytes]) -> dict[Path, bytes] | None:
    """Each spec's bytes as the analysis reads them (an open buffer's, else the file's),
    what the recorded components are compared with; None when a file cannot be read
    (the analysis then says why, and takes nothing over)."""
    on_disk = [path for path in discover(config) if path not in overlay]
    found = read_specs(config, on_disk)
    return None if found is None else {**found, **overlay}


__all__ = ["Analysis", "Snapshot", "analyse"]
