"""The semantic checks: the analysis first, then every check over what it learnt.

:func:`run_checks` makes the parsed project (``parsed.py``), runs the analysis steps
(``steps.py``: each takes what the ones before returned) into the frozen
:class:`ProjectFacts`, then each check of :data:`CHECKS`. A check reads the facts and
reports the rule codes it declares, and only those (``reporting.py``); it writes
nothing another check reads, so their order is only the order in which a reader would
want to hear about problems. Every code belongs to one check.
"""

from __future__ import annotations

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
from .facts import ProjectFacts
from .parsed import ClientView, ParsedProject, UnreadSpecs
from .reporting import Check, Reporter
from .steps import analyse_project

CHECKS: tuple[Check, ...] = (
    Check(modules.check_module_names, ("TC309",), "module names are Python identifiers"),
    Check(modules.check_duplicate_modules, ("TC308",), "one spec per module"),
    Check(filenames.check_file_names, ("TC313", "TC314", "TC315", "TC316"),
          "module and golden file names every checkout can hold, shadowing nothing"),
    Check(names.check_tool_names, ("TC301", "TC302"),
          "tool and published names by the MCP and the portable rules"),
    Check(names.check_identifiers, ("TC311",), "type and toolset names are identifiers"),
    Check(names.check_duplicate_tools, ("TC312",), "an external tool takes no taken name"),
    Check(names.check_renamed_from, ("TC330",), "`renamed_from` names a free old name"),
    Check(references.check_code_references, ("TC303",),
          "code references have the shape `package.module:attribute`"),
    Check(code.check_code_targets, ("TC340", "TC341", "TC342"),
          "code references name something on the python-path"),
    Check(schemas.check_schemas,
          ("TC101", "TC202", "TC203", "TC205", "TC207", "TC220", "TC221", "TC305"),
          "schema keywords, values, named types and `required`, as the walk found them"),
    Check(descriptions.check_descriptions, ("TC201",),
          "every tool and property has a description, its own or its type's"),
    Check(type_cycles.check_type_cycles, ("TC206", "TC208"),
          "recursive types, and types that are only aliases of themselves"),
    Check(bounds.check_bounds, ("TC230", "TC231"), "published depth and size bounded"),
    Check(references.check_tool_references, ("TC304", "TC407"),
          "function toolsets list tools of their module; no set publishes a name twice"),
    Check(references.check_toolset_references, ("TC306", "TC307"),
          "references name existing toolsets, and modules some spec declares"),
    Check(references.check_export, ("TC406",), "`export` names a toolset of its module"),
    Check(toolsets.check_mcp_transport, ("TC404",), "an mcp toolset has one transport"),
    Check(toolsets.check_external_schemas, ("TC405",),
          "external tools have an object `input_schema`"),
    Check(toolsets.check_values, ("TC102", "TC103"),
          "required keys and JSON values: pinned tools, `meta`, `required: true`"),
    Check(toolsets.check_manager_servers, ("TC408",), "an mcp_manager connects mcp toolsets"),
    Check(toolsets.check_handlers, ("TC310",), "a listed tool has a handler"),
    Check(toolset_bounds.check_toolset_depth, ("TC233",),
          "toolsets nest no deeper than the format's one bound"),
    Check(composition.check_composition, ("TC401", "TC402", "TC403", "TC234"),
          "toolset cycles, collisions, renames of missing tools, sets too large"),
    Check(clients.check_client_names, ("TC320", "TC321"),
          "published names as each configured client sees them"),
    Check(published.check_defaults, ("TC204",), "a `default` fits its own schema"),
    Check(published.check_returns_object, ("TC209",), "`returns` is an object schema"),
    Check(resolvable.check_references, ("TC210", "TC211", "TC212", "TC214", "TC215"),
          "every published `$ref` resolves offline"),
    Check(resolvable.check_compiles, ("TC213",), "jsonschema-rs compiles every published schema"),
    Check(published.check_search_meta, ("TC510", "TC511"),
          "`meta` agrees with `search`, and names no near miss of a search key"),
)


def run_checks(modules: list[ParsedModule], bag: DiagnosticBag,
               root: Path | None = None, python_path: tuple[Path, ...] = (),
               view: ClientView | None = None, unread: UnreadSpecs | None = None,
               ) -> ProjectFacts:
    """Analyse the parsed modules and run every check over the facts, which are returned.
    ``python_path``: where handlers are looked for (none: their references unchecked);
    ``view``: the clients the names are checked for (default: claude and openai);
    ``unread``: the specs that could not be loaded."""
    facts = analyse_project(ParsedProject(modules, root, python_path, view, unread))
    relayed = sum(check(facts, bag) for check in CHECKS)
    if relayed != len(facts.found):
        # A finding whose code no check relays would vanish: a bug of toolc's.
        raise AssertionError(f"{len(facts.found) - relayed} of the analysis' findings were "
                             "reported by no check")
    return facts


__all__ = ["CHECKS", "Check", "ClientView", "ParsedProject", "ProjectFacts", "Reporter",
           "UnreadSpecs", "run_checks"]
