"""toolc.collector: the garbage collector's policy, set in one place."""

from __future__ import annotations

import gc

from toolc.collector import collector_for_user_code, collector_paused, freeze_start_up


def test_the_pause_restores_a_paused_collector_and_keeps_a_callers_frozen_objects() -> None:
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled() and gc.get_freeze_count() == 0
        with collector_for_user_code():  # user code: collected, the rest frozen meanwhile
            assert gc.isenabled() and gc.get_freeze_count() > 0
        assert not gc.isenabled() and gc.get_freeze_count() == 0
    finally:
        gc.enable()
    held = [object() for _ in range(3)]
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with collector_paused():
            held.append(object())
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()


def test_serving_freezes_what_start_up_made_and_still_collects_later_garbage() -> None:
    made_at_start = [[] for _ in range(10)]
    assert gc.isenabled()
    gc.unfreeze()
    try:
        freeze_start_up()
        assert gc.get_freeze_count() >= len(made_at_start)  # out of the collector's way
        cycle: list[object] = []
        cycle.append(cycle)
        del cycle
        assert gc.collect() >= 1  # what serving makes is still collected
    finally:
        gc.unfreeze()
