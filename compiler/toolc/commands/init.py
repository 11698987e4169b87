"""``toolc init``: a starter project: a spec, its handlers, a test, the spec format's JSON
Schema and the configuration: ``[tool.toolc]``, a ``.gitignore`` entry for the build
cache, a mypy configuration that checks the handlers against the generated modules (the
build finds a misspelt handler; only mypy finds a handler with the wrong signature: run
it as ``toolc check-handlers``, which reports such a handler at its own line), and
pytest's, so that the test imports the generated module and the handlers.

Every file is written inside the folder, never through a link (a committed link at a
target, even a dangling one, or on the way to it, is refused before anything is
written: ``toolc.output.confine.project_target``)."""

from __future__ import annotations

import json
import keyword
import sys
import tomllib
from pathlib import Path
from typing import TextIO

from ..config import PYPROJECT_BYTES
from ..output.confine import project_target
from ..output.files import replace_file
from ..untrusted import FileRefused, read_untrusted

STARTER_SPEC = """\
# yaml-language-server: $schema=../.toolc/spec.schema.json
toolc: 1
module: {module}
description: Tools of {module}.

tools:
  greet:
    title: Greet
    description: Say hello to someone by name.
    handler: {module}_tools:greet
    annotations: {{readOnlyHint: true}}
    params:
      name:
        type: string
        description: Who to greet.
        minLength: 1
      excited:
        type: boolean
        description: End the greeting with an exclamation mark.
        default: false

toolsets:
  main: {{kind: function, tools: [greet]}}

export: main
"""

STARTER_HANDLERS = '''\
"""Handlers of specs/{module}.toolc.yaml."""

from __future__ import annotations

from typing import Any

from toolc.runtime import RunContext


def greet(ctx: RunContext[Any], name: str, excited: bool = False) -> str:
    return f"Hello, {{name}}{{'!' if excited else '.'}}"
'''

STARTER_TEST = '''\
"""Tests of the {module} tools: each call goes through the generated module, as an MCP
client's or an agent's would (the arguments checked against the published schema, then
the handler), in this process."""

from __future__ import annotations

import asyncio
from typing import Any

from toolc import runtime as rt

from generated.{module} import toolset


def call(tool: str, args: dict[str, Any]) -> rt.ToolResult:
    return asyncio.run(toolset.call_tool(rt.RunContext(deps=None), tool, args))


def test_greet_says_hello() -> None:
    assert call("greet", {{"name": "Ada"}}).text_content == "Hello, Ada."
    assert call("greet", {{"name": "Ada", "excited": True}}).text_content == "Hello, Ada!"


def test_the_published_schema_refuses_an_empty_name() -> None:
    refused = call("greet", {{"name": ""}})
    assert refused.is_error
    assert refused.text_content == 'Invalid arguments:\\n- name: "" is shorter than 1 character'
'''

CONFIG = """
[tool.toolc]
specs = "specs"
output = "generated"
python-path = ["."]
"""

# mypy reads the generated modules, the handlers and the tests together: each generated
# module says which type every handler must have (its `_check_user_code`) and imports
# every handler module a spec names, which mypy follows and checks, so `files` needs no
# entry per handler module. Run `toolc check-handlers` (or `mypy`) after `toolc build`.
MYPY = """
[tool.mypy]
strict = true
# generated/ imports every handler module; mypy checks what it imports
files = ["generated", "tests"]
mypy_path = ["."]
"""

# The tests import `generated.<module>`, whose tools import the handlers: both from here.
PYTEST = """
[tool.pytest.ini_options]
pythonpath = ["."]
testpaths = ["tests"]
"""

GITIGNORE = ".toolc-cache/\n"


