"""``[tool.toolc]`` in pyproject.toml: where specs are, where output goes, rule severities.

```toml
[tool.toolc]
specs = "specs"              # a folder searched for *.toolc.yaml, or a list of folders/files
output = "generated"         # generated modules and golden schemas
python-path = ["examples"]   # put on sys.path for `toolc serve` (handlers live there)
format = "annotate"          # `format` keywords: "annotate" (JSON Schema's default) or "assert"
token-budget = 15000         # warn when an export loads more tokens upfront (TC512)
tool-budget = 40             # ... or more tools (TC513)
tool-search = false          # whether clients defer MCP tools; default: the clients' own
clients = ["claude", "openai"]   # names are checked as these clients see them
targets = ["openai-strict"]      # model APIs every export is checked for (default: none)
# server-name = "desk"       # the server name clients give (Claude: mcp__desk__<tool>),
                             # or a table {module = "name"}; default: the module's name
serve-deps = "app.deps:make" # `toolc serve`: called per client session for the RunContext deps

[tool.toolc.severity]        # per rule, by code or name: "off" | "warning" | "error"
TC201 = "warning"
unportable-name = "off"

[tool.toolc.per-file-severity]   # per spec file (globs on its project-relative path, or
                                 # on its name alone), as ruff's per-file-ignores:
"specs/vendor/*.toolc.yaml" = { TC201 = "off", unportable-name = "info" }

[tool.toolc.diff]            # schema-diff policy, see docs/diff.md
severity = { FORMAT_ADDED = "info" }
accept = [{ tool = "wb_readLog", rule = "PROPERTY_REMOVED", reason = "..." }]
```

Every key is checked: a misspelt one is an error, as in specs. A file's severity wins
over the project's; where several globs match a file, the last one given wins.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .diagnostics import RULES, DiagnosticBag, Severity, Span, SpecError, fail
from .untrusted import FileRefused, read_untrusted

_KNOWN = ("specs", "output", "python-path", "format", "severity", "per-file-severity", "diff",
          "token-budget", "tool-budget", "tool-search", "clients", "server-name", "serve-deps",
          "targets")


@dataclass(frozen=True, slots=True)
class ClientProfile:
    """What toolc assumes of a client it writes for (``[tool.toolc] clients``). How it
    names tools is checked in ``checks/clients.py``; this is what it loads upfront."""

    tool_search: bool   # defers MCP tools by default, loading only the always-load ones
    why: str            # what ``tool_search`` rests on, for the budget's notes


CLIENT_PROFILES = {
    # Claude Code, and the Agent SDK that runs it, defer MCP tools by default (MCP Tool
    # Search; docs/spec-format.md "Tool search" gives the sources).
    "claude": ClientProfile(True, "defers MCP tools (tool search) by default"),
    # OpenAI's APIs send every function tool with each request unless the caller opts
    # into deferred loading: the safe assumption is all of them.
    "openai": ClientProfile(False, "loads every tool upfront"),
}
CLIENTS = tuple(CLIENT_PROFILES)
# The provider dialects (toolc.runtime.dialects.TARGETS; tests/test_config.py holds them
# equal): listed here so that reading the configuration imports no table.
TARGET_NAMES = ("openai-strict", "anthropic-strict", "gemini")
# A server name as a client config's key can give it and Claude's tool names can hold it.
SERVER_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
# The budget's defaults, from Anthropic's tool-search figures: fifty tools cost 10-20k
# tokens upfront, and tool selection degrades past 30-50 loaded tools.
TOKEN_BUDGET = 15000
PYPROJECT_BYTES = 10 * 1024 * 1024  # as a spec (TC002)
TOOL_BUDGET = 40
FORMAT_MODES = ("annotate", "assert")
_NAMES = {rule.name: code for code, rule in RULES.items()}


@dataclass(frozen=True, slots=True)
class Config:
    root: Path                                  # the folder holding pyproject.toml (or cwd)
    specs: tuple[Path, ...] = ()
    output: Path = Path("generated")
    python_path: tuple[Path, ...] = ()
    severities: dict[str, Severity] = field(default_factory=dict)
    diff: dict[str, Any] = field(default_factory=dict)
    format: str = "annotate"                    # `format` keywords: annotate or assert
    token_budget: int = TOKEN_BUDGET            # upfront tokens per export (TC512)
    tool_budget: int = TOOL_BUDGET              # upfront tools per export (TC513)
    tool_search: bool | None = None             # `tool-search`; None: the clients' default
    clients: tuple[str, ...] = CLIENTS          # client profiles names are checked for
    targets: tuple[str, ...] = ()               # provider dialects exports are checked for
    server_name: str | None = None              # every module's server name, if given
    server_names: dict[str, str] = field(default_factory=dict)  # per module
    source: Path | None = None                  # the pyproject.toml read, if any
    serve_deps: str | None = None               # `module:factory` of `toolc serve`'s deps
    project_version: str | None = None          # `[project] version`: a served spec's default
    # (glob, {code: severity}) in the order given: per spec file, over `severities`
    per_file_severities: tuple[tuple[str, dict[str, Severity]], ...] = ()

    def bag(self) -> DiagnosticBag:
        """An empty bag that applies the configured severities, project-wide and per file."""
        return DiagnosticBag(severities=dict(self.severities),
                             per_file=self.per_file_severities)

    def searches(self) -> bool:
        """Whether clients defer the tools that are not marked always-load: `tool-search`
        when the project says, else whether every client in `clients` does by default
        (one client that loads every tool upfront is what the budget must hold for)."""
        if self.tool_search is not None:
            return self.tool_search
        return bool(self.clients) and all(CLIENT_PROFILES[c].tool_search
                                          for c in self.clients)

    def search_source(self) -> str:
        """The setting :meth:`searches` follows, as the project wrote it (or defaulted it)."""
        if self.tool_search is not None:
            return f"tool-search = {str(self.tool_search).lower()}"
        return "clients = [" + ", ".join(f'"{c}"' for c in self.clients) + "]"

    def loads_all(self) -> tuple[str, ...]:
        """The configured clients that load every tool upfront by default."""
        return tuple(c for c in self.clients if not CLIENT_PROFILES[c].tool_search)

    def gate_rules(self) -> GateRules:
        """The rules this checkout gives a gate (a pull request's, when it is one)."""
        return GateRules(self.relative(self.output), dict(self.severities),
                         self.per_file_severities, self.diff)

    def judged_by(self, rules: GateRules) -> Config:
        """This project with another branch's diagnostic severities (the base's)."""
        return replace(self, severities=dict(rules.severities),
                       per_file_severities=rules.per_file)

    def relative(self, path: Path) -> str:
        """How diagnostics show a path: relative to the project root when inside it."""
        try:
            return path.resolve().relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return str(path)


@dataclass(frozen=True, slots=True)
class GateRules:
    """What a gate judges a pull request by, which only the base branch decides
    (docs/security.md): where its golden files are, the diagnostics' severities (per
    rule and per spec file) and ``[tool.toolc.diff]`` (whose acceptances stay the pull
    request's to write)."""

    output: str = "generated"   # relative to the project, ``/``-separated
    severities: dict[str, Severity] = field(default_factory=dict)
    per_file: tuple[tuple[str, dict[str, Severity]], ...] = ()
    diff: dict[str, Any] = field(default_factory=dict)


def gate_rules_of(text: str, shown: str) -> GateRules:
    """The gate's rules in a pyproject.toml's text read from another commit (``shown``
    names it in errors). Nothing is resolved on this machine's disk: the output must be
    a plain relative path. Raises ValueError saying what is wrong."""
    try:
        tools = tomllib.loads(text).get("tool", {})
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"not valid TOML: {exc}") from None
    where = _Locator(shown, text)
    try:
        table = tools.get("toolc", {}) if isinstance(tools, dict) else None
        if not isinstance(table, dict):
            fail("TC901", "[tool.toolc] is not a table", where("toolc"))
        output = table.get("output", "generated")
        parts = [p for p in output.split("/") if p not in ("", ".")] \
            if isinstance(output, str) and not glob_problem(output) else []
        if not parts:
            fail("TC901", f"[tool.toolc] output {output!r} is not a folder inside the "
                 "project", where("output"))
        diff = table.get("diff", {})
        if not isinstance(diff, dict):
            fail("TC901", "[tool.toolc.diff] is not a table", where("diff"))
        return GateRules("/".join(parts), _severities(table.get("severity", {}), where),
                         _per_file(table.get("per-file-severity", {}), where), diff)
    except SpecError as exc:
        raise ValueError(str(exc)) from None


