"""The build pipeline: the ordered stages from spec files to a written ``generated/``.

    discover -> load -> analyse (model, checks, resolve) -> publish + generate
             -> diff against the golden files -> certify -> write (or check)

Each stage is a plain function; :func:`build` runs them in order and stops at the
first stage that reported errors, so a broken spec never reaches the output folder.
The CLI only parses options and prints a :class:`BuildResult`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .config import Config
from .diagnostics import DiagnosticBag, Span, SpecError
from .ir import ProjectIR
from .loader import LoadedFile, load_file
from .publish import SCHEMAS_DIR, publish_project
from .write import Plan, plan, write_tree

SPEC_SUFFIX = ".toolc.yaml"
Progress = Callable[[str], None]


@dataclass(slots=True)
class Compiled:
    """What the front end made of the specs: diagnostics, sources and (if clean) the IR."""

    bag: DiagnosticBag
    sources: dict[str, str] = field(default_factory=dict)
    project: ProjectIR | None = None


@dataclass(slots=True)
class BuildResult:
    compiled: Compiled
    files: dict[str, str] = field(default_factory=dict)   # output path -> text
    plan: Plan | None = None
    diff: SchemaDiff | None = None                        # against the golden files on disk
    wrote: bool = False
    checked: bool = False

    @property
    def ok(self) -> bool:
        return not self.compiled.bag.has_errors


def discover(config: Config, paths: Sequence[Path] = ()) -> list[Path]:
    """Every ``*.toolc.yaml`` under the given paths (default: the configured ones), sorted."""
    found: set[Path] = set()
    for root in paths or config.specs:
        if root.is_file():
            found.add(root)
        elif root.is_dir():
            found.update(p for p in root.rglob(f"*{SPEC_SUFFIX}") if p.is_file())
    return sorted(found)


def compile_specs(config: Config, paths: Sequence[Path] = (),
                  progress: Progress | None = None) -> Compiled:
    """Load and analyse the specs; every problem goes into the returned bag."""
    from .frontend import analyse

    bag = DiagnosticBag(severities=dict(config.severities))
    compiled = Compiled(bag)
    loaded: list[LoadedFile] = []
    files = discover(config, paths)
    for i, path in enumerate(files, 1):
        if progress:
            progress(f"loading {i}/{len(files)} {config.relative(path)}")
        shown = config.relative(path)
        try:
            item = load_file(str(path), shown)
        except SpecError as exc:
            bag.extend(exc.diagnostics)
            compiled.sources[shown] = _text_for_display(path)
            continue
        compiled.sources[shown] = item.text
        loaded.append(item)
    if progress:
        progress(f"checking {len(loaded)} spec(s)")
    project = analyse(loaded, bag)
    compiled.project = None if bag.has_errors else project
    return compiled


def _text_for_display(path: Path) -> str:
    try:
        return path.read_bytes()[:1_000_000].decode("utf-8", "replace")
    except OSError:
        return ""


def render_outputs(project: ProjectIR) -> dict[str, str]:
    """Every file the build owns in the output folder: modules and golden schemas."""
    from .generate import generate_project

    files = generate_project(project)
    files.update(publish_project(project))
    return files


@dataclass(slots=True)
class SchemaDiff:
    """Classified changes between two sets of golden files, and where each tool lives."""

    changes: list[Any]
    old: Any  # toolc.diff.ToolSet
    new: Any

    def render(self, fmt: str, *, color: bool = False, golden_root: str) -> str:
        from .report.changes import render

        return render(self.changes, fmt, color=color, golden_root=golden_root,
                      paths={**self.old.paths, **self.new.paths},
                      new_texts=self.new.texts, old_texts=self.old.texts)


def new_golden(files: dict[str, str]) -> Any:
    """The golden files of a build (not written yet) as a ToolSet."""
    from .diff import ToolSet

    prefix = SCHEMAS_DIR + "/"
    return ToolSet.from_texts({rel.removeprefix(prefix): text for rel, text in files.items()
                               if rel.startswith(prefix)})


def schema_changes(config: Config, old: Any, new: Any) -> SchemaDiff:
    from .diff import Policy, diff_tools

    return SchemaDiff(diff_tools(old, new, Policy.from_config(config.diff)), old, new)


def golden_on_disk(config: Config) -> Any:
    from .diff import ToolSet, load_folder

    root = config.output / SCHEMAS_DIR
    return load_folder(root) if root.is_dir() else ToolSet()


def build(
    config: Config,
    *,
    check: bool = False,
    certify: bool = True,
    progress: Progress | None = None,
) -> BuildResult:
    """Run the whole pipeline. ``check`` writes nothing and only says what would change."""
    compiled = compile_specs(config, progress=progress)
    result = BuildResult(compiled, checked=check)
    project = compiled.project
    if project is None:
        return result
    if progress:
        progress("generating")
    result.files = render_outputs(project)
    result.diff = _diff_or_report(config, result)
    if certify and not compiled.bag.has_errors:
        if progress:
            progress("certifying through an MCP client")
        from .certify import certify_build

        certify_build(config, project, result.files, compiled.bag)
    if compiled.bag.has_errors:
        return result
    result.plan = plan(config.output, result.files)
    if not check:
        write_tree(config.output, result.files)
        result.wrote = result.plan.changes
    return result


def _diff_or_report(config: Config, result: BuildResult) -> SchemaDiff | None:
    from .diff import DiffInputError

    try:
        return schema_changes(config, golden_on_disk(config), new_golden(result.files))
    except DiffInputError as exc:
        result.compiled.bag.report("TC503", f"cannot read the golden files: {exc}",
                                   Span(config.relative(config.output), 1, 1))
        return None


def in_ci() -> bool:
    """CI services set CI; then `toolc build` checks instead of writing."""
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")
