"""``toolc stubs``: the handler functions the specs name that do not exist yet.

The handlers missing are those the handler check finds missing (``toolc.checks.code``:
TC340, no such module on the ``python-path``; TC341, no such function in it), looked up
the same way, statically. Each stub has the signature of its tool's generated Protocol
(:mod:`toolc.generate.stubs`). By default they are printed; ``--write`` appends them to
the module the handler path names, creating the module (and the ``__init__.py`` of each
package on the way) in the project's ``python-path`` when it is missing. A function that
exists is never written again, nor replaced: only what the check finds missing is.

Only files inside the project are written, through no symbolic link, each one
atomically; a handler whose module lies elsewhere (an installed package) or behind a link
is said and left alone (exit 2). Handlers that are methods (``mod:Class.method``), and
modules that cannot be read statically, are said and passed over.
"""

from __future__ import annotations

import difflib
import os
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TextIO

from ..checks.code import target_problem
from ..config import Config
from ..diagnostics import Severity
from ..frontend import compile_specs
from ..generate.stubs import handler_stubs, with_stubs
from ..ir import ProjectIR, Ref
from ..output.files import write_new_file
from ..python_source import MAX_SOURCE, SourceIndex, inside, source_index
from ..report.escaping import escape_controls
from ..untrusted import FileRefused, read_untrusted
from .common import (
    EXIT_ERRORS,
    EXIT_OK,
    EXIT_USAGE,
    config_or_report,
    link_on_the_way,
    print_diagnostics,
    replace_file,
)

_MISSING = ("TC340", "TC341")


@dataclass(slots=True)
class _Target:
    """A handler module to write: the tools whose stubs go into it, per spec module."""

    path: Path
    exists: bool
    tools: dict[str, list[str]] = field(default_factory=dict)  # spec module -> tools
    functions: dict[str, str] = field(default_factory=dict)    # function -> its tool


def run_stubs(module: str | None = None, *, write: bool = False, out: TextIO | None = None,
              err: TextIO | None = None, color: bool = False) -> int:
    """Print (or, ``write``, add) the missing handlers of the specs (of ``module`` only)."""
    out, err = out or sys.stdout, err or sys.stderr
    config = config_or_report("text", err)
    if config is None:
        return EXIT_ERRORS
    if not config.python_path:
        err.write("error: toolc stubs needs [tool.toolc] python-path: the folders the "
                  "handlers are imported from\n")
        return EXIT_USAGE
    package = _package(config)
    if package is None:
        err.write(f"error: the output folder {escape_controls(config.relative(config.output))}"
                  " cannot be imported as a package, so stubs could not name its types\n")
        return EXIT_USAGE
    # Missing handlers are what this command is for: they must not stop the analysis.
    missing_ok = {**config.severities, **dict.fromkeys(_MISSING, Severity.WARNING)}
    compiled = compile_specs(replace(config, severities=missing_ok))
    if compiled.project is None:
        print_diagnostics(compiled.bag, compiled.sources, "text", err, color)
        err.write("error: the specs have errors (above); stubs are written from the "
                  "analysed project\n")
        return EXIT_ERRORS
    project = compiled.project
    if module is not None and module not in project.modules:
        err.write(f"error: no spec module {escape_controls(module)!r}; the project has "
                  f"{', '.join(sorted(project.modules))}\n")
        return EXIT_USAGE
    refused = False
    targets: dict[Path, _Target] = {}
    index = source_index(config.python_path, config.root)
    for name in [module] if module is not None else sorted(project.modules):
        refused |= _plan(config, project, name, index, targets, err)
    if not targets:
        out.write("every handler the specs name exists\n")
        return EXIT_USAGE if refused else EXIT_OK
    specs = {m: shown for shown, m in compiled.modules.items()}
    for target in sorted(targets.values(), key=lambda t: t.path):
        stubs = [stub for m, tools in target.tools.items()
                 for stub in handler_stubs(project.modules[m], project, tools, package)]
        spec = ", ".join(sorted({specs.get(m, m) for m in target.tools}))
        shown = escape_controls(config.relative(target.path))
        try:
            existing = _source(target)
        except (OSError, FileRefused, UnicodeDecodeError) as exc:
            err.write(f"error: cannot read {shown}: {escape_controls(str(exc))}; stubs for it "
                      "were not made\n")
            refused = True
            continue
        text = with_stubs(existing, stubs, spec)
        if not write:
            out.write(f"# {shown}: {len(stubs)} handler stub(s) for {spec} "
                      f"({'added to it' if target.exists else 'a new module'} by "
                      "`toolc stubs --write`)\n")
            out.write("".join(escape_controls(line) + "\n"
                              for line in _shown(existing, text, shown).split("\n")))
            continue
        try:
            _write(config, target, text)
        except OSError as exc:
            err.write(f"error: cannot write {shown}: {exc.strerror or exc}; it was left as "
                      "it was\n")
            refused = True
            continue
        out.write(f"wrote {len(stubs)} handler stub(s) to {shown}\n")
    return EXIT_USAGE if refused else EXIT_OK