def init_project(force: bool = False, root: Path | None = None, module: str | None = None,
                 out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Write the starter files into ``root`` (default: cwd); refuse to overwrite.

    ``module`` names the spec's module; by default ``[project].name`` of an existing
    pyproject.toml, else the folder's name (made an identifier)."""
    out, err = out or sys.stdout, err or sys.stderr
    # lazy: loads pydantic, yaml
    from ..model import spec_json_schema

    root = root or Path.cwd()
    pyproject = root / "pyproject.toml"
    if module is not None and not _is_module_name(module):
        err.write(f"error: --module {module!r} is not an ASCII Python identifier\n")
        return 2
    gitignore = root / ".gitignore"
    if _refused(root, [pyproject, gitignore], err):
        return 2
    current, ignoring = _read(pyproject, err), _read(gitignore, err)
    if current is None or ignoring is None:
        return 2
    module = module or _project_name(current) or _module_name(root)
    handlers = f"{module}_tools.py"
    files = {
        root / "specs" / f"{module}.toolc.yaml": STARTER_SPEC.format(module=module),
        root / handlers: STARTER_HANDLERS.format(module=module),
        root / "tests" / f"test_{module}.py": STARTER_TEST.format(module=module),
        root / ".toolc" / "spec.schema.json":
            json.dumps(spec_json_schema(), indent=2, ensure_ascii=False) + "\n",
    }
    if _refused(root, list(files), err):
        return 2
    existing = [p for p in files if p.exists() and p.suffix != ".json"]
    if existing and not force:
        err.write(f"error: {existing[0]} exists; use --force to overwrite\n")
        return 1
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        replace_file(path, text.encode("utf-8"))
        out.write(f"wrote {path.relative_to(root)}\n")
    added = [(table, text) for table, text in (("[tool.toolc]", CONFIG), ("[tool.mypy]", MYPY),
                                               ("[tool.pytest.ini_options]", PYTEST))
             if table not in current]
    if added:
        current += "".join(text for _, text in added)
        replace_file(pyproject, current.lstrip("\n").encode("utf-8"))
        out.write(f"added {', '.join(table for table, _ in added)} to pyproject.toml\n")
    if _ignore_cache(gitignore, ignoring):
        out.write("added .toolc-cache/ to .gitignore\n")
    out.write(f"next: `toolc build`, `toolc check-handlers`, `pytest`, then "
              f"`toolc serve specs/{module}.toolc.yaml`\n")
    return 0


def _refused(root: Path, paths: list[Path], err: TextIO) -> bool:
    """Whether one of ``paths`` may not be written (said on ``err``): nothing is, then."""
    for path in paths:
        shown, problem = project_target(root, path)
        if problem is not None:
            err.write(f"error: {shown} {problem}; nothing was written\n")
            return True
    return False


def _read(path: Path, err: TextIO) -> str | None:
    """The text of a file toolc adds to ("" if there is none), a regular file, bounded;
    None if it cannot be read (said on ``err``)."""
    try:
        return read_untrusted(path, PYPROJECT_BYTES).decode("utf-8")
    except FileNotFoundError:
        return ""
    except FileRefused as exc:
        err.write(f"error: {path.name} {exc.why}; nothing was written\n")
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else "it is not UTF-8 text"
        err.write(f"error: {path.name} cannot be read: {why}; nothing was written\n")
    return None


def _ignore_cache(gitignore: Path, text: str) -> bool:
    """Add the build cache to ``.gitignore`` (``text``) unless it is there; whether it
    was added."""
    if any(line.strip() in (".toolc-cache", ".toolc-cache/", "/.toolc-cache/")
           for line in text.splitlines()):
        return False
    replace_file(gitignore, (text + ("" if not text or text.endswith("\n") else "\n") +
                             GITIGNORE).encode("utf-8"))
    return True


def _project_name(pyproject: str) -> str | None:
    """``[project].name`` made a module name (``support-desk`` -> ``support_desk``)."""
    try:
        name = tomllib.loads(pyproject).get("project", {}).get("name")
    except tomllib.TOMLDecodeError:
        return None
    if not isinstance(name, str):
        return None
    candidate = name.replace("-", "_").replace(".", "_").lower()
    return candidate if _is_module_name(candidate) else None


def _is_module_name(name: str) -> bool:
    return name.isascii() and name.isidentifier() and not keyword.iskeyword(name)


def _module_name(root: Path) -> str:
    name = "".join(c if c.isalnum() else "_" for c in root.resolve().name.lower()).strip("_")
    if not name or not _is_module_name(name):
        return "app"
    return name
