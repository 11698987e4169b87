"""One toolc project for a batch of keyword files, built with the real `toolc build`.

Each keyword file is one spec (one module); each group of it one tool `g<index>` with one
parameter `x`. The line range of every tool in its spec is remembered, so that each
diagnostic of a refused build names the group it is about. A build refuses everything
when one group is wrong, so the groups a build refused are taken out and the rest built
again, until the build succeeds (usually two or three rounds for the whole suite).
"""

from __future__ import annotations

import json
import keyword
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from suite import Group, KeywordFile
from translate import Translation, translate

OUTPUT = "conformance_generated"
HANDLERS = "conformance_handlers"
MAX_ROUNDS = 8
MAX_REOPEN = 2

_PYPROJECT = f"""\
[tool.toolc]
specs = "specs"
output = "{OUTPUT}"
python-path = ["."]

[tool.toolc.severity]
# the suite's schemas have no descriptions; they must not block a build
missing-description = "off"
unportable-name = "off"
# the suite's enum and const values test strings with a NUL in them: the runtime's
# agreement is what is measured, not what a description should say
invisible-character = "off"
"""

HANDLER_SOURCE = '''\
"""The one handler of every conformance tool: records what it received, returns it."""

from typing import Any

CALLS: list[Any] = []


def plain(value: Any) -> Any:
    """What the handler received, as JSON data (a model as its fields that were set)."""
    from pydantic import BaseModel

    if isinstance(value, BaseModel):
        out = {}
        for name, info in type(value).model_fields.items():
            if name in value.model_fields_set:
                alias = info.validation_alias if isinstance(info.validation_alias, str) else None
                out[alias or info.alias or name] = plain(getattr(value, name))
        for name, item in (value.__pydantic_extra__ or {}).items():
            out[name] = plain(item)
        return out
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return {"<not JSON>": f"{type(value).__name__}: {value!r}"}


async def record(ctx: Any, **params: Any) -> dict[str, Any]:
    received = {name: plain(value) for name, value in params.items()}
    CALLS.append(received)
    return {"received": received}
'''


@dataclass
class GroupState:
    file: str
    group: Group
    tool: str
    translation: Translation
    lines: tuple[int, int] = (0, 0)     # first and last line of its tool in the spec
    status: str = "pending"             # built | refused | unexpressible
    diagnostics: list[dict[str, Any]] = field(default_factory=list)
    reason: str = ""
    published: Any = None               # the listed schema of `x`, once served


@dataclass
class ModuleState:
    file: KeywordFile
    module: str
    groups: list[GroupState]

    @property
    def spec_name(self) -> str:
        return f"specs/{self.module}.toolc.yaml"


# Names a module must not take: what generated code imports (toolc refuses them, TC315).
_TAKEN = frozenset({OUTPUT, HANDLERS, "toolc", "pydantic", "pydantic_core", "mcp",
                    "typing_extensions", "__init__", "__main__"})


def module_name(file_name: str) -> str:
    """The keyword file's name as a module name: `if-then-else` -> `if_then_else`,
    `enum` -> `enum_` (a module must not shadow the standard library)."""
    stem = re.sub(r"\W", "_", Path(file_name).stem, flags=re.ASCII)
    if (not stem or stem[0].isdigit() or keyword.iskeyword(stem) or stem in _TAKEN
            or stem in sys.stdlib_module_names):
        stem += "_"
    return stem


def plan(files: list[KeywordFile]) -> list[ModuleState]:
    modules = []
    for f in files:
        groups = []
        for g in f.groups:
            state = GroupState(f.name, g, f"g{g.index}", translate(g.schema))
            if state.translation.unexpressible:
                state.status = "unexpressible"
                state.reason = "; ".join(state.translation.unexpressible)
            groups.append(state)
        modules.append(ModuleState(f, module_name(f.name), groups))
    return modules


def write_spec(root: Path, module: ModuleState) -> bool:
    """Write the spec of the module's pending groups; False when none is left."""
    pending = [g for g in module.groups if g.status == "pending"]
    path = root / module.spec_name
    if not pending:
        path.unlink(missing_ok=True)
        return False
    lines = ["toolc: 1", f"module: {module.module}",
             f"description: JSON-Schema-Test-Suite {module.file.name}", "tools:"]
    for g in pending:
        tool = {"description": _one_line(g.group.description),
                "handler": f"{HANDLERS}:record",
                "params": {"x": g.translation.schema}}
        text = yaml.safe_dump({g.tool: tool}, allow_unicode=True, sort_keys=False,
                              default_flow_style=False, width=10**6)
        block = ["  " + ln for ln in text.splitlines()]
        g.lines = (len(lines) + 1, len(lines) + len(block))
        lines.extend(block)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return True


