"""The analysis steps, in the order their results need: each takes what the ones before
returned, and :func:`analyse_project` gathers them into the frozen
:class:`~toolc.checks.facts.ProjectFacts` that the checks read and resolve builds on.

The handler lookups come first and the schema walk next because the near misses an
analysis suggests share one budget (``model/suggestions.py``), spent in the order asked:
these two steps ask before every check, as they did when they were checks themselves.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from types import MappingProxyType

from ..diagnostics import Span
from ..model.named import TypeDef
from .bounds import measure_bounds
from .code import look_up_code
from .composition import compose_toolsets
from .facts import ProjectFacts, SchemaRoot, WrittenSchemas
from .parsed import ParsedProject
from .references import held_toolset_references
from .schemas import walk_schemas
from .toolset_bounds import measure_toolset_depth
from .type_cycles import find_type_cycles


def analyse_project(project: ParsedProject) -> ProjectFacts:
    """Every fact the checks and the later stages need, each computed once."""
    code_index, code_found = look_up_code(project)
    walk = walk_schemas(project)
    cycles = find_type_cycles(walk.type_roots)
    out_of_bounds, bounds_found = measure_bounds(project, walk.roots)
    clean = clean_roots(walk.roots, walk.type_roots, out_of_bounds, cycles.alias_cycle_types)
    schemas = write_clean(project, walk.roots, clean, cycles.recursive_types)
    deep, depth_found = measure_toolset_depth(project)
    composer = compose_toolsets(project, deep)
    held = _held(walk.held + tuple(held_toolset_references(project)))
    return ProjectFacts(
        project=project,
        roots=walk.roots,
        type_roots=MappingProxyType(walk.type_roots),
        undescribed_uses=MappingProxyType({td: tuple(uses)
                                           for td, uses in walk.undescribed.items()}),
        type_cycles=cycles,
        out_of_bounds=out_of_bounds,
        clean_roots=clean,
        schemas=schemas,
        deep_toolsets=deep,
        compositions=MappingProxyType(composer.compositions),
        missing_renames=tuple(composer.missing_renames),
        code_index=code_index,
        held=held,
        found=(*code_found, *walk.found, *bounds_found, *depth_found, *composer.found),
    )


def clean_roots(roots: tuple[SchemaRoot, ...], type_roots: dict[TypeDef, SchemaRoot],
                out_of_bounds: AbstractSet[SchemaRoot],
                alias_cycle_types: AbstractSet[TypeDef]) -> frozenset[SchemaRoot]:
    """The documents with no problem of their own (the walk's, a bound's) nor in any named
    type they use, even indirectly: the ones worth writing out and judging as published."""
    def broken(root: SchemaRoot) -> bool:
        return bool(root.errors) or root in out_of_bounds

    users: dict[TypeDef, list[TypeDef]] = {}
    for td, type_root in type_roots.items():
        for used, _, _ in type_root.refs:
            users.setdefault(used, []).append(td)
    bad = {td for td, r in type_roots.items() if broken(r)} | set(alias_cycle_types)
    stack = list(bad)
    while stack:
        for user in users.get(stack.pop(), ()):
            if user not in bad:
                bad.add(user)
                stack.append(user)
    return frozenset(root for root in roots if not broken(root)
                     and not any(td in bad for td, _, _ in root.refs))


def write_clean(project: ParsedProject, roots: tuple[SchemaRoot, ...],
                clean: frozenset[SchemaRoot], recursive: frozenset[TypeDef]) -> WrittenSchemas:
    """Every clean toolc schema written out as published, in the order of the roots (the
    schema files they inline are read in that order)."""
    schemas = WrittenSchemas(project, recursive)
    for root in roots:
        if not root.raw and root in clean:
            schemas.write(root)
    return schemas


def _held(found: tuple[tuple[str, Span], ...]) -> MappingProxyType[str, tuple[str, ...]]:
    held: dict[str, list[str]] = {}
    for module, at in found:
        held.setdefault(module, []).append(at.path)
    return MappingProxyType({module: tuple(paths) for module, paths in held.items()})