def find_pyproject(start: Path) -> Path | None:
    for folder in (start, *start.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def load_config(start: Path | None = None) -> Config:
    """Read ``[tool.toolc]`` from the nearest pyproject.toml at or above ``start``."""
    start = (start or Path.cwd()).resolve()
    pyproject = find_pyproject(start)
    if pyproject is None:
        return Config(root=start, specs=(start / "specs",), output=start / "generated")
    shown = str(pyproject)
    try:  # it may come from a pull request: a regular file (a link followed), bounded
        text = read_untrusted(pyproject, PYPROJECT_BYTES, follow=True).decode("utf-8")
    except (FileRefused, UnicodeDecodeError) as exc:
        why = exc.why if isinstance(exc, FileRefused) else "is not UTF-8 text"
        fail("TC901", f"pyproject.toml {why}", Span(shown, 1, 1))
    except OSError as exc:
        fail("TC901", f"pyproject.toml cannot be read: {exc.strerror or exc}", Span(shown, 1, 1))
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        fail("TC901", f"pyproject.toml is not valid TOML: {exc}", Span(shown, 1, 1))
    table = data.get("tool", {}).get("toolc", {})
    config = _from_table(table, pyproject.parent, pyproject, text)
    return replace(config, project_version=_project_version(data))


def _project_version(data: dict[str, Any]) -> str | None:
    """``[project] version`` when it is a plain string (a dynamic one is not read here)."""
    project = data.get("project")
    version = project.get("version") if isinstance(project, dict) else None
    return version if isinstance(version, str) and version.strip() else None


def _from_table(table: Any, root: Path, source: Path, text: str) -> Config:
    where = _Locator(str(source), text)
    if not isinstance(table, dict):
        fail("TC901", "[tool.toolc] must be a table", where("toolc"))
    for key in table:
        if key not in _KNOWN:
            close = difflib.get_close_matches(key, _KNOWN, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            fail("TC901", f"unknown key '{key}' in [tool.toolc]{hint}", where(key))
    specs = table.get("specs", "specs")
    specs_list = [specs] if isinstance(specs, str) else specs
    if not isinstance(specs_list, list) or not all(isinstance(s, str) for s in specs_list):
        fail("TC901", "[tool.toolc] specs must be a path or a list of paths", where("specs"))
    output = table.get("output", "generated")
    if not isinstance(output, str):
        fail("TC901", "[tool.toolc] output must be a path", where("output"))
    pypath = table.get("python-path", [])
    if not isinstance(pypath, list) or not all(isinstance(p, str) for p in pypath):
        fail("TC901", "[tool.toolc] python-path must be a list of paths", where("python-path"))
    diff = table.get("diff", {})
    if not isinstance(diff, dict):
        fail("TC901", "[tool.toolc.diff] must be a table", where("diff"))
    formats = table.get("format", "annotate")
    if formats not in FORMAT_MODES:
        fail("TC901", '[tool.toolc] format must be "annotate" or "assert"', where("format"))
    token_budget = _count(table, "token-budget", TOKEN_BUDGET, where)
    tool_budget = _count(table, "tool-budget", TOOL_BUDGET, where)
    tool_search = table.get("tool-search")
    if tool_search is not None and not isinstance(tool_search, bool):
        fail("TC901", "[tool.toolc] tool-search must be true or false", where("tool-search"))
    clients = _clients(table.get("clients", list(CLIENTS)), where)
    targets = _names(table.get("targets", []), "targets", TARGET_NAMES, where)
    server_name, server_names = _server_names(table.get("server-name"), where)
    for spec in specs_list:
        _inside_project(root, spec, "specs", where, allow_root=True)
    _inside_project(root, output, "output", where, allow_root=False)
    serve_deps = table.get("serve-deps")
    if serve_deps is not None and not _is_reference(serve_deps):
        fail("TC901", '[tool.toolc] serve-deps must be "package.module:factory"',
             where("serve-deps"))
    return Config(
        root=root,
        specs=tuple(root / s for s in specs_list),
        output=root / output,
        python_path=tuple(root / p for p in pypath),
        severities=_severities(table.get("severity", {}), where),
        diff=diff,
        format=formats,
        token_budget=token_budget,
        tool_budget=tool_budget,
        tool_search=tool_search,
        clients=clients,
        targets=targets,
        server_name=server_name,
        server_names=server_names,
        source=source,
        serve_deps=serve_deps,
        per_file_severities=_per_file(table.get("per-file-severity", {}), where),
    )


def _clients(value: Any, where: _Locator) -> tuple[str, ...]:
    return _names(value, "clients", CLIENTS, where)


def _names(value: Any, key: str, known: tuple[str, ...], where: _Locator) -> tuple[str, ...]:
    """A list of names from ``known`` (``clients``, ``targets``), each once."""
    what = key.removesuffix("s")
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        fail("TC901", f"[tool.toolc] {key} must be a list of {what} names", where(key))
    for name in value:
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            fail("TC901", f"unknown {what} '{name}' in [tool.toolc] {key}{hint}; known: "
                 + ", ".join(known), where(key))
    return tuple(dict.fromkeys(value))


def _server_names(value: Any, where: _Locator) -> tuple[str | None, dict[str, str]]:
    """``server-name``: one name for every module, or a table module -> name."""
    if value is None:
        return None, {}
    names = value if isinstance(value, dict) else {"": value}
    for module, name in names.items():
        shown = f"server-name of module '{module}'" if module else "server-name"
        if not isinstance(name, str) or not SERVER_NAME.fullmatch(name):
            fail("TC901", f"[tool.toolc] {shown} must be 1-64 of A-Z a-z 0-9 _ -",
                 where("server-name"))
        if "__" in name:
            fail("TC901", f"[tool.toolc] {shown} '{name}' has `__`, which makes Claude's "
                 f"mcp__{name}__<tool> names ambiguous", where("server-name"))
    if isinstance(value, dict):
        return None, dict(names)
    return value, {}


def _count(table: dict[str, Any], key: str, default: int, where: _Locator) -> int:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        fail("TC901", f"[tool.toolc] {key} must be a whole number, 0 or more", where(key))
    return value


def _is_reference(value: Any) -> bool:
    """`package.module:attr.path`, checked without importing anything."""
    if not isinstance(value, str):
        return False
    module, sep, attr = value.partition(":")
    return bool(sep) and all(p.isidentifier() for p in (*module.split("."), *attr.split(".")))


def _inside_project(root: Path, value: str, key: str, where: _Locator, *,
                    allow_root: bool) -> None:
    """TC902: ``specs`` and ``output`` lie inside the project, links resolved: a build
    reads and writes there only (the output is never the project itself)."""
    real_root = root.resolve()
    target = (root / value).resolve()
    if not target.is_relative_to(real_root):
        fail("TC902", f"[tool.toolc] {key} '{value}' is outside the project ({target}); "
             f"it must be a path inside {real_root}", where(key))
    if target == real_root and not allow_root:
        fail("TC902", f"[tool.toolc] {key} '{value}' is the project folder itself; it must "
             "be a folder inside it (toolc owns what is in it)", where(key))


def _severities(table: Any, where: _Locator, *, section: str = "[tool.toolc.severity]",
                at: str | None = None, info: bool = False) -> dict[str, Severity]:
    """A table rule -> severity; ``at``: the key diagnostics point at (default: the rule's)."""
    if not isinstance(table, dict):
        fail("TC901", f"{section} must be a table", where(at or "severity"))
    out: dict[str, Severity] = {}
    allowed = '"off", "info", "warning" or "error"' if info else '"off", "warning" or "error"'
    for key, value in table.items():
        code = key if key in RULES else _NAMES.get(key)
        if code is None:
            known = list(RULES) + list(_NAMES)
            close = difflib.get_close_matches(key, known, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            fail("TC901", f"unknown rule '{key}' in {section}{hint}", where(at or key))
        try:
            sev = Severity.parse(value) if isinstance(value, str) else None
        except ValueError:
            sev = None
        if sev is None or (sev is Severity.INFO and not info):
            fail("TC901", f"severity of '{key}' in {section} must be {allowed}",
                 where(at or key))
        out[code] = sev
    return out


def _per_file(table: Any, where: _Locator) -> tuple[tuple[str, dict[str, Severity]], ...]:
    """``[tool.toolc.per-file-severity]``: glob -> {rule: severity}, in the order given."""
    if not isinstance(table, dict):
        fail("TC901", "[tool.toolc.per-file-severity] must be a table of globs",
             where("per-file-severity"))
    out: list[tuple[str, dict[str, Severity]]] = []
    for glob, rules in table.items():
        problem = glob_problem(glob)
        if problem is not None:
            fail("TC901", f"per-file-severity glob {glob!r} {problem}", where(glob))
        if not isinstance(rules, dict):
            fail("TC901", f"per-file-severity of {glob!r} must be a table "
                 '{rule = "off" | "info" | "warning" | "error"}', where(glob))
        section = f"[tool.toolc.per-file-severity] {glob!r}"
        out.append((glob, _severities(rules, where, section=section, at=glob, info=True)))
    return tuple(out)


def glob_problem(glob: str) -> str | None:
    """Why a glob can match no spec path as diagnostics show them, or None."""
    if not glob.strip():
        return "is empty"
    if glob.startswith("/") or re.match(r"[A-Za-z]:", glob) or "\\" in glob:
        return "must be a project-relative path with `/` (specs are matched as shown)"
    if ".." in glob.split("/"):
        return "has `..`: specs are matched by their path inside the project"
    return None


class _Locator:
    """tomllib keeps no positions, so a key is found again in the text to point at it."""

    def __init__(self, path: str, text: str):
        self.path, self.lines = path, text.splitlines()

    def __call__(self, key: str) -> Span:
        start = next((i for i, ln in enumerate(self.lines)
                      if ln.strip() == "[tool.toolc]" or ln.startswith("[tool.toolc.")), 0)
        prefixes = (key, f'"{key}"') if key else ('""', "''")  # a glob may be any string
        for i in range(start, len(self.lines)):
            stripped = self.lines[i].lstrip()
            if stripped.startswith(prefixes):
                col = len(self.lines[i]) - len(stripped) + 1
                return Span(self.path, i + 1, col, len(key))
        return Span(self.path, start + 1, 1)
