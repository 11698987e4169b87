"""The ``toolc`` command: options only; behaviour lives in :mod:`toolc.commands` (one module per command)."""

from __future__ import annotations

import os
import sys
from typing import Any, NoReturn

import click

from . import __version__
from .serving.http import HttpOptions

_FORMATS = click.Choice(["text", "json", "github"])
_FAIL_ON = click.Choice(["error", "warning", "info", "never"])
_SECONDS = click.FloatRange(min=0, min_open=True, max=1e6)
_HTTP = HttpOptions()  # the defaults of `toolc serve --transport http`
_VENDOR_HELP = ("List the findings about imported MCP servers (in their pinned tools) in "
                "full; by default each server's are one line.")


def _color() -> bool:
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="toolc")
def main() -> None:
    """toolc: compile declarative tool specs into typed toolsets and certified MCP schemas."""


@main.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--format", "fmt", type=_FORMATS, default="text", show_default=True)
@click.option("--strict", is_flag=True, help="Fail on warnings too.")
@click.option("--vendor", is_flag=True, help=_VENDOR_HELP)
def validate(paths: tuple[str, ...], fmt: str, strict: bool, vendor: bool) -> None:
    """Check specs (default: the configured folder) and report every problem."""
    # lazy: loads pydantic, yaml
    from .commands.validate import validate as run

    sys.exit(run(paths, fmt=fmt, strict=strict, color=_color(), vendor=vendor))


@main.command()
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if generated/ would change.")
@click.option("--write", is_flag=True, help="Write even when CI is set (CI checks by default).")
@click.option("--certify/--no-certify", default=True, show_default=True,
              help="List the tools through a real MCP client and compare with the specs.")
@click.option("--format", "fmt", type=_FORMATS, default="text", show_default=True)
@click.option("--strict", is_flag=True, help="Fail on warnings too.")
@click.option("--live", is_flag=True,
              help="Also list the pinned MCP servers and report their drift.")
@click.option("--fail-on", type=_FAIL_ON, default=None,
              help="Exit 1 when a schema change at or above this severity is found "
                   "(a writing build still writes). Default: a writing build exits 0 on "
                   "changes; --check exits 1 on any.")
@click.option("--watch", is_flag=True,
              help="Stay running: build again on each save of a spec, schema, handler "
                   "or pyproject.toml (writes, even when CI is set); Ctrl-C ends.")
@click.option("--vendor", is_flag=True, help=_VENDOR_HELP)
def build(check: bool, write: bool, certify: bool, fmt: str, strict: bool, live: bool,
          fail_on: str | None, watch: bool, vendor: bool) -> None:
    """Validate, generate modules and golden schemas, certify, and show what changed
    (against the golden files the build replaces), apart from the diagnostics."""
    # lazy: loads pydantic, yaml
    from .commands.build import run_build

    if check and write:
        raise click.UsageError("--check and --write exclude each other")
    if watch:
        # lazy: functools, only when this runs
        from functools import partial

        # lazy: loads pydantic, yaml
        from .commands.watch import watch_build

        sys.exit(watch_build(partial(run_build, check=check, write=not check, certify=certify,
                                     fmt=fmt, strict=strict, color=_color(), live=live,
                                     fail_on=fail_on, vendor=vendor)))
    sys.exit(run_build(check=check, write=write, certify=certify, fmt=fmt, strict=strict,
                       color=_color(), progress=sys.stderr.isatty(), live=live,
                       fail_on=fail_on, vendor=vendor))


@main.command("fmt")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--check", is_flag=True,
              help="Write nothing; exit 1 and list the specs that would change.")
@click.option("--diff", is_flag=True, help="With --check (implied): show how, as a unified diff.")
def fmt_(paths: tuple[str, ...], check: bool, diff: bool) -> None:
    """Write specs (default: the configured folder's) in the canonical layout: key order,
    indentation, flow or block by length, quotes only where YAML needs them; comments and
    meaning kept."""
    # lazy: loads yaml, 10 more toolc modules, only when this runs
    from .commands.fmt import run_fmt

    sys.exit(run_fmt(paths, check=check, diff=diff, color=_color()))


@main.command()
@click.option("--module", "module", metavar="NAME", help="Only the handlers of this spec module.")
@click.option("--write", is_flag=True,
              help="Append them to their modules (created when missing) instead of printing.")
def stubs(module: str | None, write: bool) -> None:
    """Print the handler functions the specs name that do not exist yet (TC340, TC341),
    each with its tool's Protocol signature and description; --write adds them."""
    # lazy: loads pydantic, yaml, jinja2, only when this runs
    from .commands.stubs import run_stubs

    sys.exit(run_stubs(module, write=write, color=_color()))


