"""``toolc serve --reload``: serve what the spec says after each save, without a restart.

Beside the server runs a watch (watchfiles) on what the target was made of: for a spec
target, the project's spec folders (a spec may ``$ref`` another, or a schema file beside
it); for a module target, the generated module's file. On a change the target is opened
again exactly as at the start (the spec compiled, its fresh build imported under the
modules' real names; a module imported afresh), its toolset entered, and swapped in behind the
running server, which tells its clients: ``notifications/tools/list_changed`` on each
connection, and an event on ``subscriptions/listen`` streams
(:func:`toolc.runtime.mcp_server.toolset_server.replace_toolset`). A spec with errors
mid-edit is reported (its diagnostics on stderr) and the server goes on serving the
last good toolset; the line says which: when it was loaded (at the start, or by which
reload) and the tools it lists.

Handler modules are imported once: a change to a handler needs a restart (a module
re-imported under a live server would leave its old objects in the other sets). So does a
handler that imported a generated class (``from generated.clinic import Slot``) to see
the class a reload made anew.
"""

from __future__ import annotations

import contextlib
import logging
import sys
import threading
import time
from pathlib import Path
from typing import Any, TextIO

from ..config import Config
from ..file_events import DEBOUNCE_MS, SOURCE_SUFFIXES, STEP_MS, outermost
from ..specs import SPEC_SUFFIX
from .targets import ServeError, module_target, open_target

log = logging.getLogger("toolc.serve")


class Reloader:
    """Reopens ``target`` on each change to its inputs and swaps it into ``server``."""

    def __init__(self, config: Config, target: str, *, toolset_name: str | None,
                 pinned: bool, err: TextIO, server: Any, module_file: str | None) -> None:
        self.config = config
        self.target = target
        self.toolset_name = toolset_name
        self.pinned = pinned
        self.err = err
        self.server = server
        self.is_spec = target.endswith(SPEC_SUFFIX) or Path(target).is_file()
        self.module_file = Path(module_file).resolve() if module_file else None
        self.loaded = f"as loaded at the start ({_now()})"  # what the server serves

    def paths(self) -> list[Path]:
        """What to watch: the spec folders (and the spec's own), or the module's folder."""
        if not self.is_spec:
            return [self.module_file.parent] if self.module_file else []
        return outermost([*self.config.specs, Path(self.target).resolve().parent])

    def is_input(self, _change: Any, name: str) -> bool:
        path = Path(name).resolve()
        if not self.is_spec:
            return path == self.module_file
        if path.is_relative_to(self.config.output.resolve()) or "__pycache__" in path.parts:
            return False
        return path.name.endswith(SPEC_SUFFIX) or path.suffix in SOURCE_SUFFIXES

    def _open(self, opened: contextlib.ExitStack) -> Any:
        """The target again, as ``toolc serve`` opened it (blocking: run in a thread)."""
        if not self.is_spec:  # import the module afresh, not the one in sys.modules
            sys.modules.pop(module_target(self.config, self.target), None)
        return opened.enter_context(open_target(self.config, self.target, self.toolset_name,
                                                self.err, pinned=self.pinned))

    async def run(self) -> None:
        """Reload on each change until cancelled; what it entered is left on the way out."""
        # lazy: loads anyio
        import anyio

        # lazy: loads watchfiles
        import watchfiles

        paths = self.paths()
        if not paths:
            log.warning("--reload: nothing to watch for %s", self.target)
            return
        log.info("reloading on changes in %s", ", ".join(self.config.relative(p)
                                                          for p in paths))
        current: tuple[contextlib.ExitStack, contextlib.AsyncExitStack] | None = None
        stop = threading.Event()
        try:
            async with anyio.create_task_group() as tg:
                tg.start_soon(_set_when_cancelled, stop)
                # The build watch's timing (toolc.file_events).
                async for _changes in watchfiles.awatch(*paths, watch_filter=self.is_input,
                                                        debounce=DEBOUNCE_MS, step=STEP_MS,
                                                        stop_event=stop):
                    swapped = await self._reload()
                    if swapped is not None:
                        if current is not None:
                            await _close(current)
                        current = swapped
                tg.cancel_scope.cancel()
        finally:
            if current is not None:
                await _close(current)

    async def _reload(self) -> tuple[contextlib.ExitStack, contextlib.AsyncExitStack] | None:
        # lazy: loads anyio
        import anyio

        # lazy: loads mcp (about a second)
        from ..runtime.mcp_server.toolset_server import replace_toolset

        opened, entered = contextlib.ExitStack(), contextlib.AsyncExitStack()
        try:
            chosen = await anyio.to_thread.run_sync(self._open, opened)
            await entered.enter_async_context(chosen.toolset)
        except Exception as exc:  # noqa: BLE001  # a bad reload must not end the server
            await _close((opened, entered))
            why = str(exc) if isinstance(exc, ServeError) else f"{type(exc).__name__}: {exc}"
            log.error("not reloaded: %s. Still serving %s %s%s", why, self.target,
                      self.loaded, await self._listing())
            return None
        await replace_toolset(self.server, chosen.toolset)
        self.loaded = f"as reloaded at {_now()}"
        log.info("reloaded %s%s", self.target, await self._listing())
        return opened, entered

    async def _listing(self) -> str:
        """": N tools: a, b, ..." as a client is shown them now; "" if they cannot be listed."""
        # lazy: loads mcp (about a second)
        from ..runtime.mcp_server.toolset_server import listed_names

        try:
            names = await listed_names(self.server)
        except Exception:  # noqa: BLE001  # the next tools/list reports it
            return ""
        if not names:
            return ": no tools"
        shown = ", ".join(names[:SHOWN_NAMES])
        more = f" and {len(names) - SHOWN_NAMES} more" if len(names) > SHOWN_NAMES else ""
        return f": {len(names)} tool{'' if len(names) == 1 else 's'}: {shown}{more}"


SHOWN_NAMES = 10  # tool names a reload's log line shows


def _now() -> str:
    return time.strftime("%H:%M:%S")


async def _set_when_cancelled(stop: threading.Event) -> None:
    """Set ``stop`` when the watch is cancelled. watchfiles waits for its Rust loop in a
    thread that a cancel cannot interrupt, and sets its stop event only once that thread
    has returned: up to its 5 s timeout later (a SIGTERM would wait that long). Set from
    here, the loop sees it at its next step."""
    # lazy: loads anyio
    import anyio

    try:
        await anyio.sleep_forever()
    finally:
        stop.set()


async def _close(stacks: tuple[contextlib.ExitStack, contextlib.AsyncExitStack]) -> None:
    opened, entered = stacks
    try:
        await entered.aclose()
    finally:
        opened.close()
