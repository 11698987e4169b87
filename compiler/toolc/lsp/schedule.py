"""When analyses run: debounced after each change, one at a time, the newest published.

Every change (an edit, an open, a save, a file changed on disk) makes a new generation
and (re)arms a short timer: typing a word starts one analysis, after its last key. An
analysis runs in the server's worker thread, on a snapshot of the open buffers taken when
it starts; changes made meanwhile start the next one as soon as it ends. A result is
published only if no newer one was: an analysis never overwrites what a later one said.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Executor

from .analysis import Analysis, Snapshot

# From the last change to the analysis: long enough to merge the keys of a word typed
# fast, short enough not to be felt (the figures are in bench/RESULTS.md).
DEBOUNCE_S = 0.03

log = logging.getLogger(__name__)


class Scheduler:
    """Runs ``analyse`` on ``snapshot(generation)`` in ``worker`` and hands each newer
    result to ``publish`` (both called on the event loop's thread)."""

    def __init__(self, worker: Executor, snapshot: Callable[[int], Snapshot],
                 analyse: Callable[[Snapshot], Analysis],
                 publish: Callable[[Analysis], None], delay: float = DEBOUNCE_S) -> None:
        self.worker = worker
        self.snapshot = snapshot
        self.analyse = analyse
        self.publish = publish
        self.delay = delay
        self.generation = 0
        self.published = 0          # the generation of the last result published
        self.running = False
        self.again = False          # a change came while an analysis ran
        self._timer: asyncio.TimerHandle | None = None
        self.idle = asyncio.Event()  # set while nothing is pending or running

    def changed(self, *, now: bool = False) -> None:
        """A new generation; its analysis after the debounce (``now``: at once)."""
        self.generation += 1
        self.idle.clear()
        if self._timer is not None:
            self._timer.cancel()
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(0 if now else self.delay, self._due)

    def _due(self) -> None:
        self._timer = None
        if self.running:
            self.again = True
            return
        self._start()

    def _start(self) -> None:
        self.running = True
        snapshot = self.snapshot(self.generation)
        future = asyncio.get_running_loop().run_in_executor(self.worker, self.analyse, snapshot)
        future.add_done_callback(self._done)

    def _done(self, future: asyncio.Future[Analysis]) -> None:
        self.running = False
        try:
            found = future.result()
        except Exception:  # a bug must not end the server: logged, goes on
            log.exception("toolc: the analysis failed")
            found = None
        if found is not None and found.snapshot.generation > self.published:
            self.published = found.snapshot.generation
            self.publish(found)
        if self.again:
            self.again = False
            self._start()
        elif self._timer is None:
            self.idle.set()


__all__ = ["DEBOUNCE_S", "Scheduler"]
