"""A served spec's generated modules, imported under their real names.

``toolc serve specs/clinic.toolc.yaml`` serves the module that ``import generated.clinic``
gives, so that a handler's ``from generated.clinic import Slot`` and the toolset's own
models are one class (``isinstance`` and ``type(x) is Slot`` hold in handlers). The spec
is compiled first; each generated file on disk that equals the fresh build is imported
from disk as usual, and one that is stale or missing (the spec changed since the last
``toolc build``) is imported from the fresh build, still under its real name
(``generated.clinic``), its source shown in tracebacks. ``generated/`` is never written:
``toolc build`` does that, and reports the schema changes as it does.

The names are the output package's (``generated.<module>``, or ``<module>`` when the
output folder is not a package below the project root, as a folder on ``sys.path``).
Modules of those names already imported from elsewhere (another project's
``generated``, an out-of-date copy) are set aside while a target is open and put back
when the last one closes; what this project imported itself, up to date, is kept.
"""

from __future__ import annotations

import contextlib
import importlib.abc
import importlib.machinery
import importlib.util
import linecache
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from types import ModuleType

from ..config import Config
from ..untrusted import FileRefused, read_untrusted

# Set on a module this file imported, to the token of the target that imported it.
_MARK = "__toolc_served__"
# Modules of our names that were there before the first target opened: put back once
# the last one closes (``--reload`` opens the next target before closing the last).
_set_aside: dict[str, ModuleType] = {}
_open: list[object] = []


class _FreshBuild(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds the stale or missing modules of one build in its text, by their real names."""

    def __init__(self, sources: Mapping[str, tuple[str, bool]], folder: Path) -> None:
        self.sources = sources  # name -> (source, is a package)
        self.folder = folder

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        found = self.sources.get(fullname)
        if found is None:
            return None
        spec = importlib.util.spec_from_loader(fullname, self, origin=_shown(fullname),
                                               is_package=found[1])
        if spec is not None and found[1]:  # up-to-date modules still come from the folder
            spec.submodule_search_locations = [str(self.folder)]
        return spec

    def exec_module(self, module: ModuleType) -> None:
        source = self.sources[module.__name__][0]
        shown = _shown(module.__name__)
        linecache.cache[shown] = (len(source), None, source.splitlines(True), shown)
        exec(compile(source, shown, "exec"), module.__dict__)  # noqa: S102  # toolc's own output


def _shown(name: str) -> str:
    return f"<toolc serve: the fresh build of {name}>"


def output_package(config: Config) -> str | None:
    """The dotted name the output folder is imported as from the project root
    (``generated``); None when it is not a package path below the root."""
    try:
        parts = config.output.resolve().relative_to(config.root.resolve()).parts
    except ValueError:
        return None
    return ".".join(parts) if parts and all(p.isidentifier() for p in parts) else None


@contextlib.contextmanager
def generated_modules(config: Config, files: Mapping[str, str]) -> Iterator[str | None]:
    """While open, the build's ``files`` (``clinic.py`` -> its text) are imported under
    their real names; yields the package they are in (None: top-level modules). Raises
    what importing one raises (the caller says which target could not be served)."""
    package = output_package(config)
    sources: dict[str, tuple[str, bool, Path]] = {}
    for rel, text in files.items():
        if rel.endswith(".py") and "/" not in rel:
            stem = rel[:-3]
            name = (package or "") if stem == "__init__" else _join(package, stem)
            if name:
                sources[name] = (text, stem == "__init__", config.output / rel)
    stale = {name: (text, is_package) for name, (text, is_package, path) in sources.items()
             if not _on_disk(path, text)}
    token = object()
    _set_aside_others(sources, stale, config.output, package)
    finder = _FreshBuild(stale, config.output) if stale else None
    if finder is not None:
        sys.meta_path.insert(0, finder)
    kept = {name for name in sources if name in sys.modules}  # this project's, up to date
    _open.append(token)
    try:
        for name in sorted(sources):  # (the package before its modules)
            module = importlib.import_module(name)
            if name not in kept:
                module.__dict__.setdefault(_MARK, token)
        yield package
    finally:
        if finder is not None:
            sys.meta_path.remove(finder)
        _open.remove(token)
        _forget(sources, token)


def _join(package: str | None, stem: str) -> str:
    return f"{package}.{stem}" if package else stem


def _on_disk(path: Path, text: str) -> bool:
    """Whether the file at ``path`` is ``text`` (read no further than that text's size:
    ``generated/`` may come from a pull request)."""
    wanted = text.encode("utf-8")
    try:
        return read_untrusted(path, len(wanted)) == wanted
    except (OSError, FileRefused):
        return False


def _set_aside_others(sources: Mapping[str, object], stale: Mapping[str, object],
                      folder: Path, package: str | None) -> None:
    """Take out of ``sys.modules`` each module of a served name that is not this build's
    up-to-date module (and, with another project's package, every module in it): kept to
    be put back unless an open target imported it."""
    names = list(sources)
    if package is not None and package not in sources:
        names.append(package)
    for name in names:
        module = sys.modules.get(name)
        if module is None or (name not in stale and _MARK not in module.__dict__
                              and _from(module, folder)):
            continue
        if name == package:  # another package of the name: its modules go with it
            names += [n for n in sys.modules if n.startswith(package + ".") and n not in names]
        del sys.modules[name]
        if _MARK not in module.__dict__:
            _set_aside.setdefault(name, module)


def _from(module: ModuleType, folder: Path) -> bool:
    """Whether ``module`` was imported from ``folder`` (a package: from its ``__init__``)."""
    file = getattr(module, "__file__", None)
    return file is not None and Path(file).resolve().parent == folder.resolve()


def _forget(sources: Mapping[str, object], token: object) -> None:
    """Drop what this target imported; once no target is open, put back what was set aside."""
    for name in sources:
        module = sys.modules.get(name)
        if module is not None and module.__dict__.get(_MARK) is token:
            del sys.modules[name]
    if not _open:
        for name, module in list(_set_aside.items()):
            sys.modules.setdefault(name, module)
        _set_aside.clear()
