"""Live drift: what the pinned MCP servers publish now, against what the specs pin.

``toolc diff --live`` and ``toolc build --live`` list, again, every server whose tools a
spec pins, in parallel. Each spec that pins one is re-pinned in memory with the live
listing, exactly as ``toolc import`` would write it, and the project is compiled again;
the golden files of that build are then diffed against those of the specs as they are,
with the project's own diff rules, policy and formats. So a change is reported under the
tool's published name (prefixes and renames applied) and classified as any change of a
golden file is: a removed tool, a parameter now required, a description gone.

A server that cannot be listed is reported and keeps its pinned tools; live tools that
no longer compile with the rest (two servers now giving one name) are reported as the
diagnostics of the re-pinned specs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TextIO

import anyio

from ..config import Config
from ..diagnostics import Diagnostic, Severity, SpecError
from ..frontend import compile_specs
from ..ir import MCPToolsetIR, ModuleIR, ProjectIR
from ..loader import LoadedFile, load_file, load_text
from ..pipeline import new_golden, schema_changes
from ..publish import publish_project
from ..publish.json_documents import to_json
from ..report.render import render_diagnostics, render_diff
from ..specs import discover, shown_path
from .listing import ImportFailure, Server, list_live
from .pinning import pinned_tools
from .yamlout import YamlWriteError, dump

if TYPE_CHECKING:
    from ..diff.result import SchemaDiff


@dataclass(slots=True)
class Drift:
    """What listing the live servers found."""

    servers: int = 0                                   # pinned servers listed (or tried)
    unlisted: int = 0                                  # of those, the ones that failed
    diff: SchemaDiff | None = None                     # pinned -> live, classified
    failures: list[str] = field(default_factory=list)  # servers that could not be listed
    diagnostics: list[Diagnostic] = field(default_factory=list)  # re-pinned specs' errors
    sources: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.failures and not self.diagnostics


def server_of(ts: MCPToolsetIR) -> Server:
    stdio = {k: v for k, v in (ts.stdio or {}).items() if v not in (None, [], {})}
    http = {k: v for k, v in (ts.http or {}).items() if v not in (None, {})}
    return Server(ts.qualname, stdio=stdio or None, http=http or None)


def live_drift(config: Config, project: ProjectIR, sources: dict[str, str],
               timeout_s: float = 30.0) -> Drift:
    """List every pinned server live and classify what changed since it was pinned."""

    pinned = [(module, ts) for module in project.modules.values() for ts in module.mcp_sets(pinning_only=True)]
    drift = Drift(servers=len(pinned))
    if not pinned:
        return drift
    listings = anyio.run(_list_all, [server_of(ts) for _, ts in pinned], timeout_s)
    texts: dict[str, str] = {}
    for module in {m.name: m for m, _ in pinned}.values():
        live = {ts.name: listings[ts.qualname] for m, ts in pinned
                if m is module and isinstance(listings.get(ts.qualname), list)}
        try:
            texts[module.path] = repinned_text(sources[module.path], module, live)
        except (ImportFailure, YamlWriteError, SpecError) as exc:
            drift.failures.append(f"{module.path}: cannot pin the live tools: {exc}")
    failed = [str(v) for v in listings.values() if isinstance(v, ImportFailure)]
    drift.failures += failed
    drift.unlisted = len(failed)
    after = _compile(config, texts, drift)
    if after is not None:
        drift.diff = schema_changes(config, new_golden(publish_project(project)),
                                    new_golden(publish_project(after)))
    return drift


async def _list_all(servers: list[Server], timeout_s: float) -> dict[str, Any]:
    """Qualified toolset name -> its live tools, or the ImportFailure that stopped it."""

    found: dict[str, Any] = {}

    async def one(server: Server) -> None:
        try:
            found[server.name] = (await list_live(server, timeout_s)).tools
        except ImportFailure as exc:
            found[server.name] = exc

    async with anyio.create_task_group() as tg:
        for server in servers:
            tg.start_soon(one, server)
    return found


def repinned_text(text: str, module: ModuleIR, live: dict[str, list[dict[str, Any]]]) -> str:
    """The spec ``text`` with the ``tools`` of the named mcp toolsets replaced by ``live``."""
    data = to_json(load_text(text, module.path).data)
    for name, tools in live.items():
        data["toolsets"][name]["tools"] = pinned_tools(tools, f"MCP server {module.name}.{name}")
    return dump(data)


def _compile(config: Config, texts: dict[str, str], drift: Drift) -> ProjectIR | None:
    """The project with some specs replaced by ``texts`` (by shown path)."""
    # lazy: 35 more toolc module(s), only when this runs
    from ..frontend import analyse

    bag = config.bag()
    loaded: list[LoadedFile] = []
    unread: dict[str, str] = {}  # specs that did not load: what waits on them is held back
    for path in discover(config):
        shown = shown_path(config, path)
        try:
            item = load_text(texts[shown], shown) if shown in texts else load_file(
                str(path), shown, str(config.root))
        except SpecError as exc:
            bag.extend(exc.diagnostics)
            unread[shown] = texts.get(shown, "")
            continue
        item.origin = str(path)  # its schema files are beside it, whatever text it has
        drift.sources[shown] = item.text
        loaded.append(item)
    project = analyse(loaded, bag, config.root, unread=unread)
    if bag.has_errors:
        drift.diagnostics = [d for d in bag.sorted() if d.severity is Severity.ERROR]
        return None
    return project


def print_drift(drift: Drift, fmt: str, *, out: TextIO, err: TextIO, golden_root: str,
                fail_on: str = "error", color: bool = False) -> bool:
    """Report ``drift`` (changes in ``fmt``, problems on ``err``); whether it fails."""
    # lazy: 7 more toolc module(s), only when this runs
    from ..diff import fails

    err.writelines(f"error: {failure}\n" for failure in drift.failures)
    if drift.diagnostics:
        err.write("error: with the live tools pinned, the specs do not compile:\n")
        err.write(render_diagnostics(drift.diagnostics, "text", drift.sources) + "\n")
    changes = drift.diff.changes if drift.diff is not None else []
    if drift.diff is not None and changes:
        out.write(render_diff(drift.diff, fmt, color=color, golden_root=golden_root,
                              fail_on=fail_on) + "\n")
    elif fmt == "json" and drift.diff is not None:
        out.write(render_diff(drift.diff, fmt, golden_root=golden_root) + "\n")
    if fmt == "text":
        if not drift.servers:
            out.write("live: no spec pins an MCP server's tools; nothing to list\n")
        elif drift.diff is not None and not changes and drift.unlisted:
            listed = drift.servers - drift.unlisted
            out.write(f"live: {listed} of {drift.servers} pinned MCP server(s) listed; those "
                      "publish what the specs pin\n")
        elif drift.diff is not None and not changes:
            out.write(f"live: {drift.servers} pinned MCP server(s) publish what the specs "
                      "pin\n")
    return not drift.ok or fails(changes, fail_on)


def run_live_diff(config: Config, *, fmt: str, fail_on: str, out: TextIO, err: TextIO,
                  color: bool = False, timeout_s: float = 30.0) -> int:
    """``toolc diff --live``: the exit code (1 on drift at or above ``fail_on``, or when a
    server cannot be listed)."""
    compiled = compile_specs(config)
    if compiled.project is None:
        err.write(render_diagnostics(compiled.bag.sorted(), "text", compiled.sources) + "\n")
        return 1
    drift = live_drift(config, compiled.project, compiled.sources, timeout_s)
    golden_root = f"{config.relative(config.output)}/schemas"
    failed = print_drift(drift, fmt, out=out, err=err, golden_root=golden_root,
                         fail_on=fail_on, color=color)
    return 1 if failed else 0


def build_drift(config: Config, compiled: Any, fmt: str, *, out: TextIO, err: TextIO,
                color: bool = False) -> bool:
    """``toolc build --live``, after the build: report drift; whether it fails. A build
    answered by the no-op cache compiled nothing, and one that took components over
    compiled only the rest (``Compiled.taken``): the specs are compiled here then."""

    if compiled.project is None or compiled.taken is not None:
        compiled = compile_specs(config)
    if compiled.project is None:
        return True  # the build reported why already
    drift = live_drift(config, compiled.project, compiled.sources)
    return print_drift(drift, fmt if fmt in ("json", "github") else "text", out=out, err=err,
                       golden_root=f"{config.relative(config.output)}/schemas", color=color)
