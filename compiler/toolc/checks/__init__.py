"""The semantic checks, in the order they run.

Each check is a function ``(Project) -> None`` that reports into the project's bag; one
module per family of rules. The order matters where a check builds on what an earlier
one learnt (schemas record the named types they use; type cycles decide which types are
recursive; composition follows the toolset references), and is otherwise the order in
which a reader would want to hear about problems.
"""

from __future__ import annotations

from collections.abc import Callable

from ..diagnostics import DiagnosticBag
from ..model.parse import ParsedModule
from . import (
    bounds,
    composition,
    descriptions,
    modules,
    names,
    published,
    references,
    schemas,
    toolset_bounds,
    toolsets,
    types,
)
from .project import Project

Check = Callable[[Project], None]

CHECKS: tuple[Check, ...] = (
    modules.check_module_names,             # TC309
    modules.check_duplicate_modules,        # TC308
    names.check_tool_names,                 # TC301 TC302
    names.check_identifiers,                # TC311
    names.check_duplicate_tools,            # TC312
    references.check_code_references,       # TC303
    schemas.check_schemas,                  # TC101 TC103 TC201 TC202 TC203 TC205 TC207 TC305 TC307
    types.check_type_cycles,                # TC206 TC208
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
    published.check_defaults,               # TC204
    published.check_returns_object,         # TC209
    published.check_meta_values,            # TC103
)


def run_checks(modules: list[ParsedModule], bag: DiagnosticBag) -> Project:
    """Run every check over the parsed modules; the project keeps what they learnt."""
    project = Project(modules, bag)
    for check in CHECKS:
        check(project)
    return project


__all__ = ["CHECKS", "Check", "Project", "run_checks"]
