"""``toolc build --watch``: one warm process that builds again on every save.

It builds once, then waits for a change to a build input (a spec, a schema file a spec
``$ref``s beside it, a handler module on the ``python-path``, ``pyproject.toml``) and
runs the normal build again, so the no-op cache answers an unchanged project and a
broken spec mid-edit is a report (its diagnostics), never the end of the process. Each
run is introduced by a line saying when it started and what changed. Ctrl-C ends it
with exit 0.

What is watched follows from the configuration, read again after each build (a build
reads ``pyproject.toml`` afresh, and the watch follows its folders). The output folder
and the cache are never watched: the build writes there, and would wake itself up.
"""

from __future__ import annotations

import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TextIO

from ..config import Config, load_config
from ..diagnostics import SpecError
from ..file_events import DEBOUNCE_MS, SOURCE_SUFFIXES, STEP_MS, outermost
from ..reuse.memory import MEMORY
from ..specs import SPEC_SUFFIX

# Folders whose files are never inputs (tools' caches, environments, version control).
_IGNORED_PARTS = frozenset({".toolc-cache", ".git", ".venv", "venv", "__pycache__",
                            "node_modules", ".mypy_cache", ".ruff_cache", ".pytest_cache"})
BuildOnce = Callable[[], int]

def watch_paths(config: Config) -> list[Path]:
    """The folders (and ``pyproject.toml``) to watch, outermost only, existing ones."""
    return outermost([*config.specs, *config.python_path, config.root / "pyproject.toml"])


class InputFilter:
    """Which changed files are build inputs (watchfiles' ``watch_filter``)."""

    def __init__(self, config: Config) -> None:
        self.specs = tuple(p.resolve() for p in config.specs)
        self.python_path = tuple(p.resolve() for p in config.python_path)
        self.pyproject = (config.root / "pyproject.toml").resolve()
        self.output = config.output.resolve()

    def __call__(self, _change: Any, name: str) -> bool:
        return self.is_input(Path(name))

    def is_input(self, path: Path) -> bool:
        path = path.absolute()
        if path == self.pyproject:
            return True
        if path.is_relative_to(self.output) or _IGNORED_PARTS.intersection(path.parts):
            return False
        if path.name.endswith(SPEC_SUFFIX) or path.suffix in SOURCE_SUFFIXES:
            return any(path == s or path.is_relative_to(s) for s in self.specs) or any(
                path.is_relative_to(p) for p in self.python_path)
        return path.suffix == ".py" and any(path.is_relative_to(p) for p in self.python_path)


def describe(changes: Iterable[tuple[Any, str]], root: Path, limit: int = 3) -> str:
    """``specs/a.toolc.yaml modified, pyproject.toml modified`` (at most ``limit`` named)."""
    # lazy: loads watchfiles
    import watchfiles

    shown: dict[str, str] = {}
    for change, name in sorted(changes, key=lambda c: c[1]):
        try:
            rel = Path(name).absolute().relative_to(root.absolute()).as_posix()
        except ValueError:
            rel = name
        kind = watchfiles.Change(change).name if isinstance(change, int) else str(change)
        shown[rel] = kind
    parts = [f"{rel} {kind}" for rel, kind in list(shown.items())[:limit]]
    more = len(shown) - limit
    return ", ".join(parts) + (f" (+{more} more)" if more > 0 else "")


def separator(what: str) -> str:
    return f"--- {time.strftime('%H:%M:%S')} {what} ---\n"


def _run(build_once: BuildOnce, err: TextIO) -> None:
    """One build; a warm process outlives whatever a build raises (reported, not fatal)."""
    try:
        build_once()
    except Exception:  # noqa: BLE001  # a bug must not end the watch: show it, go on
        err.write("toolc: internal error during the build (the watch goes on):\n"
                  + traceback.format_exc())


def _config(start: Path | None) -> Config | None:
    try:
        return load_config(start)
    except SpecError:
        return None  # the build reports it; the watch keeps its last folders


class _StopAndStarted:
    """watchfiles' stop event, which also says when watching has begun: its Rust loop
    asks it at every step, the first time once the paths are watched."""

    def __init__(self) -> None:
        self.stop = threading.Event()
        self.started = threading.Event()

    def is_set(self) -> bool:
        self.started.set()
        return self.stop.is_set()


class Watcher:
    """File events of ``paths``, gathered by a thread that is watching when this returns:
    a save made during a build (or before the first wait) is never missed."""

    def __init__(self, config: Config) -> None:
        # lazy: queue, only when this runs
        import queue

        self.paths = watch_paths(config)
        self.batches: queue.Queue[set[tuple[Any, str]]] = queue.Queue()
        self.events = _StopAndStarted()
        self.thread = threading.Thread(target=self._gather, args=(InputFilter(config),),
                                       name="toolc-watch", daemon=True)
        self.thread.start()
        # One step at most once watchfiles is imported; the bound only keeps a watch that
        # could not start from hanging here (its thread ends, saying why on stderr).
        self.events.started.wait(timeout=60)

    def _gather(self, keep: InputFilter) -> None:
        try:
            # lazy: loads watchfiles
            import watchfiles

            for changes in watchfiles.watch(*self.paths, watch_filter=keep,
                                            debounce=DEBOUNCE_MS, step=STEP_MS,
                                            stop_event=self.events, raise_interrupt=False):
                self.batches.put(changes)
        finally:
            self.events.started.set()  # nobody waits for a watch that ended

    def next_changes(self) -> set[tuple[Any, str]]:
        """The next changes, and any that followed them while the last build ran."""
        # lazy: queue, only when this runs
        import queue

        while True:  # a bounded get, so that Ctrl-C reaches the main thread
            try:
                changes = set(self.batches.get(timeout=0.5))
                break
            except queue.Empty:
                continue
        while not self.batches.empty():
            changes |= self.batches.get_nowait()
        return changes

    def close(self) -> None:
        """Stop watching (the thread ends within a step, by itself)."""
        self.events.stop.set()


def watch_build(build_once: BuildOnce, *, start: Path | None = None, out: TextIO | None = None,
                err: TextIO | None = None) -> int:
    """Build, then build again after each change to an input, until Ctrl-C (exit 0)."""
    out, err = out or sys.stdout, err or sys.stderr
    MEMORY.enabled = True  # the specs a save left alone are not parsed again
    config = _config(start)
    if config is None:  # no project to watch: say what is wrong once
        build_once()
        return 1
    watcher = Watcher(config)  # before the build: what is saved meanwhile counts
    try:
        out.write(separator("build"))
        out.flush()
        _run(build_once, err)
        while True:
            out.write(f"watching {', '.join(config.relative(p) for p in watcher.paths)} "
                      "(Ctrl-C ends)\n")
            out.flush()
            while True:
                changes = watcher.next_changes()
                out.write(separator(f"rebuild: {describe(changes, config.root)}"))
                out.flush()
                _run(build_once, err)
                out.flush()
                config = _config(start) or config
                if watch_paths(config) != watcher.paths:  # pyproject.toml moved the folders
                    old, watcher = watcher, Watcher(config)
                    old.close()
                    break
    except KeyboardInterrupt:
        out.write("watch: stopped\n")
        out.flush()
    finally:
        watcher.close()
    return 0
