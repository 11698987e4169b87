"""Certify a build: what a real MCP client lists must be exactly what the spec says.

The generated modules are imported from a staging folder (before anything is written),
each module's exported toolset is served by a real mcp low-level ``Server`` through
``toolc.runtime.to_mcp_server``, and a real ``mcp.Client`` lists the tools in-process.
Then:

1. every description the spec gives (tool, properties at any depth, array items, named
   types, ``returns``) must stand on the wire at its own JSON pointer: not only inside an
   ``anyOf`` branch, not only beside a ``$ref``, not rewritten by a wrapper or a prepare
   function (TC502, at the spec line of the description);
2. everything else the spec publishes (names, titles, annotations, ``_meta``,
   ``required``, defaults, enums, constraints) must be identical (TC501);
3. the wire must equal the golden JSON the build writes (TC501).

Serving the exported set runs what it is made of (predicates, prepare functions,
wrappers), so those are imported here; ``toolc build --no-certify`` imports nothing.
``toolc build`` does the importing and listing in a process it forks at its start
(``toolc.certify.process``) and compares here (:func:`compare_module`); :func:`certify_build`
does it all in this process, where no process can be forked.

No ``mcp`` toolset is connected to: certification starts no server's command and
contacts no URL (the spec, from a pull request maybe, names them). A pinned one's
definitions (``toolc import``) stand in for its server (``toolc.runtime.mcp.pinned``),
and one that pins nothing lists no tools, so a build certifies offline what the module is
known to publish; ``toolc diff --live`` compares the live servers with the pins. The listing is taken as the JSON sent, so fields the SDK's ``Tool``
model does not know (a pinned tool's ``icons``, vendor fields) are compared too.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal, NamedTuple

from ..config import Config
from ..diagnostics import DiagnosticBag, Severity
from ..ir import ModuleIR, PreparedToolsetIR, ProjectIR, ToolIR, WrapperToolsetIR, referred
from ..publish import golden_path
from ..runtime.json_pointers import MISSING, json_differences, resolve_pointer
from ..runtime.tool import LazyRef
from .staged_import import staged_package
from .verdicts import Verdict, replay, used_marks, verdict_of

MAX_REPORTED = 20  # differences reported per tool; the rest are counted


def certify_build(config: Config, project: ProjectIR, files: Mapping[str, str],
                  bag: DiagnosticBag, reused: Mapping[str, Verdict] | None = None
                  ) -> dict[str, Verdict]:
    """List every module's export through a real MCP client and compare; report into bag.
    ``reused``: the modules with a verdict there are not served, their verdict is said
    again (``toolc.certify.verdicts``). Returns the verdict of each module served."""
    # lazy: 1 more toolc module(s), only when this runs
    from ..runtime.mcp.pinned import stand_in_pinned

    reused = reused or {}
    if all(name in reused for name in project.modules):  # nothing to import or serve
        for module in project.modules.values():
            replay(bag, reused[module.name])
        return {}
    with staged_package(files, config.python_path) as package:
        stand_in_pinned(package, project.stand_in_targets(unpinned=True))
        # lazy: the mcp SDK costs most of a second to import
        import anyio

        _import_mcp()
        made: dict[str, Verdict] = {}
        anyio.run(_certify_modules, package, project, files, bag, reused, made)
        return made


async def _certify_modules(package: str, project: ProjectIR, files: Mapping[str, str],
                           bag: DiagnosticBag, reused: Mapping[str, Verdict],
                           made: dict[str, Verdict]) -> None:
    """Every module in one event loop (starting a loop per module costs as much as listing)."""

    for module in project.modules.values():
        if module.name in reused:
            replay(bag, reused[module.name])
            continue
        own = bag.sibling()
        before = used_marks(bag)
        try:
            mod = importlib.import_module(f"{package}.{module.name}")
            listings = await list_contexts(mod.toolset, declared_contexts(module))
        except Exception as exc:  # noqa: BLE001 - user code may raise anything; report it
            report_unserved(module, failure_text(exc), own)
        else:
            judge_listings(module, listings, files, own)
        bag.items.extend(own.items)
        made[module.name] = verdict_of(bag, before, own.items)


def declared_contexts(module: ModuleIR) -> list[tuple[str, str]]:
    """The module's certification contexts as the certifying process takes them."""
    return [(name, str(ref)) for name, ref in module.certify_contexts]


