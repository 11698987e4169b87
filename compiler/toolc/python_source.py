"""Module sources found on a search path, and parsed, without importing anything.

The handler check (``toolc.checks.code``) looks each code reference up where ``toolc
serve`` would import it from, and a build records what each lookup found (a file and
its hash, or why there is none: ``Outcome``) so that a later build can tell, by looking
again, whether the check would see the same (``toolc.reuse.components``, the no-op
cache). This module is light on purpose: that later build may do nothing else.
"""

from __future__ import annotations

import ast
import hashlib
import sys
from pathlib import Path

from .untrusted import FileRefused, read_untrusted

# A found module: its parsed source, or the reason it cannot be read statically.
Found = ast.Module | str | None
# What a lookup found, as a build records it to see later whether it would find the same
# (``toolc.reuse.components``): ``["file", path, sha256]``, ``["reason", why]``, ``["none"]``.
Outcome = list[str]

_EXTENSIONS = (".so", ".pyd")
MAX_SOURCE = 2_000_000  # a handler module larger than this is not parsed (bounded work)


class SourceIndex:
    """Finds and parses module sources on a search path, each file once."""

    def __init__(self, roots: tuple[Path, ...]) -> None:
        self.roots = roots
        self._parsed: dict[str, Found] = {}
        self.outcomes: dict[str, Outcome] = {}
        self.asking: str | None = None   # the spec whose references are being checked
        self.asked: dict[str, set[str]] = {}  # spec -> the module names it looked up
        self._now: dict[str, Outcome] = {}     # what ``outcome`` found

    def module(self, name: str) -> Found:
        """The parsed module, a reason it cannot be read, or None: not found."""
        if self.asking is not None:
            self.asked.setdefault(self.asking, set()).add(name)
        if name not in self._parsed:
            found = self.locate(name)
            if isinstance(found, Path):
                data = _source(found)
                self.outcomes[name] = ["file", str(found), _digest(data)]
                self._parsed[name] = _parse(found, data)
            else:
                self.outcomes[name] = ["none"] if found is None else ["reason", found]
                self._parsed[name] = found
        return self._parsed[name]

    def locate(self, name: str) -> Path | str | None:
        """The source file of module ``name``, why it has none to read, or None."""
        parts = name.split(".")
        for root in self.roots:
            base = root.joinpath(*parts)
            for path in (base.parent / f"{parts[-1]}.py", base / "__init__.py"):
                if path.is_file():
                    return path
            if base.parent.is_dir() and any(p.name.startswith(parts[-1] + ".") and
                                            p.suffix in _EXTENSIONS
                                            for p in base.parent.iterdir()):
                return "it is a compiled extension"
            if base.is_dir() and len(parts) > 1:
                return "it is a namespace package"
        return None

    def outcome(self, name: str) -> Outcome:
        """What looking ``name`` up finds now: a later build's question, asked of an
        index of its own (each name is looked up once)."""
        if name not in self._now:
            found = self.locate(name)
            if isinstance(found, Path):
                self._now[name] = ["file", str(found), _digest(_source(found))]
            else:
                self._now[name] = ["none"] if found is None else ["reason", found]
        return self._now[name]

    def siblings(self, name: str) -> list[str]:
        """Module names beside where ``name`` would be: for "did you mean"."""
        parts = name.split(".")
        found: set[str] = set()
        for root in self.roots:
            folder = root.joinpath(*parts[:-1])
            if folder.is_dir():
                found.update(p.stem for p in folder.iterdir()
                             if p.suffix == ".py" or (p / "__init__.py").is_file())
        return [".".join([*parts[:-1], s]) for s in sorted(found)]


def _source(path: Path) -> bytes | str:
    """The file's bytes, or why they are not read."""
    try:  # installed code may be linked; a FIFO or a device is not read
        return read_untrusted(path, MAX_SOURCE, follow=True)
    except FileRefused as exc:
        return "its source is too large to read" if exc.kind == "large" else \
            f"its source {exc.why}"
    except OSError as exc:
        return f"its source cannot be parsed ({type(exc).__name__})"


def _digest(data: bytes | str) -> str:
    return hashlib.sha256(data).hexdigest() if isinstance(data, bytes) else data


def _parse(path: Path, data: bytes | str) -> Found:
    if isinstance(data, str):
        return data
    try:
        return ast.parse(data, filename=str(path))
    except (SyntaxError, ValueError) as exc:
        return f"its source cannot be parsed ({type(exc).__name__})"


def inside(paths: tuple[Path, ...], root: Path | None) -> tuple[Path, ...]:
    """The python-path entries inside the project: ``[tool.toolc]`` may come from a pull
    request, and the names of a module read elsewhere would reach the output ("did you
    mean"). The interpreter's own path (installed packages) is the machine's, not theirs."""
    if root is None:
        return paths
    return tuple(p for p in paths if p.resolve().is_relative_to(root))


def source_index(python_path: tuple[Path, ...], root: Path | None) -> SourceIndex:
    """Where handlers are looked for: the project's python-path, then installed packages."""
    return SourceIndex((*inside(python_path, root),
                        *(Path(p) for p in sys.path if p and Path(p).is_dir())))


def outcomes_match(index: SourceIndex, recorded: dict[str, Outcome]) -> bool:
    """Whether looking each recorded name up again finds what was recorded."""
    return all(index.outcome(name) == outcome for name, outcome in recorded.items())