def _package(config: Config) -> str | None:
    """How handlers import the generated modules: the output folder, dotted."""
    parts = Path(config.relative(config.output)).parts
    ok = parts and all(p.isidentifier() for p in parts)
    return ".".join(parts) if ok else None


def _plan(config: Config, project: ProjectIR, name: str, index: SourceIndex,
          targets: dict[Path, _Target], err: TextIO) -> bool:
    """Add the module's missing handlers to ``targets``; whether one was refused."""
    refused = False
    for tool_name, tool in project.modules[name].tools.items():
        ref = tool.handler
        if ref is None or tool.external or not _identifiers(ref):
            continue
        problem = target_problem(index, str(ref))
        said = f"handler {escape_controls(str(ref))} of tool {tool_name!r}"
        if problem is None:
            continue
        if problem[0] not in _MISSING:
            err.write(f"note: {said} passed over: {escape_controls(problem[1])}\n")
            continue
        if "." in ref.attr:
            err.write(f"note: {said} passed over: it is a method; toolc stubs writes "
                      "functions of a module only\n")
            continue
        path, why = _where(config, index, ref)
        if path is None:
            err.write(f"error: {said} not written: {why}\n")
            refused = True
            continue
        target = targets.setdefault(path, _Target(path, path.exists()))
        if ref.attr in target.functions:
            err.write(f"note: {said} is the handler of {target.functions[ref.attr]!r} too: "
                      "one stub, for the first\n")
            continue
        target.functions[ref.attr] = tool_name
        target.tools.setdefault(name, []).append(tool_name)
    return refused


def _identifiers(ref: Ref) -> bool:
    return all(p.isidentifier() for p in (*ref.module.split("."), *ref.attr.split(".")))


def _where(config: Config, index: SourceIndex, ref: Ref) -> tuple[Path | None, str]:
    """The file the handler goes into, or why none may be written."""
    root = Path(os.path.abspath(config.root))
    found = index.locate(ref.module)
    if isinstance(found, str):
        return None, f"module {ref.module!r} cannot be written: {found}"
    path = Path(os.path.abspath(found)) if found is not None else _new_module(config, ref)
    if path is None:
        return None, "no python-path folder lies inside the project"
    if not path.is_relative_to(root):
        return None, (f"module {ref.module!r} is {escape_controls(str(path))}, outside the "
                      "project; toolc stubs writes only the project's files")
    link = link_on_the_way(root, path)
    if link is not None:
        return None, (f"{escape_controls(link)} is a symbolic link; toolc stubs writes "
                      "nothing through a link")
    return path, ""


def _new_module(config: Config, ref: Ref) -> Path | None:
    """Where a missing module goes: in the python-path folder (inside the project) that
    holds most of its packages already, else the first."""
    folders = inside(config.python_path, Path(os.path.abspath(config.root)))
    if not folders:
        return None
    parts = ref.module.split(".")

    def depth(folder: Path) -> int:
        found = 0
        while found < len(parts) - 1 and folder.joinpath(*parts[:found + 1]).is_dir():
            found += 1
        return found
    best = max(folders, key=depth)  # the first of the deepest
    return Path(os.path.abspath(best.joinpath(*parts[:-1], f"{parts[-1]}.py")))


def _source(target: _Target) -> str | None:
    """The handler module's text (the handler check parsed it: it is a bounded file)."""
    if not target.exists:
        return None
    return read_untrusted(target.path, MAX_SOURCE).decode("utf-8")


def _shown(existing: str | None, text: str, shown: str) -> str:
    """A new module in full; what is added to one, as a unified diff."""
    if existing is None:
        return text.rstrip("\n")
    lines = difflib.unified_diff(existing.splitlines(), text.splitlines(), shown, shown,
                                 lineterm="")
    return "\n".join(lines)


def _write(config: Config, target: _Target, text: str) -> None:
    data = text.encode("utf-8")
    if target.exists:
        replace_file(target.path, data)
        return
    root = Path(os.path.abspath(config.root))
    folder = target.path.parent
    for package in _packages(config, folder):
        package.mkdir(exist_ok=True)
        if link_on_the_way(root, package) is not None:  # made a link meanwhile
            raise OSError(f"{package} is a symbolic link")
        init = package / "__init__.py"
        if not init.exists():
            write_new_file(init, b"")
    write_new_file(target.path, data)


def _packages(config: Config, folder: Path) -> list[Path]:
    """The package folders from the python-path folder down to ``folder``."""
    for entry in inside(config.python_path, Path(os.path.abspath(config.root))):
        base = Path(os.path.abspath(entry))
        if folder == base or folder.is_relative_to(base):
            rel = folder.relative_to(base).parts
            return [base.joinpath(*rel[:i + 1]) for i in range(len(rel))]
    return []
