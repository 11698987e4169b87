"""Pinning MCP servers' tools into a spec, from the request to the checked file: the
servers an :class:`ImportRequest` names are listed (live, a saved listing, or a client
configuration's: :mod:`.listing`, :mod:`.clientconfig`), their tools pinned into one
spec (:mod:`.pinning`) and written as YAML (:mod:`.yamlout`).

The spec is written to ``--out`` (default ``<first specs folder>/<module>.toolc.yaml``;
``-`` prints it) inside the project and through no link, then checked with the rest of
the project, and its diagnostics shown: errors in full, for what cannot be built as is
(a tool name outside the MCP rule, two servers of a config giving the same name); the
warnings about the servers' tools (what they leave undescribed, a draft-07 ``$schema``)
once, per server and rule with a count, and the line that silences them (later builds
fold them: :mod:`toolc.report.vendored`).
"""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import anyio

from ..config import Config, glob_problem
from ..diagnostics import RULES, Severity
from ..output.confine import project_target
from ..output.files import replace_file
from ..report.escaping import escape_controls
from ..report.render import render_diagnostics
from ..report.vendored import PinnedServer, fold
from .clientconfig import read_config
from .listing import ImportFailure, Listing, Server, list_live, read_saved
from .pinning import HEADER, identifier, manager_spec, pinned_tools, server_spec
from .yamlout import YamlWriteError, dump

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2
SPEC_SUFFIX = ".toolc.yaml"


@dataclass(slots=True)
class ImportRequest:
    """What the command line asked for (exactly one source; see ``check``)."""

    stdio: str | None = None
    http: str | None = None
    saved: str | None = None          # --from
    config_file: str | None = None    # --config
    module: str | None = None
    out: str | None = None
    env: Sequence[str] = ()
    headers: Sequence[str] = ()
    cwd: str | None = None
    force: bool = False
    timeout_s: float = 30.0
    warnings: list[str] = field(default_factory=list)

    def check(self) -> str | None:
        """Why the options do not go together, or None."""
        live = [o for o, v in (("--stdio", self.stdio), ("--http", self.http)) if v]
        if self.config_file and (live or self.saved):
            return "--config imports every server of the file; give it alone"
        if len(live) > 1:
            return "give one of --stdio and --http"
        if not live and not self.saved and not self.config_file:
            return "give --stdio COMMAND, --http URL, --from FILE or --config FILE"
        if self.saved and not live:
            return ("--from needs --stdio or --http too: the spec says how to reach the "
                    "server (it is not contacted)")
        if (self.env or self.cwd) and not self.stdio:
            return "--env and --cwd go with --stdio"
        if self.headers and not self.http:
            return "--header goes with --http"
        if self.module is not None and identifier(self.module) != self.module:
            return f"--module {self.module!r} is not a lower-case Python identifier"
        return None


def import_servers(config: Config, request: ImportRequest, *, out: TextIO = sys.stdout,
                   err: TextIO = sys.stderr) -> int:
    """List the servers ``request`` names, pin their tools, write the spec and check it;
    the exit code."""
    problem = request.check()
    if problem:
        err.write(f"error: {problem}\n")
        return EXIT_USAGE
    try:
        module, spec = build_spec(request)
        text = dump(spec, header=HEADER.format(what=_what(request)))
    except ImportFailure as exc:
        err.write(f"error: {exc}\n")
        return EXIT_ERRORS
    except YamlWriteError as exc:
        err.write(f"error: the tools cannot be written as a spec: {exc}\n")
        return EXIT_ERRORS
    err.writelines(f"warning: {warning}\n" for warning in request.warnings)
    if request.out == "-":
        out.write(text)
        return EXIT_OK
    target = Path(request.out) if request.out else _default_path(config, module)
    code = _write_spec(config, target, text, request.force, err)
    if code is not None:
        return code
    count = text.count("\n")
    out.write(f"wrote {config.relative(target)} ({count} lines, module {module})\n")
    return _check_written(config, target, out)


def _write_spec(config: Config, target: Path, text: str, force: bool, err: TextIO) -> int | None:
    """Write the spec inside the project, never through a link (a committed link at the
    target could point anywhere); the exit code if it is not written."""
    shown, problem = project_target(config.root, target)
    if problem is not None:
        err.write(f"error: {shown} {problem}; the spec was not written (give --out "
                  "elsewhere in the project, or --out - to print it)\n")
        return EXIT_USAGE
    if target.exists() and not force:
        err.write(f"error: {target} exists; give --force to replace it (or --out elsewhere)\n")
        return EXIT_ERRORS
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        replace_file(target, text.encode("utf-8"))
    except OSError as exc:
        err.write(f"error: {shown} cannot be written: {exc.strerror or exc}\n")
        return EXIT_ERRORS
    return None


def build_spec(request: ImportRequest) -> tuple[str, dict[str, Any]]:
    """The module name and the spec (as JSON data) the request makes."""

    if request.config_file:
        servers, warnings = read_config(request.config_file)
        request.warnings += warnings
        listings = [anyio.run(list_live, s, request.timeout_s) for s in servers]
        module = request.module or identifier(Path(request.config_file).stem, fallback="mcp")
        pinned = [(s, pinned_tools(li.tools, f"MCP server {s.name}"))
                  for s, li in zip(servers, listings, strict=True)]
        _warn_secrets(request, servers)
        return module, manager_spec(module, pinned, Path(request.config_file).name)
    server = _command_line_server(request)
    listing: Listing
    if request.saved:
        listing = read_saved(request.saved)
        where = request.saved
        guess = Path(request.saved).name.split(".")[0]
    else:
        listing = anyio.run(list_live, server, request.timeout_s)
        where = f"MCP server {server.describe()}"
        guess = listing.server_name or _guess(server)
    module = request.module or identifier(guess, fallback="mcp")
    _warn_secrets(request, [server])
    return module, server_spec(module, "server", server, pinned_tools(listing.tools, where))