def _one_line(text: str) -> str:
    return " ".join(text.split()) or "(no description)"


def write_project(root: Path, modules: list[ModuleState]) -> None:
    (root / "specs").mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(_PYPROJECT, encoding="utf-8")
    (root / f"{HANDLERS}.py").write_text(HANDLER_SOURCE, encoding="utf-8")


@dataclass
class BuildRound:
    returncode: int
    diagnostics: list[dict[str, Any]]
    stderr: str


def run_build(root: Path, toolc: str, certify: bool) -> BuildRound:
    cmd = [toolc, "build", "--write", "--format", "json"]
    if not certify:
        cmd.append("--no-certify")
    proc = subprocess.run(cmd, check=False, cwd=root, capture_output=True, text=True,
                          env=_env(), timeout=900)
    try:
        diags = json.loads(proc.stdout).get("diagnostics", [])
    except (json.JSONDecodeError, AttributeError):
        diags = []
    return BuildRound(proc.returncode, diags, proc.stderr + proc.stdout[-2000:])


def _env() -> dict[str, str]:
    import os

    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["NO_COLOR"] = "1"
    return env


def build(root: Path, modules: list[ModuleState], toolc: str, certify: bool) -> list[str]:
    """Build until it succeeds, taking out the groups each round refused; returns notes."""
    write_project(root, modules)
    notes: list[str] = []
    reopened = 0
    for _ in range(MAX_ROUNDS):
        live = [m for m in modules if write_spec(root, m)]
        if not live:
            return notes
        result = run_build(root, toolc, certify)
        errors = [d for d in result.diagnostics if d.get("severity") == "error"]
        if result.returncode == 0:
            _mark_built(modules, result.diagnostics)
            if reopened < MAX_REOPEN and _keep_open(root, modules):
                reopened += 1  # toolc closed objects the suite leaves open: say so, again
                _rebuild_all(modules)
                continue
            return notes
        if not errors:
            notes.append(f"build failed without diagnostics: {result.stderr.strip()[-1500:]}")
            _refuse_all(live, "build failed without a diagnostic", [])
            return notes
        unplaced = _attribute(live, errors)
        if unplaced:
            # A diagnostic no group's lines hold (e.g. a whole module failed to serve):
            # the groups of that module are built one by one to find the culprit.
            notes.extend(f"unplaced: {_show(d)}" for d in unplaced)
            _isolate(root, live, unplaced, toolc, certify)
    notes.append(f"gave up after {MAX_ROUNDS} rounds")
    _refuse_all([m for m in modules], "still refused after the last round", [])
    return notes


