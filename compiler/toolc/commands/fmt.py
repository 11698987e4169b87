"""``toolc fmt``: the project's specs in the canonical layout (:mod:`toolc.formatting`).

Only the project's spec files are touched: the ``*.toolc.yaml`` files under the configured
spec folders, or under the paths named, all inside the project. A spec is read and
written through no symbolic link (the file, and every folder from the project down to
it): a link is passed over with a note, never followed. A file is replaced atomically
(written beside it, synced, renamed over it, its permissions kept), and only when its
formatted text differs from its bytes.

Exit codes: 0 when every spec is (or now is) formatted; 1 with ``--check`` when a spec
would change (each one listed; ``--diff`` shows how); 2 when a spec cannot be formatted
(it does not parse: its located error is shown; or a named path is not a spec of the
project), the other specs formatted all the same.
"""

from __future__ import annotations

import difflib
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from ..config import Config
from ..diagnostics import SpecError
from ..formatting import FormatBug, format_text
from ..loader import load_bytes, read_bytes
from ..report.escaping import escape_controls
from ..report.render import render_diagnostics
from ..specs import SPEC_SUFFIX, discover, shown_path
from .common import (
    EXIT_ERRORS,
    EXIT_OK,
    EXIT_USAGE,
    config_or_report,
    link_on_the_way,
    replace_file,
)


@dataclass(slots=True)
class _Run:
    out: TextIO
    err: TextIO
    color: bool
    changed: list[str] = field(default_factory=list)
    unchanged: int = 0
    failed: bool = False


def run_fmt(paths: Sequence[str] = (), *, check: bool = False, diff: bool = False,
            out: TextIO | None = None, err: TextIO | None = None, color: bool = False) -> int:
    """Format the specs (default: the configured folders'); ``check`` (implied by ``diff``)
    writes nothing and exits 1 when one would change."""
    run = _Run(out or sys.stdout, err or sys.stderr, color)
    config = config_or_report("text", run.err)
    if config is None:
        return EXIT_ERRORS
    files = _spec_files(config, [Path(p) for p in paths], run.err)
    if files is None:
        return EXIT_USAGE
    check = check or diff
    for path in files:
        _one(config, path, run, check=check, diff=diff)
    _summary(run, check)
    if run.failed:
        return EXIT_USAGE
    return EXIT_ERRORS if check and run.changed else EXIT_OK


def _spec_files(config: Config, targets: list[Path], err: TextIO) -> list[Path] | None:
    root = Path(os.path.abspath(config.root))
    for target in targets:
        if not os.path.lexists(target):
            err.write(f"error: no such file or folder: {escape_controls(str(target))}\n")
            return None
        if not Path(os.path.abspath(target)).is_relative_to(root):
            err.write(f"error: {escape_controls(str(target))} is outside the project "
                      f"({escape_controls(str(root))}); toolc fmt formats only its specs\n")
            return None
        if not target.is_dir() and not target.name.endswith(SPEC_SUFFIX):
            err.write(f"error: {escape_controls(str(target))} is not a spec (*{SPEC_SUFFIX})"
                      "; toolc fmt formats only specs\n")
            return None
    # A named file is taken as it is (a FIFO named like a spec is refused when read).
    folders = [t for t in targets if t.is_dir()]
    files = sorted({*(discover(config, folders) if folders else ()),
                    *(t for t in targets if not t.is_dir())}) if targets else discover(config)
    if not files:
        where = ", ".join(str(p) for p in targets) or ", ".join(
            config.relative(p) for p in config.specs)
        err.write(f"error: no *{SPEC_SUFFIX} specs found in {escape_controls(where)}\n")
        return None
    return [p for p in files if Path(os.path.abspath(p)).is_relative_to(root)]


def _one(config: Config, path: Path, run: _Run, *, check: bool, diff: bool) -> None:
    shown = shown_path(config, path)
    said = escape_controls(shown)
    link = link_on_the_way(Path(os.path.abspath(config.root)), Path(os.path.abspath(path)))
    if link is not None:
        run.err.write(f"note: {said} skipped: {escape_controls(link)} is a symbolic link, and "
                      "toolc fmt reads and writes no spec through a link (format the file "
                      "it points to where it lies)\n")
        return
    try:
        raw = read_bytes(str(path), shown, str(config.root))
        text = load_bytes(raw, shown).text
        formatted = format_text(text, shown)
    except SpecError as exc:
        quoted = {shown: _readable(path, shown)}
        run.err.write(render_diagnostics(exc.diagnostics, "text", quoted, color=run.color)
                      + "\n")
        run.err.write(f"error: {said} was not formatted: it does not parse\n")
        run.failed = True
        return
    except FormatBug as exc:
        run.err.write(f"error: {escape_controls(str(exc))}; {said} was left as it is "
                      "(a bug of toolc fmt: please report it)\n")
        run.failed = True
        return
    new = formatted.encode("utf-8")
    if new == raw:
        run.unchanged += 1
        return
    run.changed.append(shown)
    if check:
        run.out.write(f"would reformat {said}\n")
        if diff:
            run.out.write(_diff(raw.decode("utf-8", "replace"), formatted, shown))
        return
    try:
        replace_file(path, new)
    except OSError as exc:
        run.err.write(f"error: cannot write {said}: {exc.strerror or exc}; the spec was left "
                      "as it was\n")
        run.failed = True
        run.changed.pop()
        return
    run.out.write(f"reformatted {said}\n")


def _readable(path: Path, shown: str) -> str:
    try:
        return read_bytes(str(path), shown)[:1_000_000].decode("utf-8", "replace")
    except SpecError:
        return ""


def _diff(old: str, new: str, shown: str) -> str:
    lines = difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                 fromfile=shown, tofile=f"{shown} (formatted)")
    return "".join(escape_controls(line.rstrip("\n")) + "\n" for line in lines)


def _summary(run: _Run, check: bool) -> None:
    changed, kept = len(run.changed), run.unchanged
    if check:
        said = f"{changed} spec(s) would be reformatted, {kept} already formatted"
    else:
        said = f"{changed} spec(s) reformatted, {kept} already formatted"
    run.out.write(said + "\n")
