"""Code generation: the resolved IR -> one importable, typed Python module per spec.

``generate_project(project)`` gives every file toolc owns in the output folder for code
(``<module>.py`` per spec module and the package's ``__init__.py``), as relative path
-> text; ``generate_module(module, project)`` gives one module's text. Both are pure
and deterministic: the same IR gives the same bytes on every machine and hash seed.

The layout of a generated module, and why (see ``templates/module.py.jinja``):

* a header naming the spec, the spec's description as the docstring;
* a pydantic model per tool's parameters, per ``returns``, per named type and per nested
  object, and a handler ``Protocol`` per tool, each written once as a plain class
  statement: mypy reads them as they are. At run time the module's ``BaseModel``,
  ``ConfigDict``, ``Field`` and ``Protocol`` are the stand-ins of ``rtg.ClassRecorder``,
  so a class statement only records its body (a few microseconds) and the class is made
  at its first use. Making a pydantic class costs about half a millisecond, so a module
  of 1,000 tools would otherwise spend a second importing;
* ``if TYPE_CHECKING:`` the type aliases as mypy sees them, and checks that assign each
  handler, predicate, prepare function and wrapper class to the type it must have, so
  that mypy rejects a handler whose signature does not match;
* the tools (``_tool_<Stem>()``: ``rt.Tool`` with the published schemas as JSON text)
  and one builder per toolset (``_toolset_<attr>()``), typed and checked by mypy;
* ``if not TYPE_CHECKING:`` a builder per type alias (``_build_<alias>``: an alias
  cannot be recorded, its value is an expression) and a module ``__getattr__`` (PEP 562,
  ``rtg.LazyModule``: the support code lives in the runtime, not in every module) that
  makes a model, Protocol, alias or toolset at first use, finding the builders by name
  (no table to keep in step). Importing a module creates no class and imports no user
  code.

Each part is headed by a comment saying what it is (models, handler Protocols, tools,
toolsets), and one sentence at the top says that class statements are recorded.

Other spec modules are imported as ``from . import other`` for mypy and, at run time,
relative to ``__package__`` when the output folder is imported as a package
(``generated.workbench``) or as top-level modules when the folder itself is on
``sys.path``.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import marshal
import os
import sys
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from ..ir import ModuleIR, ProjectIR
from .assemble import ModuleWriter
from .names import module_names

if TYPE_CHECKING:
    import jinja2

__all__ = ["INIT_FILE", "ModuleSink", "generate_module", "generate_project", "init_text"]

INIT_FILE = "__init__.py"

# Receives (file, text, spec module or None) for each generated code file as it is made.
ModuleSink = Callable[[str, str, "ModuleIR | None"], None]


@functools.cache
def environment() -> jinja2.Environment:
    """The templates: strict about undefined names, never escaping (values arrive as
    Python literals already), trailing newlines kept."""
    import jinja2

    return jinja2.Environment(
        loader=jinja2.PackageLoader("toolc", "templates"),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def generate_module(module: ModuleIR, project: ProjectIR) -> str:
    """The text of ``<module.name>.py``."""
    names = module_names(module)
    others = {}
    for name in names.modules:
        other = project.modules[name]
        others[name] = (other, module_names(other))
    return ModuleWriter(module, names, others, environment()).text()


def generate_project(project: ProjectIR, sink: ModuleSink | None = None) -> dict[str, str]:
    """Every generated code file, as path relative to the output folder -> text.

    ``sink`` is handed each file as soon as it is made, with its spec module (None for
    the package's ``__init__``, which comes first: importing a module imports it), so
    that certification can serve one module while the next is generated.
    """
    init = init_text()
    if sink is not None:
        sink(INIT_FILE, init, None)
    files = {}
    with _no_cyclic_gc():
        # Without a sink nothing waits for the modules one by one: half of them can be
        # made by a second process meanwhile. Any module it did not give back is made here.
        done = split_generation(project) if sink is None else {}
        for name, module in sorted(project.modules.items()):
            text = done.get(name)
            if text is None:
                text = generate_module(module, project)
            files[f"{name}.py"] = text
            if sink is not None:
                sink(f"{name}.py", text, module)
    files[INIT_FILE] = init
    return files


# Below this many tools a second process costs more (a fork, a pipe) than it saves.
SPLIT_MIN_TOOLS = 200


def split_generation(project: ProjectIR, min_tools: int = SPLIT_MIN_TOOLS) -> dict[str, str]:
    """The text of every module, half of them made by a forked process while this one
    makes the other half; ``{}`` when the project is small or a fork is not safe here
    (no ``fork``, or other threads running), and only this half when the child fails.

    Each module's text depends only on the IR, so which process makes it changes no byte.
    """
    if not hasattr(os, "fork") or threading.active_count() != 1:
        return {}
    sizes = {name: len(m.tools) + len(m.types) + 1 for name, m in project.modules.items()}
    if sum(sizes.values()) < min_tools or len(sizes) < 2:
        return {}
    mine, theirs = _halves(sizes)
    _load_templates()  # compiled once, before the fork, not in both processes
    from_child, to_parent = os.pipe()
    for stream in (sys.stdout, sys.stderr):  # or the child holds (and may print) a copy
        with contextlib.suppress(Exception):
            stream.flush()
    try:
        pid = os.fork()
    except OSError:
        os.close(from_child)
        os.close(to_parent)
        return {}
    if pid == 0:
        os.close(from_child)
        _child_generates(project, theirs, to_parent)
    os.close(to_parent)
    try:
        texts = {name: generate_module(project.modules[name], project) for name in mine}
        with os.fdopen(from_child, "rb", closefd=False) as pipe:
            data = pipe.read()
    finally:
        os.close(from_child)  # a child still writing gets EPIPE and ends
        ok = _reaped_cleanly(pid)
    if ok:
        texts.update(_received(data, theirs))
    return texts


def _halves(sizes: dict[str, int]) -> tuple[list[str], list[str]]:
    """The modules split in two shares of about equal size (largest first, each to the
    lighter share)."""
    shares: tuple[list[str], list[str]] = ([], [])
    weight = [0, 0]
    for name in sorted(sizes, key=lambda n: (-sizes[n], n)):
        lighter = 0 if weight[0] <= weight[1] else 1
        shares[lighter].append(name)
        weight[lighter] += sizes[name]
    return shares


def _load_templates() -> None:
    env = environment()
    env.get_template("macros.jinja")
    env.get_template("module.py.jinja")


def _child_generates(project: ProjectIR, names: list[str], fd: int) -> None:
    """The forked process: make ``names``, send them as one marshalled dict, leave
    without running any of the parent's code (an interrupt included)."""
    status = 1
    try:
        texts = {name: generate_module(project.modules[name], project) for name in names}
        with os.fdopen(fd, "wb") as pipe:
            pipe.write(marshal.dumps(texts))
        status = 0
    finally:
        os._exit(status)


def _reaped_cleanly(pid: int) -> bool:
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:
        return False
    return os.waitstatus_to_exitcode(status) == 0


def _received(data: bytes, names: list[str]) -> dict[str, str]:
    """What the child sent, if it is exactly the texts asked for (else nothing)."""
    try:
        texts = marshal.loads(data)
    except (EOFError, ValueError, TypeError):
        return {}
    if not isinstance(texts, dict) or sorted(texts) != sorted(names) \
            or not all(isinstance(t, str) for t in texts.values()):
        return {}
    return texts


@contextlib.contextmanager
def _no_cyclic_gc() -> Iterator[None]:
    """Generation makes many small objects and no cycles: the collector's passes over a
    heap that holds the whole IR only cost time (about a tenth of it)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def init_text() -> str:
    return environment().get_template("init.py.jinja").render()