def _import_mcp() -> None:
    # lazy: imported ahead on purpose, while the build does other work
    from mcp import Client  # noqa: F401

    # lazy: imported ahead on purpose, while the build does other work
    from ..runtime.mcp.listing import list_raw_tools  # noqa: F401
    from ..runtime.mcp_server.toolset_server import to_mcp_server  # noqa: F401


def compare_module(module: ModuleIR, wire: list[dict[str, Any]], files: Mapping[str, str],
                   bag: DiagnosticBag, context: str | None = None) -> None:
    """Compare one module's listed tools with its IR and golden files (listed under
    ``context``, a declared certification context; ``None``: the default, no deps)."""
    if context is not None:
        bag = _Naming(bag, _under(context))
    listed = {tool.get("name"): tool for tool in wire}
    expected = {tool.name: tool for tool in module.exported_tools}
    dynamic = any(ts.kind in ("filtered", "prepared") for ts in module.toolsets.values())
    rewriters = _rewriters(module)
    unexplained: list[LostDescription] | None = [] if rewriters else None
    for name, tool in expected.items():
        got = listed.get(name)
        if got is None:
            bag.report("TC501", f"tool '{name}' is exported but the server does not list it",
                       tool.span, severity=Severity.WARNING if dynamic else None,
                       notes=[("a filter or prepare function may hide it in the "
                               "certification context")] if dynamic else ())
            continue
        compare_tool(tool, got, files.get(golden_path(module.name, name)), bag, unexplained)
    if unexplained:
        _report_rewritten(rewriters, unexplained, bag)
    for extra in listed:
        if extra not in expected:
            bag.report("TC501", f"the server lists tool '{extra}', which the spec does not "
                       "export", _export_span(module))


class _Naming(DiagnosticBag):
    """A bag that adds ``under context 'x'`` to each message and passes it on."""

    def __init__(self, bag: DiagnosticBag, suffix: str) -> None:
        self.inner, self.suffix = bag, suffix

    def report(self, code: str, message: str, span: Any = None, *, notes: Any = (),
               severity: Severity | None = None, fixes: Any = (), related: Any = ()) -> None:
        self.inner.report(code, message + self.suffix, span, notes=notes, severity=severity,
                          fixes=fixes, related=related)


LostDescription = tuple[str, str, Any]  # (tool, pointer, the description's span)
Rewriter = PreparedToolsetIR | WrapperToolsetIR  # user code that sees each listed tool
MAX_LISTED = 10  # lost descriptions listed in a diagnostic that names their cause


def _rewriters(module: ModuleIR) -> list[Rewriter]:
    """The module's prepared and wrapper toolsets the export passes its tools through,
    nearest the export first: user code that may change what a description says."""
    found: list[Rewriter] = []
    seen: set[str] = set()
    queue = [module.export]
    while queue:
        name = queue.pop(0)
        ts = module.toolsets.get(name)
        if name in seen or ts is None:
            continue
        seen.add(name)
        if isinstance(ts, PreparedToolsetIR | WrapperToolsetIR):
            found.append(ts)
        for ref in referred(ts):
            if ref.startswith(f"{module.name}."):
                queue.append(ref.removeprefix(f"{module.name}."))
    return found


def _rewrites_with(ts: Rewriter) -> str:
    if isinstance(ts, PreparedToolsetIR):
        return f"prepare {ts.prepare}"
    return f"wrapper {ts.wrapper}"