def _command_line_server(request: ImportRequest) -> Server:
    if request.stdio is not None:
        try:
            words = shlex.split(request.stdio)
        except ValueError as exc:
            raise ImportFailure(f"--stdio {request.stdio!r}: {exc}") from None
        if not words:
            raise ImportFailure("--stdio needs a command")
        stdio: dict[str, Any] = {"command": words[0]}
        if words[1:]:
            stdio["args"] = words[1:]
        if request.env:
            stdio["env"] = _pairs(request.env, "--env")
        if request.cwd:
            stdio["cwd"] = request.cwd
        return Server("server", stdio=stdio)
    assert request.http is not None
    if not request.http.startswith(("http://", "https://")):
        raise ImportFailure(f"--http {request.http!r} is not an http:// or https:// URL")
    http: dict[str, Any] = {"url": request.http}
    if request.headers:
        http["headers"] = _pairs(request.headers, "--header")
    return Server("server", http=http)


def _pairs(items: Sequence[str], option: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ImportFailure(f"{option} {item!r}: expected NAME=VALUE")
        out[key] = value
    return out


def _guess(server: Server) -> str:
    """A module name from the server's address when it gives no name of its own."""
    if server.stdio is not None:
        words = [server.stdio["command"], *server.stdio.get("args", [])]
        last = str([w for w in words if not w.startswith("-")][-1])
        return last.rstrip("/").rsplit("/", 1)[-1].removesuffix(".py").removesuffix(".js")
    # lazy: urllib, only when this runs
    from urllib.parse import urlparse

    return urlparse(str(server.http["url"] if server.http else "")).hostname or "mcp"


def _what(request: ImportRequest) -> str:
    if request.config_file:
        return f"the MCP servers of {Path(request.config_file).name}"
    return "an MCP server"


def _warn_secrets(request: ImportRequest, servers: Sequence[Server]) -> None:
    for server in servers:
        values = (server.stdio or {}).get("env") or (server.http or {}).get("headers")
        if values:
            what = "environment" if server.stdio else "HTTP headers"
            request.warnings.append(f"the spec holds the {what} of MCP server {server.name} "
                                    f"({', '.join(values)}): keep secrets out of committed "
                                    "specs")


def _default_path(config: Config, module: str) -> Path:
    folder = next((p for p in config.specs if not p.is_file()), config.root / "specs")
    return folder / f"{module}{SPEC_SUFFIX}"


def _check_written(config: Config, target: Path, out: TextIO) -> int:
    """Compile the project with the new spec and show what it says about that spec: its
    own problems in full, the findings about the servers' pinned tools once, grouped by
    rule (later builds fold them into one line per server: toolc.report.vendored)."""
    # lazy: 12 more toolc module(s), only when this runs
    from ..frontend import compile_specs

    resolved = target.resolve()
    inside = any(resolved.is_relative_to(s.resolve()) for s in config.specs)
    compiled = compile_specs(config, () if inside else (*config.specs, target))
    shown = config.relative(target)
    mine = [d for d in compiled.bag.sorted() if d.span is None or d.span.path == shown]
    own, servers = fold(mine, compiled.sources)
    if own:
        out.write(render_diagnostics(own, "text", compiled.sources) + "\n")
    if servers:
        out.write(server_findings(shown, servers))
    errors = sum(1 for d in mine if d.severity is Severity.ERROR)
    warnings = len(mine) - errors
    if errors:
        out.write(f"{shown}: {errors} error(s), {warnings} warning(s): the spec is written as "
                  "the server publishes it; fix the errors above before building\n")
        return EXIT_ERRORS
    about = " about the server" if servers and not own else ""
    out.write(f"{shown}: ok" + (f", {warnings} warning(s){about}" if warnings else "") +
              "; `toolc build` writes its golden files\n")
    return EXIT_OK


def server_findings(spec: str, servers: Sequence[PinnedServer]) -> str:
    """What an import says once about the findings in the tools it pinned: per server,
    per rule with its count, then the ``[tool.toolc.per-file-severity]`` line that
    silences them (the spec is the servers', written by the import)."""
    lines = []
    for server in servers:
        lines.append(escape_controls(f"{server.span}: toolset '{server.toolset}' pins "
                                     f"{server.tools} tool(s); {len(server.findings)} "
                                     "finding(s) about the server's schemas, published as "
                                     "it gives them:"))
        lines += [f"  {count:>4} x {code} {RULES[code].name}: {RULES[code].purpose}"
                  for code, count in server.by_rule()]
    codes = sorted({d.code for server in servers for d in server.findings})
    silenced = ", ".join(f'{RULES[code].name} = "off"' for code in codes)
    glob = spec if glob_problem(spec) is None else Path(spec).name
    lines += [("  They are the server's to fix, not yours: later builds say them in one line "
               "per server, and `toolc validate --vendor` lists them with their places. To "
               "silence them, in pyproject.toml:"),
              "    [tool.toolc.per-file-severity]",
              escape_controls(f"    {json.dumps(glob, ensure_ascii=False)} = {{ {silenced} }}")]
    return "\n".join(lines) + "\n"
