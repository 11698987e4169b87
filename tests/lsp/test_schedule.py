"""Analyses after the changes: one at a time, the changes made meanwhile merged into the
next, and never an older result published over a newer one (no timing is asserted:
the slow analysis waits for an event the test sets)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest
from toolc.lsp.analysis import Analysis, Snapshot
from toolc.lsp.schedule import Scheduler


def recording(worker: ThreadPoolExecutor, analyse: Callable[[Snapshot], Analysis],
              published: list[int]) -> Scheduler:
    """A scheduler without delay that records each published analysis's generation."""
    return Scheduler(worker, Snapshot, analyse,
                     lambda found: published.append(found.snapshot.generation), delay=0)


@pytest.mark.asyncio
async def test_changes_during_an_analysis_make_one_more_and_the_newest_is_published() -> None:
    release = threading.Event()
    started: list[int] = []
    published: list[int] = []
    first_running = asyncio.Event()
    loop = asyncio.get_running_loop()

    def analyse(snapshot: Snapshot) -> Analysis:
        started.append(snapshot.generation)
        if len(started) == 1:
            loop.call_soon_threadsafe(first_running.set)
            assert release.wait(timeout=300)
        return Analysis(snapshot, None)

    with ThreadPoolExecutor(max_workers=1) as worker:
        scheduler = recording(worker, analyse, published)
        scheduler.changed()
        await asyncio.wait_for(first_running.wait(), 300)
        for _ in range(4):  # typed while the first analysis runs
            scheduler.changed()
            await asyncio.sleep(0)
        release.set()
        await asyncio.wait_for(scheduler.idle.wait(), 300)
    assert started[0] == 1 and started[-1] == 5 and len(started) <= 3
    assert published == sorted(published) and published[-1] == 5


@pytest.mark.asyncio
async def test_a_failing_analysis_is_logged_and_the_next_one_runs() -> None:
    calls: list[int] = []
    published: list[int] = []

    def analyse(snapshot: Snapshot) -> Analysis:
        calls.append(snapshot.generation)
        if snapshot.generation == 1:
            raise RuntimeError("a bug")
        return Analysis(snapshot, None)

    with ThreadPoolExecutor(max_workers=1) as worker:
        scheduler = recording(worker, analyse, published)
        scheduler.changed()
        await asyncio.wait_for(scheduler.idle.wait(), 300)
        scheduler.changed()
        await asyncio.wait_for(scheduler.idle.wait(), 300)
    assert calls == [1, 2] and published == [2]