def _report_rewritten(rewriters: list[Rewriter], lost: list[LostDescription],
                      bag: DiagnosticBag) -> None:
    """One TC502 for the descriptions no converter explains, at the toolset whose
    function is the likely cause, the tools listed: one cause, one diagnostic."""
    causes = " and ".join(
        f"toolset '{ts.name}' ({_rewrites_with(ts)})" for ts in rewriters)
    tools = sorted({tool for tool, _, _ in lost})
    shown = ", ".join(f"'{t}'" for t in tools)
    notes = [f"'{tool}' at {pointer} (spec line {span.line})"
             for tool, pointer, span in lost[:MAX_LISTED]]
    if len(lost) > MAX_LISTED:
        notes.append(f"and {len(lost) - MAX_LISTED} more")
    notes.append("the spec's descriptions are published as written; the function changes "
                 "or drops them on the way to the client")
    if len(lost) == 1:
        tool, pointer, _ = lost[0]
        message = (f"description of '{tool}' does not reach the wire at {pointer}: the "
                   f"export passes it through {causes}")
    else:
        message = (f"{len(lost)} descriptions of {len(tools)} tool(s) ({shown}) do not reach "
                   f"the wire: the export passes them through {causes}")
    bag.report("TC502", message, rewriters[0].span, notes=notes)


def compare_tool(tool: ToolIR, got: dict[str, Any], golden: str | None,
                 bag: DiagnosticBag, unexplained: list[LostDescription] | None = None) -> None:
    """Compare one listed tool with the spec. A lost description that no known
    converter behaviour explains goes to ``unexplained`` when given (the module's
    prepare or wrapper functions are then its likely cause), else is reported."""
    want = tool.published()
    if _dump(want) == _dump(got):  # the usual case: identical, types and all
        if golden is not None and json.loads(golden) != got:
            bag.report("TC501", f"'{tool.name}' on the wire differs from its golden file",
                       tool.span)
        return
    lost = set()
    for pointer, span in tool.description_spans.items():
        text = resolve_pointer(want, pointer)
        if resolve_pointer(got, pointer) == text and not _beside_new_ref(want, got, pointer):
            continue
        lost.add(pointer)
        notes = _where_it_went(got, pointer, text)
        if unexplained is not None and not any(n.startswith("it is only") or "$ref" in n
                                               for n in notes):
            unexplained.append((tool.name, pointer, span))
            continue
        bag.report("TC502", f"description of '{tool.name}' does not reach the wire at {pointer}",
                   span, notes=notes)
    differences = [d for d in json_differences(want, got)
                   if not any(d[0] == p or d[0].startswith(p + "/") for p in lost)]
    for pointer, old, new in differences[:MAX_REPORTED]:
        bag.report("TC501", f"'{tool.name}' differs on the wire at {pointer or '/'}: "
                   f"spec publishes {_show(old)}, client sees {_show(new)}", tool.span)
    if len(differences) > MAX_REPORTED:
        bag.report("TC501", f"'{tool.name}': {len(differences) - MAX_REPORTED} more differences",
                   tool.span)
    if golden is not None and json.loads(golden) != got and not differences and not lost:
        bag.report("TC501", f"'{tool.name}' on the wire differs from its golden file",
                   tool.span)


