"""``toolc validate FILES...``: some specs checked in the context of the whole project.

A spec of a multi-module project names the others' types and toolsets
(``workbench.main``), so it cannot be analysed alone: alone, every such reference is
TC307. The named files are therefore analysed with every spec of the project (the
configured folders, plus the named files when they lie elsewhere), and what is reported
is what concerns them:

- every problem located in a named file;
- a problem located in another spec that names a module a named file declares
  (``module 'workbench'``, ``'workbench.main'``): a cross-file problem the named files
  can cause, such as a type or toolset another module still uses and a named file
  removed, or two files declaring one module;
- a problem located nowhere (the project's configuration);
- the error of a spec that could not be loaded, when references of a named file to the
  module it may declare wait for it (they are not reported as unknown modules).

This is what a pre-commit hook with ``pass_filenames`` needs: the staged specs, checked
against the rest, without the rest's unrelated problems.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from ..config import Config
from ..diagnostics import Diagnostic
from ..frontend import Compiled, compile_specs
from ..specs import discover, shown_path


def compile_subset(config: Config, targets: Sequence[Path]) -> tuple[Compiled, set[str]]:
    """The project analysed with ``targets`` (files or folders) in it; the bag keeps only
    what concerns the named specs, returned as they are shown in diagnostics."""
    # Absolute (links kept, as diagnostics name a link by its own name): a named file is
    # then the same path as the project's spec it is, and loaded once.
    named = [Path(os.path.abspath(p)) for p in discover(config, targets)]
    project = {Path(os.path.abspath(p)) for p in discover(config)}
    compiled = compile_specs(config, sorted(project | set(named)))
    shown = {shown_path(config, path) for path in named}
    modules = {compiled.modules[s] for s in shown if s in compiled.modules}
    compiled.bag.items = [d for d in compiled.bag.items
                          if concerns(d, shown, modules) or _waits_for(d, shown)]
    return compiled, shown


def concerns(diagnostic: Diagnostic, files: set[str], modules: set[str]) -> bool:
    """Located in one of ``files``, nowhere, or naming one of ``modules``."""
    span = diagnostic.span
    if span is None or span.path in files:
        return True
    return any(_names_module(diagnostic.message, module) for module in modules)


def _waits_for(diagnostic: Diagnostic, files: set[str]) -> bool:
    """The error of a spec that could not be loaded, holding back references of ``files``."""
    # lazy: loads pydantic, which compile_specs has loaded already
    from ..checks.parsed import HELD_BACK

    return any(note.endswith(HELD_BACK) and any(f" {f}" in note for f in files)
               for note in diagnostic.notes)


def _names_module(message: str, module: str) -> bool:
    """``module 'workbench'`` or a quoted reference into it (``'workbench.main'``)."""
    quoted = re.escape(module)
    return re.search(rf"module '{quoted}'|'{quoted}\.", message) is not None
