"""Import generated modules (from a build in memory, or from the output folder).

Certification needs the generated code of a build as importable modules (``toolc
serve`` imports a spec's under their real names instead, see
``toolc.serving.generated_modules``). A build not written yet is staged as a throwaway
package in a temporary folder; the configured ``python-path`` (where handlers live) goes
on ``sys.path`` beside it, and both are removed again afterwards.
"""

from __future__ import annotations

import contextlib
import shutil
import sys
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

from ..output.files import signals_held


@contextlib.contextmanager
def on_sys_path(*entries: Path) -> Iterator[None]:
    added = [str(p) for p in entries if str(p) not in sys.path]
    sys.path[:0] = added
    try:
        yield
    finally:
        for entry in added:
            with contextlib.suppress(ValueError):
                sys.path.remove(entry)


@contextlib.contextmanager
def staged_package(files: Mapping[str, str], python_path: tuple[Path, ...] = ()) -> Iterator[str]:
    """The ``.py`` files of a build as a package with a unique name; yields that name. The
    folder is removed however this ends, Ctrl-C or SIGTERM included (``toolc serve``
    turns SIGTERM into one): its removal is arranged before a signal can come between."""
    with contextlib.ExitStack() as cleanup:
        with signals_held():  # one that came meanwhile is raised on leaving: cleaned up
            root = Path(tempfile.mkdtemp(prefix="toolc-stage-"))
            cleanup.callback(shutil.rmtree, root, ignore_errors=True)
        package = f"_toolc_stage_{root.name.replace('-', '_')}"
        pkg_dir = root / package
        pkg_dir.mkdir()
        for rel, text in files.items():
            if rel.endswith(".py"):
                target = pkg_dir / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
        (pkg_dir / "__init__.py").touch()
        # Importing writes no bytecode cache beside the user's modules: a checking build
        # (which certifies) must leave the project as it was.
        writes_bytecode, sys.dont_write_bytecode = sys.dont_write_bytecode, True
        try:
            with on_sys_path(root, *python_path):
                yield package
        finally:
            sys.dont_write_bytecode = writes_bytecode
            for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
                del sys.modules[name]
