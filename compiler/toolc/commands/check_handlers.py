"""``toolc check-handlers``: mypy over the generated modules and the handlers they import,
each handler that does not fit its tool reported at the handler's own ``def``.

A generated module tells mypy which type each handler must have: under ``TYPE_CHECKING``,
``_check_user_code`` holds one assignment per reference to user code
(``_check_Greet: GreetHandler = _user_shop_tools.greet``). mypy reports a handler that
does not fit at that line of ``generated/``, where nothing can be fixed, and it has no
way to report it anywhere else: an error belongs to the file being checked, and neither a
note nor a plugin can place one in another file. So this command runs mypy (the same
interpreter's, ``python -m mypy -O json``, with the project's own mypy configuration) and
moves each error at a check line to the definition that line names, found in the
handler's source as the build's TC341 check finds it (parsed, never imported). The error
says which tool type the handler must fit and where the generated module declares it,
with that type's call signature as the spec makes it. Every other finding is printed as
mypy gave it.

What mypy checks: the output folder, whose modules import every handler module a spec
names (mypy follows those imports and checks them too), plus ``files`` of
``[tool.mypy]``; ``[tool.toolc] python-path`` is added to mypy's search path, as
``toolc serve`` adds it to ``sys.path``. mypy reads the project's configuration as
``mypy`` itself would, plugins included: this is a developer's check of their own code,
like running ``mypy``, not a step of the build, which never runs a program.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from ..config import Config
from ..python_source import source_index
from .common import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, config_or_report

_MAX_GENERATED = 20_000_000  # a generated module larger than this is not parsed
_TIMEOUT_S = 3600            # mypy on a large project takes minutes; a hang must end


@dataclass(frozen=True, slots=True)
class Check:
    """One assignment of ``_check_user_code``: the user code it names and the type."""

    module: str        # the handler's module, ``shop_tools``
    attr: str          # its attribute path there, ``greet`` or ``Cls.method``
    type: str          # the annotation, ``GreetHandler``
    generated: str     # where the check is, ``generated/shop.py:66``
    signature: str     # a generated Protocol's call signature, else ""


def check_handlers(out: TextIO | None = None, err: TextIO | None = None,
                   start: Path | None = None) -> int:
    """Run mypy and report; 0 clean, 1 when mypy finds errors, 2 when it cannot run."""
    out, err = out or sys.stdout, err or sys.stderr
    config = config_or_report("text", err, start)
    if config is None:
        return EXIT_USAGE
    if importlib.util.find_spec("mypy") is None:
        err.write("error: toolc check-handlers runs mypy, which is not installed with this "
                  "toolc: pip install 'toolc[dev]'\n")
        return EXIT_USAGE
    done = _run_mypy(config)
    records, other = _records(done.stdout)
    if done.returncode not in (0, 1) and not records:
        err.write(done.stderr + "".join(line + "\n" for line in other))
        err.write(f"error: mypy could not check the project (exit {done.returncode})\n")
        return EXIT_USAGE
    checks = _checks(config, {str(r.get("file")) for r in records})
    errors = moved = 0
    for record in records:
        line = record.get("line")
        check = checks.get((str(record.get("file")), line)) if isinstance(line, int) else None
        lines = _moved(config, record, check) if check is not None else None
        moved += lines is not None and record.get("severity") == "error"
        errors += record.get("severity") == "error"
        out.write("".join(f"{line}\n" for line in lines or _as_mypy(record)))
    err.write(done.stderr + "".join(line + "\n" for line in other))
    out.write(_summary(errors, moved, config))
    return EXIT_ERRORS if errors or done.returncode != 0 else EXIT_OK


def _run_mypy(config: Config) -> subprocess.CompletedProcess[str]:
    """mypy on the output folder and ``[tool.mypy] files``, from the project's root."""
    targets = [config.relative(config.output), *_configured_files(config)]
    path = [config.relative(p) for p in config.python_path]
    env = {**os.environ}
    env["MYPYPATH"] = os.pathsep.join([*path, *filter(None, [env.get("MYPYPATH")])])
    return subprocess.run(
        [sys.executable, "-m", "mypy", "-O", "json", *dict.fromkeys(targets)],
        cwd=config.root, env=env, capture_output=True, text=True, timeout=_TIMEOUT_S,
        check=False)


def _configured_files(config: Config) -> list[str]:
    """``[tool.mypy] files`` (a list, or mypy's comma-separated string)."""
    if config.source is None:
        return []
    try:
        table = tomllib.loads(config.source.read_text(encoding="utf-8")).get("tool", {})
    except (OSError, tomllib.TOMLDecodeError):
        return []  # config_or_report read it a moment ago; mypy will say what is wrong
    files = table.get("mypy", {}).get("files", []) if isinstance(table, dict) else []
    if isinstance(files, str):
        files = [f.strip() for f in files.split(",")]
    if not isinstance(files, list):
        return []
    # an entry mypy would read as an option (`--install-types`) is no file of the project
    return [f for f in files if isinstance(f, str) and f and not f.startswith("-")]


def _records(stdout: str) -> tuple[list[dict[str, Any]], list[str]]:
    """mypy's JSON findings, one per line, and any other line it printed."""
    records, other = [], []
    for line in stdout.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            record = None
        if isinstance(record, dict) and {"file", "line", "message"} <= set(record):
            records.append(record)
        elif line.strip():
            other.append(line)
    return records, other


def _as_mypy(record: dict[str, Any]) -> list[str]:
    """A finding as mypy's own text output gives it (columns 1-based)."""
    where = f"{record['file']}:{record['line']}:{_column(record)}"
    code = f"  [{record['code']}]" if record.get("code") else ""
    lines = [f"{where}: {record.get('severity', 'error')}: {record['message']}{code}"]
    hint = record.get("hint")
    lines += [f"{where}: note: {h}" for h in str(hint).splitlines()] if hint else []
    return lines


