"""The semantic checks, in the order they run.

Each check is a function ``(Project) -> None`` that reports into the project's bag; one
module per family of rules. The order matters where a check builds on what an earlier
one learnt (schemas record the named types they use; type cycles decide which types are
recursive; composition follows the toolset references), and is otherwise the order in
which a reader would want to hear about problems.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..diagnostics import DiagnosticBag
from ..model.parse import ParsedModule
from . import (
    bounds,
    clients,
    code,
    composition,
    descriptions,
    filenames,
    modules,
    names,
    published,
    references,
    resolvable,
    schemas,
    toolset_bounds,
    toolsets,
    type_cycles,
)
from .project import ClientView, Project, UnreadSpecs

Check = Callable[[Project], None]

CHECKS: tuple[Check, ...] = (
    modules.check_module_names,             # TC309
    modules.check_duplicate_modules,        # TC308
    filenames.check_module_files,           # TC313 TC314 TC315 TC316
    names.check_tool_names,                 # TC301 TC302
    names.check_identifiers,                # TC311
    names.check_duplicate_tools,            # TC312
    names.check_renamed_from,               # TC330
    references.check_code_references,       # TC303
    code.check_code_targets,                # TC340 TC341 TC342
    schemas.check_schemas,                  # TC101 TC103 TC201 TC202 TC203 TC205 TC207 TC305 TC307
    descriptions.check_type_descriptions,   # TC201 (once per undescribed named type)
    type_cycles.check_type_cycles,          # TC206 TC208
    bounds.check_bounds,                    # TC230 TC231 (before anything is written out)
    descriptions.check_tool_descriptions,   # TC201
    references.check_tool_references,       # TC304 TC407
    references.check_toolset_references,    # TC306 TC307
    references.check_export,                # TC406
    toolsets.check_mcp_transport,           # TC404
    toolsets.check_external_schemas,        # TC405
    toolsets.check_pinned_tools,            # TC102 TC103
    toolsets.check_manager_servers,         # TC408
    toolsets.check_handlers,                # TC310
    toolset_bounds.check_toolset_depth,     # TC233 (before composing)
    composition.check_composition,          # TC401 TC402 TC403 TC407 TC301 TC302 TC234
    filenames.check_golden_files,           # TC313 TC314
    clients.check_client_names,             # TC320 TC321
    published.check_defaults,               # TC204
    published.check_returns_object,         # TC209
    published.check_meta_values,            # TC103
    resolvable.check_references,            # TC210 TC211 TC212 TC214 TC215
    resolvable.check_compiles,              # TC213
    published.check_search_meta,            # TC510
)


def run_checks(modules: list[ParsedModule], bag: DiagnosticBag,
               root: Path | None = None, python_path: tuple[Path, ...] = (),
               view: ClientView | None = None, unread: UnreadSpecs | None = None) -> Project:
    """Run every check over the parsed modules; the project keeps what they learnt.
    ``python_path``: where handlers are looked for (none: their references unchecked);
    ``view``: the clients the names are checked for (default: claude and openai);
    ``unread``: the specs that could not be loaded."""
    project = Project(modules, bag, root, python_path, view, unread)
    for check in CHECKS:
        check(project)
    return project


__all__ = ["CHECKS", "Check", "ClientView", "Project", "UnreadSpecs", "run_checks"]
