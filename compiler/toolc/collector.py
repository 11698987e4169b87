"""The garbage collector's policy, the one place it is set (bench/RESULTS.md measures it).

- A command that builds runs under :func:`collector_paused` (``toolc.commands`` applies
  it to ``validate``, ``build`` and ``diff``; the stages toggle nothing themselves).
- User code run for certification runs under :func:`collector_for_user_code`, in the
  build's process or in the certifying one (handed to it: ``toolc.certify.process``).
- ``toolc serve`` collects as usual, but first moves what start-up made (the SDK, the
  toolset, the generated module) out of the collector's way: :func:`freeze_start_up`.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic garbage collection during a command that builds.

    A build makes millions of objects that all live until it ends and frees almost none;
    each pass of the collector rescans everything made so far, so its cost grows with
    the project (loading and generating 10,000 tools: bench/RESULTS.md, "Costs behind
    the code"). A certifying process forked meanwhile starts
    with it paused too: importing the SDK makes no garbage worth a pass.

    Afterwards they would all still be in the youngest generation, so the collector's
    first pass once enabled scanned them all (after a build of 10,000 tools, while its
    changes were being printed). Freezing and
    unfreezing moves them to the oldest generation at once, without a scan; only when
    nothing was frozen before, so that a caller's own frozen objects stay frozen.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if gc.get_freeze_count() == 0:
            gc.freeze()
            gc.unfreeze()
        if enabled:
            gc.enable()


@contextlib.contextmanager
def collector_for_user_code() -> Iterator[None]:
    """Collect during certification, which runs user code and the mcp SDK (they make
    cyclic garbage), without rescanning the build's own objects: those are frozen."""
    enabled = gc.isenabled()
    gc.freeze()
    gc.enable()
    try:
        yield
    finally:
        gc.unfreeze()
        if not enabled:
            gc.disable()


def freeze_start_up() -> None:
    """Before serving: what start-up made lives as long as the server, so it goes to the
    permanent generation (``gc.freeze``) and full collections no longer walk it.

    A tools/list of 1,000 tools allocates enough to set off a full collection every few
    lists, and each walked the whole heap: in-process, the same listing took 0.9x a bare
    server's time with the start-up frozen and 1.2x-2.0x without (bench/serving.py).
    Garbage made while serving is still collected."""
    gc.collect()
    gc.freeze()