def _dump(value: Any) -> str:
    """Canonical JSON: equal text means equal values, 1 and 1.0 and true told apart."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _beside_new_ref(want: dict[str, Any], got: dict[str, Any], pointer: str) -> bool:
    """A description standing beside a ``$ref`` the spec did not publish is as good as lost:
    clients that resolve the reference replace the whole node and drop its siblings."""
    parent = pointer.rsplit("/", 1)[0]
    on_wire, published = resolve_pointer(got, parent), resolve_pointer(want, parent)
    return (isinstance(on_wire, dict) and "$ref" in on_wire
            and not (isinstance(published, dict) and "$ref" in published))


def _show(value: Any) -> str:
    if value is MISSING:
        return "nothing"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "..."


def _where_it_went(got: dict[str, Any], pointer: str, text: Any) -> list[str]:
    """Say where a lost description ended up, for the known ways of losing one."""
    parent_ptr = pointer.rsplit("/", 1)[0]
    parent = resolve_pointer(got, parent_ptr)
    notes = []
    if isinstance(parent, dict):
        for key in ("anyOf", "oneOf", "allOf"):
            for i, branch in enumerate(parent.get(key) or []):
                if isinstance(branch, dict) and branch.get("description") == text:
                    notes.append(f"it is only inside the branch {parent_ptr}/{key}/{i}; "
                                 "many clients read the property's own description only")
        if "$ref" in parent:
            notes.append(f"the property at {parent_ptr} is a $ref; clients that resolve it "
                         "drop sibling keywords")
        current = parent.get("description", MISSING)
        if current is not MISSING and not notes:
            notes.append(f"the wire says {_show(current)} instead")
    return notes


def innermost_error(exc: BaseException) -> BaseException:
    """The first real error inside the task groups the mcp client and server run in."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def failure_text(exc: BaseException) -> str:
    """Why a module could not be served, in words: its innermost error."""
    cause = innermost_error(exc)
    return f"{type(cause).__name__}: {cause}"


def report_unserved(module: ModuleIR, why: str, bag: DiagnosticBag,
                    context: str | None = None) -> None:
    bag.report("TC503", f"cannot serve module '{module.name}' for certification"
               f"{_under(context)}: {why}", _export_span(module))


def _under(context: str | None) -> str:
    return "" if context is None else f" under context '{context}'"


def _export_span(module: ModuleIR) -> Any:
    return module.toolsets[module.export].span


class ContextListing(NamedTuple):
    """What the export listed in one certification context (part of the certifying
    process's ``Listed`` result): the raw wire tools, or why the context failed."""

    context: str | None                   # None: the default context, no deps
    outcome: Literal["listed", "failed"]
    value: Any                            # listed: the wire tools; failed: why, in words


async def list_contexts(toolset: Any, contexts: Sequence[tuple[str, str]]
                        ) -> list[ContextListing]:
    """The export listed in the default context (no deps, ``None``), then under each
    declared context: ``(name, "package.module:factory")``, the factory called here."""

    out = [ContextListing(None, "listed", await list_over_mcp(toolset))]
    for name, ref in contexts:
        try:
            module, _, attr = ref.partition(":")
            deps = LazyRef(module, attr).resolve()()
            if hasattr(type(deps), "__await__"):  # an async factory
                deps = await deps
            out.append(ContextListing(name, "listed", await list_over_mcp(toolset, deps)))
        except Exception as exc:  # noqa: BLE001 - user code may raise anything; report it
            out.append(ContextListing(name, "failed", failure_text(exc)))
    return out


def judge_listings(module: ModuleIR, listings: list[ContextListing],
                   files: Mapping[str, str], bag: DiagnosticBag) -> None:
    """Compare what each context listed; a failed context is a TC503 that names it."""
    for context, outcome, value in listings:
        if outcome == "listed":
            compare_module(module, value, files, bag, context)
        else:
            report_unserved(module, value, bag, context)


async def list_over_mcp(toolset: Any, deps: Any = None) -> list[dict[str, Any]]:
    """Serve ``toolset`` from a real mcp Server and list it with a real mcp Client;
    ``deps`` goes into every RunContext (a declared certification context's)."""
    # lazy: loads mcp (about a second)
    from mcp import Client

    # lazy: 1 more toolc module(s), only when this runs
    from ..runtime.mcp.listing import list_raw_tools

    # lazy: loads mcp (about a second)
    from ..runtime.mcp_server.toolset_server import to_mcp_server

    # The build's own client: its diagnostics need the real failure, not a masked ref.
    server = to_mcp_server(toolset, name="toolc-certify", deps=deps, expose_errors=True)
    async with Client(server) as client:
        return await list_raw_tools(client)