@main.command()
def lsp() -> None:
    """Run the language server for specs over stdio (for an editor: docs/editors.md)."""
    # lazy: the server's modules, pygls and lsprotocol
    from .commands.lsp import run_lsp

    sys.exit(run_lsp())


@main.command()
def schema() -> None:
    """Print the JSON Schema of the spec format (for yaml-language-server)."""
    # lazy: loads pydantic, yaml
    from .commands.validate import print_schema

    sys.exit(print_schema())


@main.command()
@click.option("--force", is_flag=True, help="Overwrite existing files.")
@click.option("--module", "module", metavar="NAME",
              help="The module's name (default: [project].name, else the folder's).")
def init(force: bool, module: str | None) -> None:
    """Write a starter spec, its handlers, a test and configuration in the current folder:
    [tool.toolc], a mypy configuration that checks the handlers against generated/,
    pytest's, and .toolc-cache/ in .gitignore."""
    # lazy: 2 more toolc module(s), only when this runs
    from .commands.init import init_project

    sys.exit(init_project(force=force, module=module))


@main.command("check-handlers")
def check_handlers() -> None:
    """Run mypy over generated/ and the handlers it imports; report each handler that does
    not fit its tool at the handler's own line (needs mypy: pip install 'toolc[dev]')."""
    # lazy: 2 more toolc module(s), only when this runs
    from .commands.check_handlers import check_handlers as run_check

    sys.exit(run_check())


@main.command()
@click.argument("old", required=False, type=click.Path(exists=True, file_okay=False))
@click.argument("new", required=False, type=click.Path(exists=True, file_okay=False))
@click.option("--against", metavar="GIT_REF",
              help="Read OLD golden files from this git ref instead of a folder.")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json", "github"]),
              default="text", show_default=True)
@click.option("--fail-on", type=_FAIL_ON, default=None,
              help="Exit 1 when a change at or above this severity is found. Default: "
                   "[tool.toolc.diff] fail_on, else error.")
@click.option("--live", is_flag=True,
              help="Compare the pinned MCP servers' tools with what they publish now.")
@click.option("--link-base", metavar="URL", default="",
              help="markdown: link spec lines under this http(s) URL (https://github.com/"
                   "ORG/REPO/blob/SHA/); default: links relative to the repository root.")
def diff(old: str | None, new: str | None, against: str | None, fmt: str, fail_on: str,
         live: bool, link_base: str) -> None:
    """Classify the changes between two sets of published tools.

    OLD defaults to the committed golden files (HEAD's) in a git repository, else to
    those in the output folder (stderr says which); --against GIT_REF names another
    commit. NEW defaults to what a build of the specs would publish now. With --live:
    what the specs pin against what their MCP servers publish now.

    Exit 0: no change at or above --fail-on; 1: such a change (or specs with errors);
    2: the comparison could not be made (usage, unknown ref, unreadable golden file).
    """
    # lazy: 7 more toolc module(s), only when this runs
    from .commands.diff import run_diff

    sys.exit(run_diff(old, new, against=against, fmt=fmt, fail_on=fail_on, color=_color(),
                      live=live, link_base=link_base))


@main.command()
@click.argument("target", metavar="SPEC_OR_MODULE")
@click.option("--toolset", "toolset_name", metavar="NAME",
              help="Serve this toolset, as the spec declares it, instead of the export.")
@click.option("--transport", type=click.Choice(["stdio", "http"]), default="stdio",
              show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Bind address; anything but loopback needs --allow-remote.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option("--allow-remote", is_flag=True,
              help="Allow a non-loopback --host (no authentication: anyone who reaches "
                   "the port can call every tool).")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME[:PORT|:*]",
              help="Also accept this Host header (repeatable). Default: the bind "
                   "address's names, bare or with --port.")
@click.option("--allow-origin", "allow_origins", multiple=True, metavar="URL",
              help="Also accept this browser Origin, scheme://host[:port] (repeatable). "
                   "Default: http://NAME:PORT for the bind address's names.")
@click.option("--max-sessions", type=click.IntRange(min=1), default=_HTTP.max_sessions,
              show_default=True, help="Open sessions at most; a new one closes the one idle "
                                      "longest.")
@click.option("--session-idle-timeout", type=_SECONDS, metavar="SECONDS",
              default=_HTTP.session_idle_timeout, show_default=True,
              help="Close a session without requests for this long.")
@click.option("--header-timeout", type=_SECONDS, metavar="SECONDS",
              default=_HTTP.header_timeout, show_default=True,
              help="Close a connection whose request headers take longer.")
