"""What toolc's two watches share: ``toolc build --watch`` (``commands/watch.py``) and
``toolc serve --reload`` (``serving/reload.py``) hear of saved files through watchfiles
with the same timing, and watch the same way: the outermost folders only.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

# How watchfiles gathers events (its Rust loop, `RustNotify.watch`): it sleeps STEP_MS,
# looks at the set of (change, path) seen so far, and returns it at the first look that
# finds the set no bigger than at the look before (or DEBOUNCE_MS after the first look
# that found one, while more keep coming). So a save is handed over STEP_MS to 2 * STEP_MS
# after it is made. An editor's save is a few system calls in a row, microseconds apart:
# truncate and write (the second write adds nothing to the set, `modified` is in it
# already), or a temporary file (never an input) renamed over the spec, so it always
# comes as one batch; only two writes more than STEP_MS apart may come as two, and the
# second build is harmless (an incremental one). Idle, the loop wakes every STEP_MS: what
# that costs, and what a smaller step would buy, is in bench/RESULTS.md ("watchfiles'
# step"). The Rust timeout (`rust_timeout`, 5 s) only returns control to Python for
# nothing (`yield_on_timeout` False): no latency either way.
STEP_MS = 5
DEBOUNCE_MS = 50  # a checkout of many files: handed over after at most this, the rest next

# Specs and the schema files they `$ref` (beside them).
SOURCE_SUFFIXES = (".yaml", ".yml", ".json")


def outermost(paths: Iterable[Path]) -> list[Path]:
    """The paths that exist, resolved, less any inside a folder among them (watching a
    folder covers what is in it); shortest first."""
    found: list[Path] = []
    for path in sorted({p.resolve() for p in paths if p.exists()}, key=lambda p: len(p.parts)):
        if not any(path.is_relative_to(kept) for kept in found if kept.is_dir()):
            found.append(path)
    return found
