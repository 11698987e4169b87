"""What ``toolc serve`` serves: the target found, compiled or imported, its toolset picked.

The target is a spec file (``specs/workbench.toolc.yaml``: the project, the nearest
pyproject.toml with ``[tool.toolc]`` above it, is compiled, so what is served is exactly
what the spec says now, as the module ``import generated.workbench`` gives: see
:mod:`toolc.serving.generated_modules`) or a module: a generated module's bare name
(``workbench``, from the output folder) or a dotted name (``generated.workbench``),
imported as it is. Handlers are imported from the configured ``python-path``, at their
first call. Running it is :mod:`toolc.serving.run`.
"""

from __future__ import annotations

import contextlib
import importlib
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, TextIO

from .. import __version__ as TOOLC_VERSION
from ..certify.staged_import import on_sys_path
from ..config import PYPROJECT_BYTES, Config
from ..frontend import compile_specs
from ..ir import ModuleIR, ProjectIR
from ..report.render import render_diagnostics
from ..runtime import AbstractToolset
from ..runtime.tool import LazyRef, LazyRefError
from ..specs import SPEC_SUFFIX, discover
from ..untrusted import FileRefused, read_untrusted
from .generated_modules import generated_modules, output_package


class ServeError(Exception):
    """A target that cannot be served; the message says why. Exit 2 (a target, toolset
    or --deps that is not there is a usage error), or 1 when the specs have errors (a
    finding, as for validate and build)."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Target:
    module: ModuleType
    toolset: Any
    name: str
    instructions: str | None
    version: str = ""  # serverInfo.version: the spec's, else the project's, else toolc's


def named_callable(flag: str, reference: str) -> Callable[..., Any]:
    """The callable ``MODULE:NAME`` names (``--deps``, ``--auth``), imported from the
    python path; ``ServeError`` saying why not."""
    try:
        found = LazyRef.parse(reference).resolve()
    except (ValueError, LazyRefError) as exc:
        raise ServeError(f"{flag}: {exc}") from None
    if not callable(found):
        raise ServeError(f"{flag}: {reference} is not callable")
    return found  # type: ignore[no-any-return]


def project_start(target: str) -> Path | None:
    """Where the project of a spec target is: the folder of the nearest pyproject.toml
    with a ``[tool.toolc]`` table at or above the spec; None for a module target, or a
    spec outside any such project (the current folder's project is used)."""
    path = Path(target)
    if not (target.endswith(SPEC_SUFFIX) or path.is_file()) or not path.is_file():
        return None
    spec_folder = path.absolute().parent
    for folder in (spec_folder, *spec_folder.parents):
        if _declares_toolc(folder / "pyproject.toml"):
            return folder
    return None


def _declares_toolc(pyproject: Path) -> bool:

    try:
        table = tomllib.loads(read_untrusted(pyproject, PYPROJECT_BYTES, follow=True)
                              .decode("utf-8"))
    except (OSError, FileRefused, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return pyproject.is_file()  # load_config reports what is wrong with it
    tool = table.get("tool")
    return isinstance(tool, dict) and "toolc" in tool


@contextlib.contextmanager
def open_target(config: Config, target: str, toolset_name: str | None, err: TextIO,
                *, pinned: bool = False) -> Iterator[Target]:
    """Import what ``target`` names and pick its toolset (default: the export): a spec
    file, a generated module's bare name (the output folder's module, before any user
    package of that name) or a dotted module name (``toolc serve --help``).

    ``pinned``: every ``mcp`` set with pinned tools lists its pinned definitions (what
    the golden files hold) and forwards calls to its live server, connecting at the first
    call; without it, such a set lists the live server as an application would.
    """
    path = Path(target).absolute()
    spec = target.endswith(SPEC_SUFFIX) or path.is_file()
    if spec and not path.is_file():
        raise ServeError(f"no such spec: {target}" + _available(config))
    if not spec:
        name = module_target(config, target)
        if not pinned:
            with on_sys_path(config.root, *config.python_path):
                module = _import(name, config)
                yield _pick(module, toolset_name, lambda: _module_ir(config, module), config)
            return
        project = _compile(config, None, err)
        package, _, short = name.rpartition(".")
        if short not in project.modules:
            raise ServeError(f"{target} is not the generated module of a spec of this project"
                             + _available(config))
        with on_sys_path(config.root, *config.python_path):
            _stand_in(package or None, project)
            yield _pick(_import(name, config), toolset_name,
                        lambda: project.modules[short], config)
        return
    with _open_spec(config, path, toolset_name, err, pinned=pinned) as chosen:
        yield chosen


@contextlib.contextmanager
def _open_spec(config: Config, path: Path, toolset_name: str | None, err: TextIO, *,
               pinned: bool) -> Iterator[Target]:
    """The spec's module as ``import generated.<module>`` gives it, fresh from the spec."""
    project = _compile(config, path if _outside(config, path) else None, err)
    shown = config.relative(path)
    found = next((m for m in project.modules.values() if m.path == shown), None)
    if found is None:
        raise ServeError(f"{shown} is not among the project's specs" + _available(config))
    # lazy: the generator, only for a spec target
    from ..generate import generate_project

    with contextlib.ExitStack() as opened:
        opened.enter_context(on_sys_path(config.root, *config.python_path))
        try:
            package = opened.enter_context(generated_modules(config,
                                                             generate_project(project)))
        except ImportError as exc:  # a package of the user's shadowing `generated`, say
            raise ServeError(f"cannot import the modules generated from {shown}: {exc}"
                             + _available(config)) from None
        if pinned:
            _stand_in(package, project)
        name = f"{package}.{found.name}" if package else found.name
        yield _pick(_import(name, config), toolset_name, lambda: found, config)


def module_target(config: Config, target: str) -> str:
    """The module to import: a bare name of a generated module (``support_desk``) is
    that module in the output folder, before any user package of the name."""
    package = output_package(config)
    if "." not in target and package and (config.output / f"{target}.py").is_file():
        return f"{package}.{target}"
    return target


def _generated_modules(config: Config) -> list[str]:
    package = output_package(config) or config.relative(config.output)
    return sorted(f"{package}.{p.stem}" for p in config.output.glob("*.py")
                  if p.stem != "__init__" and p.stem.isidentifier())


def _available(config: Config) -> str:
    """What could be served instead, for an error message."""

    specs = [config.relative(p) for p in discover(config)]
    modules = _generated_modules(config)
    lines = ([f"\n  specs: {', '.join(specs)}"] if specs else []) + (
        [f"\n  generated modules: {', '.join(modules)}"] if modules else [])
    return "".join(lines) or "\n  (no specs and no generated modules in this project)"


def _module_ir(config: Config, module: ModuleType) -> ModuleIR | None:
    """The spec module a generated module was made from, to map --toolset's declared
    names to attributes; None when it is not one, or the specs do not compile."""
    short = module.__name__.rpartition(".")[2]
    package = output_package(config)
    if package is None or module.__name__ != f"{package}.{short}":
        return None
    compiled = compile_specs(config)
    return compiled.project.modules.get(short) if compiled.project else None


def _compile(config: Config, extra: Path | None, err: TextIO) -> ProjectIR:
    compiled = compile_specs(config, (*config.specs, extra) if extra else ())
    if compiled.project is None:
        err.write(render_diagnostics(compiled.bag.sorted(), "text", compiled.sources) + "\n")
        raise ServeError("the specs have errors", code=1)
    return compiled.project


def _stand_in(package: str | None, project: ProjectIR) -> None:
    # lazy: 1 more toolc module(s), only when this runs
    from ..runtime.mcp.pinned import stand_in_pinned

    stand_in_pinned(package, project.stand_in_targets(), forward_calls=True)


def _import(name: str, config: Config) -> ModuleType:
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise ServeError(f"cannot import {name}: {exc}" + _available(config)) from None


def _outside(config: Config, path: Path) -> bool:
    resolved = path.resolve()
    return not any(resolved == s.resolve() or resolved.is_relative_to(s.resolve())
                   for s in config.specs)


def _pick(module: ModuleType, toolset_name: str | None,
          spec_module: Callable[[], ModuleIR | None], config: Config) -> Target:
    """The export, or the toolset the spec declares as ``toolset_name`` (its attribute
    may be another name: ``readOnly`` is ``read_only``); errors list the toolsets."""

    name = module.__name__.split(".")[-1]
    attr = toolset_name or "toolset"
    toolset = getattr(module, attr, None)
    declared: dict[str, str] = {}
    if not isinstance(toolset, AbstractToolset):
        ir = spec_module()
        if ir is not None:
            declared = ir.python_names.toolsets
        if toolset_name in declared:
            attr = declared[toolset_name]
            toolset = getattr(module, attr, None)
    if not isinstance(toolset, AbstractToolset):
        known = sorted(declared) or sorted(
            n for n in getattr(module, "__all__", ())
            if isinstance(getattr(module, n, None), AbstractToolset))
        what = f"toolset {toolset_name!r}" if toolset_name else "exported toolset"
        raise ServeError(f"module {name} has no {what}"
                         + (f" (toolsets: {', '.join(known)})" if known else
                            " (it is not a module toolc generated)") + _available(config))
    return Target(module, toolset, name, (module.__doc__ or "").strip() or None,
                  served_version(module, config))


def served_version(module: ModuleType, config: Config) -> str:
    """What clients are told the server's version is: the spec's ``version`` (the
    generated module's ``__version__``), else ``[project] version``, else toolc's."""
    spec_version = getattr(module, "__version__", None)
    if isinstance(spec_version, str) and spec_version:
        return spec_version
    return config.project_version or TOOLC_VERSION