def _column(record: dict[str, Any]) -> int:
    column = record.get("column")
    return column + 1 if isinstance(column, int) and column >= 0 else 1


def _moved(config: Config, record: dict[str, Any], check: Check) -> list[str] | None:
    """The finding at a check line, reported at the handler's definition; None when the
    definition cannot be found (then mypy's own line is the best there is)."""
    found = _definition(config, check)
    if found is None:
        return None
    where = f"{found[0]}:{found[1]}:{found[2]}"
    code = f"  [{record['code']}]" if record.get("code") else ""
    ref = f"{check.module}:{check.attr}"
    first = (f"{where}: {record.get('severity', 'error')}: '{ref}' does not have the type "
             f"the spec gives it, {check.type} ({check.generated}): {record['message']}{code}")
    lines = [first]
    if check.signature:
        lines.append(f"{where}: note: {check.type} is {check.signature}: the tool's "
                     "arguments come after ctx as keyword arguments, named as in the spec")
    hint = str(record.get("hint") or "")
    lines += [f"{where}: note: {h}" for h in hint.splitlines()
              if not (check.signature and h.startswith(f'"{check.type}.__call__" has type'))]
    return lines


def _definition(config: Config, check: Check) -> tuple[str, int, int] | None:
    """(path, line, column) of the ``def``, ``class`` or assignment ``check`` names."""
    index = source_index(config.python_path, config.root)
    found, path = index.module(check.module), index.locate(check.module)
    if not isinstance(found, ast.Module) or not isinstance(path, Path):
        return None
    body: list[ast.stmt] = found.body
    node: ast.stmt | None = None
    for part in check.attr.split("."):
        node = next((n for n in reversed(body) if part in _bound(n)), None)
        if node is None:
            return None
        body = node.body if isinstance(node, ast.ClassDef) else []
    assert node is not None  # an attribute path has at least one part
    return config.relative(path), node.lineno, node.col_offset + 1


def _bound(node: ast.stmt) -> set[str]:
    """The names a top-level statement defines, as far as a definition line goes."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {node.name}
    if isinstance(node, ast.Assign):
        return {t.id for t in node.targets if isinstance(t, ast.Name)}
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return {node.target.id}
    if isinstance(node, ast.ImportFrom | ast.Import):
        return {a.asname or a.name.split(".")[0] for a in node.names}
    return set()


def _checks(config: Config, files: set[str]) -> dict[tuple[str, int], Check]:
    """Every check line of the generated modules mypy reported on: (file, line) -> Check."""
    found: dict[tuple[str, int], Check] = {}
    output = config.output.resolve()
    for shown in files:
        path = (config.root / shown).resolve()
        if path.suffix != ".py" or not path.is_relative_to(output) or not path.is_file():
            continue
        if path.stat().st_size > _MAX_GENERATED:
            continue
        try:
            tree = ast.parse(path.read_bytes(), filename=shown)
        except (SyntaxError, ValueError):
            continue  # mypy says so
        for check, first, last in _module_checks(tree, shown):
            found.update({(shown, line): check for line in range(first, last + 1)})
    return found


def _module_checks(tree: ast.Module, shown: str) -> list[tuple[Check, int, int]]:
    """The checks of one generated module, with the lines each spans."""
    function = next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)
                     and n.name == "_check_user_code"), None)
    if function is None:
        return []
    protocols = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
    aliases = {a.asname or a.name: a.name for n in function.body if isinstance(n, ast.Import)
               for a in n.names}
    checks = []
    for node in function.body:
        if not isinstance(node, ast.AnnAssign) or node.value is None:
            continue
        parts = _dotted(node.value)
        if not parts or parts[0] not in aliases or len(parts) < 2:
            continue
        typ = ast.unparse(node.annotation)
        check = Check(aliases[parts[0]], ".".join(parts[1:]), typ, f"{shown}:{node.lineno}",
                      _call_signature(protocols.get(typ)))
        checks.append((check, node.lineno, node.end_lineno or node.lineno))
    return checks


def _dotted(node: ast.expr) -> list[str]:
    """``a.b.c`` as ["a", "b", "c"]; [] for anything else."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.insert(0, node.attr)
        node = node.value
    return [node.id, *parts] if isinstance(node, ast.Name) else []


def _call_signature(protocol: ast.ClassDef | None) -> str:
    """A generated Protocol's ``__call__`` as ``(ctx: ..., /, *, name: str) -> ...``."""
    call = next((n for n in protocol.body if isinstance(n, ast.FunctionDef)
                 and n.name == "__call__"), None) if protocol is not None else None
    if call is None:
        return ""
    args = ast.arguments(posonlyargs=call.args.posonlyargs[1:], args=call.args.args,
                         vararg=call.args.vararg, kwonlyargs=call.args.kwonlyargs,
                         kw_defaults=call.args.kw_defaults, kwarg=call.args.kwarg,
                         defaults=call.args.defaults)
    returns = f" -> {ast.unparse(call.returns)}" if call.returns is not None else ""
    return f"({ast.unparse(args)}){returns}"


def _summary(errors: int, moved: int, config: Config) -> str:
    if not errors:
        return (f"every handler fits its tool: mypy found no error in "
                f"{config.relative(config.output)}/ and the modules it imports\n")
    if not moved:
        return f"every handler fits its tool; mypy found {errors} other error(s)\n"
    rest = f", {errors - moved} other error(s)" if errors > moved else ""
    return f"{moved} handler(s) do not fit their tools{rest} (mypy)\n"
