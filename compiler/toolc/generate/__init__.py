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

import functools
from collections.abc import Callable, Mapping
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
    # lazy: loads jinja2
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


def generate_project(project: ProjectIR, sink: ModuleSink | None = None,
                     given: Mapping[str, str] | None = None) -> dict[str, str]:
    """Every generated code file, as path relative to the output folder -> text.

    ``sink`` is handed each file as soon as it is made, with its spec module (None for
    the package's ``__init__``, which comes first: importing a module imports it), so
    that certification can serve one module while the next is generated. ``given``: the
    code of modules, by name, taken as it is (what the last build made of a module whose
    inputs are unchanged, handed by ``toolc.reuse``), not generated again.
    """
    init = init_text()
    if sink is not None:
        sink(INIT_FILE, init, None)
    given = given or {}
    files = {}
    for name, module in sorted(project.modules.items()):  # (collector: toolc.pipeline)
        text = given.get(name)
        files[f"{name}.py"] = text = generate_module(module, project) if text is None else text
        if sink is not None:
            sink(f"{name}.py", text, module)
    files[INIT_FILE] = init
    return files


def init_text() -> str:
    return environment().get_template("init.py.jinja").render()