@click.option("--body-timeout", type=_SECONDS, metavar="SECONDS",
              default=_HTTP.body_timeout, show_default=True,
              help="Close a connection whose request body takes longer after its headers.")
@click.option("--max-body-size", type=click.IntRange(min=1), metavar="BYTES",
              default=_HTTP.max_body_size, show_default=True,
              help="Refuse larger request bodies (413).")
@click.option("--expose-errors", is_flag=True,
              help="Send a tool's unexpected exceptions to the client as they are (default: "
                   "'internal error in tool X (ref N)', the details in the server's log).")
@click.option("--pinned", is_flag=True,
              help="Pinned MCP servers list their pinned tools (calls still go to them).")
@click.option("--deps", metavar="MODULE:FACTORY",
              help="Called per client session; its value is the deps predicates and "
                   "handlers receive (default: [tool.toolc] serve-deps).")
@click.option("--reload", is_flag=True,
              help="Serve the spec (or generated module) anew after each save and send "
                   "clients tools/list_changed; handlers need a restart.")
@click.option("--page-size", type=click.IntRange(min=1), metavar="N",
              help="Tools per tools/list page; clients follow the cursors (default: the "
                   "runtime's, 100).")
@click.option("--stateless", is_flag=True,
              help="HTTP: answer each request on its own (no sessions, JSON responses), so "
                   "any replica behind a balancer answers any request (docs/deploy.md).")
@click.option("--state-key-file", metavar="FILE",
              help="Sign what spans requests (approval questions) with the keys in FILE, "
                   "one per line, the first signing; replicas share it. Default: "
                   "$TOOLC_STATE_KEY, else a key of this process.")
@click.option("--public-url", metavar="URL",
              help="Where clients reach /mcp (behind a balancer, its URL): the resource "
                   "tokens are issued for; its host is accepted in Host.")
@click.option("--auth", metavar="MODULE:FACTORY",
              help="Require a bearer token on /mcp, checked by the token verifier "
                   "(mcp.server.auth TokenVerifier) that FACTORY returns.")
@click.option("--auth-issuer", metavar="URL",
              help="With --auth: the authorization server that issues the tokens (named "
                   "in /.well-known/oauth-protected-resource).")
@click.option("--auth-scope", "auth_scopes", multiple=True, metavar="SCOPE",
              help="With --auth: a scope every token must have (repeatable).")
def serve(target: str, toolset_name: str | None, transport: str, pinned: bool,
          expose_errors: bool, deps: str | None, reload: bool, page_size: int | None,
          **http: Any) -> None:
    """Serve a compiled toolset over MCP (stdio, or streamable HTTP at /mcp).

    SPEC_OR_MODULE is one of:

    \b
      specs/x.toolc.yaml  a spec file, compiled in memory (what it says now); its
                          project is the nearest pyproject.toml with [tool.toolc]
                          above it, so it is served from any folder
      x                   the generated module of spec module x (generated/x.py),
                          before any package named x
      generated.x         a module by its dotted name, from the python-path

    --toolset NAME serves a toolset the spec declares (default: the export).

    Over HTTP each request's Host and Origin must be allowed (the bind address's names,
    --allow-host, --allow-origin), and sessions, request reads and bodies are bounded,
    so that neither a web page (DNS rebinding) nor one client can take the server over.
    GET /healthz answers 200 once the toolset is served.
    """
    # lazy: 7 more toolc module(s), only when this runs
    from .commands.serve import run_serve

    sys.exit(run_serve(target, toolset_name=toolset_name, transport=transport,
                       http=HttpOptions(**http), pinned=pinned, expose_errors=expose_errors,
                       deps=deps, reload=reload, page_size=page_size))


@main.command("call")
@click.argument("target", metavar="SPEC_OR_MODULE")
@click.argument("tool", required=False)
@click.argument("words", nargs=-1, metavar="[key=value | key:=JSON]...")
@click.option("--args", "args_json", metavar="JSON",
              help="The arguments as one JSON object; key=value words go over it.")
@click.option("--list", "list_tools", is_flag=True,
              help="List what the target exports, each tool with its token cost.")
@click.option("--toolset", "toolset_name", metavar="NAME",
              help="Call a toolset the spec declares instead of the export.")
@click.option("--deps", metavar="MODULE:FACTORY",
              help="Makes the deps predicates and handlers receive (default: "
                   "[tool.toolc] serve-deps).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@click.option("--yes", "-y", is_flag=True,
              help="Approve a tool that asks for approval, without asking.")