def _attribute(live: list[ModuleState], errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Mark each group an error points into as refused; the errors placed nowhere."""
    by_spec = {m.spec_name: m for m in live}
    unplaced = []
    for d in errors:
        module = by_spec.get(str(d.get("path") or ""))
        line = d.get("line") or 0
        owner = None
        if module is not None:
            owner = next((g for g in module.groups if g.status == "pending"
                          and g.lines[0] <= line <= g.lines[1]), None)
        if owner is None:
            unplaced.append(d)
            continue
        owner.status = "refused"
        owner.diagnostics.append(_located(d, owner))
    return unplaced


def _located(d: dict[str, Any], g: GroupState) -> dict[str, Any]:
    """The diagnostic with its line also relative to the group's tool (1 = `g<i>:`)."""
    return {"code": d.get("code"), "severity": d.get("severity"), "message": d.get("message"),
            "line": d.get("line"), "col": d.get("col"),
            "tool_line": (d.get("line") or 0) - g.lines[0] + 1, "notes": d.get("notes", [])}


def _show(d: dict[str, Any]) -> str:
    return f"{d.get('path')}:{d.get('line')}:{d.get('col')}: {d.get('code')} {d.get('message')}"


def _isolate(root: Path, live: list[ModuleState], unplaced: list[dict[str, Any]],
             toolc: str, certify: bool) -> None:
    """Build each pending group of the modules named by ``unplaced`` alone."""
    named = {str(d.get("path") or "") for d in unplaced}
    suspects = [m for m in live if m.spec_name in named] or live
    for module in suspects:
        for g in [g for g in module.groups if g.status == "pending"]:
            alone = root.parent / f"{root.name}-alone-{module.module}-{g.tool}"
            single = ModuleState(module.file, module.module, [g])
            write_project(alone, [single])
            write_spec(alone, single)
            result = run_build(alone, toolc, certify)
            if result.returncode != 0:
                g.status = "refused"
                errors = [d for d in result.diagnostics if d.get("severity") == "error"]
                g.diagnostics = [_located(d, g) for d in errors]
                if not errors:
                    g.reason = "build failed without a diagnostic"
            # lines of the single build are the same as in the full one: state reset
            g.lines = (0, 0)
        write_spec(root, module)


def _refuse_all(modules: list[ModuleState], reason: str, diags: list[dict[str, Any]]) -> None:
    for m in modules:
        for g in m.groups:
            if g.status == "pending":
                g.status, g.reason, g.diagnostics = "refused", reason, list(diags)


def _mark_built(modules: list[ModuleState], diagnostics: list[dict[str, Any]]) -> None:
    by_spec = {m.spec_name: m for m in modules}
    for m in modules:
        for g in m.groups:
            if g.status == "pending":
                g.status = "built"
    for d in diagnostics:  # warnings and infos of built groups, kept for the report
        module = by_spec.get(str(d.get("path") or ""))
        line = d.get("line") or 0
        for g in module.groups if module else []:
            if g.status == "built" and g.lines[0] <= line <= g.lines[1]:
                g.diagnostics.append(_located(d, g))


# -- objects toolc closes and the suite leaves open -----------------------------------------
#
# toolc publishes `additionalProperties: false` on input objects that declare `properties`
# unless the spec says otherwise (issue 11, item 7). The suite's objects are open; the only
# way a spec says so is `additionalProperties: true`, which means the same as its absence
# except as an annotation seen by an enclosing `unevaluatedProperties`. So the harness
# builds, reads where the golden schema of `x` gained `additionalProperties: false`, says
# `additionalProperties: true` exactly there, and builds again.

def _keep_open(root: Path, modules: list[ModuleState]) -> bool:
    changed = False
    for m in modules:
        for g in m.groups:
            if g.status != "built":
                continue
            published = _golden_x(root, m.module, g.tool)
            for path in _closed_by_toolc(g.group.schema, published, []):
                changed |= _open_at(g, path)
    return changed


def _golden_x(root: Path, module: str, tool: str) -> Any:
    path = root / OUTPUT / "schemas" / module / f"{tool}.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))["inputSchema"]["properties"]["x"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _closed_by_toolc(suite: Any, published: Any, path: list[Any]) -> list[list[Any]]:
    """Paths of objects the suite leaves open and the published schema closes."""
    found: list[list[Any]] = []
    if isinstance(suite, dict) and isinstance(published, dict):
        if published.get("additionalProperties") is False and "additionalProperties" not in suite:
            found.append(path)
        for key, sub in suite.items():
            if key in published and key not in ("const", "enum", "default", "examples"):
                found.extend(_closed_by_toolc(sub, published[key], [*path, key]))
    elif isinstance(suite, list) and isinstance(published, list) and len(suite) == len(published):
        for i, (a, b) in enumerate(zip(suite, published, strict=False)):
            found.extend(_closed_by_toolc(a, b, [*path, i]))
    return found


def _open_at(g: GroupState, path: list[Any]) -> bool:
    node: Any = g.translation.schema
    enclosing_unevaluated = False
    for step in path:
        if isinstance(node, dict) and "unevaluatedProperties" in node:
            enclosing_unevaluated = True
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            return False
    if not isinstance(node, dict) or "additionalProperties" in node:
        return False
    node["additionalProperties"] = True
    where = "/" + "/".join(str(s).replace("~", "~0").replace("/", "~1") for s in path)
    note = f"`additionalProperties: true` added at {where} (toolc closes the object otherwise)"
    if enclosing_unevaluated:
        note += "; an enclosing schema has `unevaluatedProperties`, which it may change"
    g.translation.approximations.append(note)
    return True


def _rebuild_all(modules: list[ModuleState]) -> None:
    for m in modules:
        for g in m.groups:
            if g.status == "built":
                g.status, g.diagnostics = "pending", []