def call_(target: str, tool: str | None, words: tuple[str, ...], args_json: str | None,
          list_tools: bool, toolset_name: str | None, deps: str | None, fmt: str,
          yes: bool) -> None:
    """Call a tool as an MCP client would: served as `toolc serve` serves it, through a
    real MCP client in process.

    SPEC_OR_MODULE is what `toolc serve` takes. key=value words are typed by the tool's
    published schema (lines=5 is a number where lines is an integer); arrays, objects
    and null are JSON: tags:='["a", "b"]'. Arguments the published schema refuses are said
    at their JSON pointer and not sent; a tool that requires approval asks on the
    terminal (y/n).

    Exit 0: a result; 1: an error result (isError); 2: a usage error.
    """
    # lazy: loads mcp and the served target's modules, only when this runs
    from .commands.call import run_call

    sys.exit(run_call(target, tool, words, args_json=args_json, list_tools=list_tools,
                      deps=deps, toolset_name=toolset_name, fmt=fmt, yes=yes))


@main.command("import")
@click.option("--stdio", metavar="COMMAND", help='Run the server: "COMMAND ARGS..." (one string).')
@click.option("--http", metavar="URL", help="The server's streamable HTTP endpoint.")
@click.option("--from", "saved", metavar="FILE", type=click.Path(dir_okay=False),
              help="Read a saved tools/list result instead of listing the server.")
@click.option("--config", "config_file", metavar="FILE", type=click.Path(dir_okay=False),
              help='Import every server of an MCP client config ({"mcpServers": ...}).')
@click.option("--module", metavar="NAME", help="The spec's module name (default: the server's).")
@click.option("--out", "out_path", metavar="PATH", help="Where to write the spec (- prints it).")
@click.option("--env", multiple=True, metavar="NAME=VALUE", help="Environment of a --stdio server.")
@click.option("--cwd", metavar="DIR", help="Working folder of a --stdio server.")
@click.option("--header", "headers", multiple=True, metavar="NAME=VALUE",
              help="HTTP header for an --http server.")
@click.option("--force", is_flag=True, help="Replace an existing spec.")
@click.option("--timeout", "timeout_s", type=click.FloatRange(min=0, min_open=True),
              default=30.0, show_default=True, help="Seconds to wait for each server.")
def import_(stdio: str | None, http: str | None, saved: str | None, config_file: str | None,
            module: str | None, out_path: str | None, env: tuple[str, ...], cwd: str | None,
            headers: tuple[str, ...], force: bool, timeout_s: float) -> None:
    """Pin the tools of MCP servers into a spec, so builds publish and diff them."""
    # lazy: 7 more toolc module(s), only when this runs
    from .commands.import_specs import run_import

    sys.exit(run_import(stdio=stdio, http=http, saved=saved, config_file=config_file,
                        module=module, out_path=out_path, env=env, headers=headers, cwd=cwd,
                        force=force, timeout_s=timeout_s))


def run() -> None:
    """The ``toolc`` program: the commands above, then :func:`quick_exit`. Under a
    profiler or a coverage tracer, which report after the program, it ends as usual."""
    try:
        main()
        code = 0
    except SystemExit as stop:
        if _observed():
            raise
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
        if isinstance(stop.code, str):
            print(stop.code, file=sys.stderr)
    if not _observed():
        quick_exit(code)


def _observed() -> bool:
    return sys.gettrace() is not None or sys.getprofile() is not None


def quick_exit(code: int) -> NoReturn:
    """End the process with ``code`` without tearing down the interpreter: toolc's one
    way out that skips it (a forked helper's ``os._exit`` is something else: it must not
    run its parent's exit functions at all).

    Why: a build leaves millions of objects (specs, IR, generated text) whose
    one-by-one deallocation at exit is a measurable part of a build (bench/RESULTS.md,
    "Costs behind the code"). Everything that must happen has happened by then (files committed,
    processes stopped), so only what an orderly exit does that anyone can see is kept:
    the functions registered with :mod:`atexit` run (logging's flush, among others;
    through CPython's ``atexit._run_exitfuncs``, the interpreter's own step, private but
    present since Python 3.0; without it, ``logging.shutdown``), the standard streams are
    flushed (a closed pipe turns a success into exit code 1, as Python's own exit does),
    then ``os._exit``."""
    # lazy: atexit, only when this runs
    import atexit

    run_exit_functions = getattr(atexit, "_run_exitfuncs", None)
    if run_exit_functions is not None:
        run_exit_functions()
    else:  # another interpreter: at least what logging buffered
        # lazy: logging, only on this path
        import logging

        logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing more can be said
            code = code or 1
    os._exit(code)
