"""When each stage of one `toolc build` runs, and in which process: where the time goes.

Not a figure: a diagnostic for the two whole-build figures (codegen, full build). A
certifying build runs in three kinds of process (docs/architecture.md): the build, the
certifying process (the SDK's import, then each module served) and the writers of the
staged files; a profiler sees only the first. This runs `toolc build` in this process
with a few of toolc's functions wrapped to note their start and end (in any process:
the forked ones inherit the wrappers), then prints every note in milliseconds since
the build began. Not counted: the interpreter's start and the CLI's imports (about
0.15 s); the first run also pays the imports toolc makes lazily (front end, generator).

    bench/.venv/bin/python bench/timeline.py [--tools 1000] [--no-certify] [--runs 3]
"""

from __future__ import annotations

import argparse
import functools
import os
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness import workdir
from synth import module_name, write_project

T0 = time.perf_counter()


def note(who: str, what: str, start: float, end: float | None = None) -> None:
    end_text = f"{1000 * (end - T0):7.0f}" if end is not None else ""
    print(f"{who:8s} {what:34s} {1000 * (start - T0):7.0f} {end_text}", file=sys.stderr,
          flush=True)


def wrap(owner: Any, name: str, who: str, label: str | None = None) -> None:
    """Note the start and end of ``owner.name`` (a function or method, sync or async)."""
    real: Callable[..., Any] = getattr(owner, name)
    label = label or name
    if _is_async(real):
        @functools.wraps(real)
        async def async_noted(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return await real(*args, **kwargs)
            finally:
                note(who, label, start, time.perf_counter())

        setattr(owner, name, async_noted)
        return

    @functools.wraps(real)
    def noted(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return real(*args, **kwargs)
        finally:
            note(who, label, start, time.perf_counter())

    setattr(owner, name, noted)


def _is_async(func: Callable[..., Any]) -> bool:
    import inspect

    return inspect.iscoroutinefunction(func)


def instrument() -> None:
    from toolc import pipeline as build
    from toolc.certify import child
    from toolc.certify import process as certifier
    from toolc.output import staging
    from toolc.reuse import last_build

    for stage in build.STAGES:  # the pipeline runs build.STAGES as it finds it
        wrap(build, stage.__name__, "build", f"stage {stage.__name__}")
    build.STAGES = tuple(getattr(build, stage.__name__) for stage in build.STAGES)
    wrap(certifier.Certifier, "certify", "build", "certify (hand over, wait, compare)")
    wrap(staging.StagedTree, "commit", "build", "commit (manifest, journal, renames)")
    wrap(last_build.LastBuild, "open", "build", "reuse: the no-op key")
    wrap(last_build.LastBuild, "hand_analysis", "build", "reuse: components taken over")
    wrap(last_build.LastBuild, "hand_modules", "build", "reuse: module keys, record")
    wrap(child, "_import_sdk", "certify", "import the mcp SDK")
    _summarize_modules(child)
    wrap(staging, "_write_batch", "writer", "write a batch of staged files")


def _summarize_modules(child: Any) -> None:
    """One line for the modules the certifying process served: the first start, the last
    end, and how long it was busy with them. The build stops the process the moment it
    has every result, so the line is written as a module's result is (before the build
    can know it is done), whenever nothing else is waiting to be served: the last such
    line counts every module."""
    spans: list[tuple[float, float]] = []
    started: list[float] = []
    sessions: list[Any] = []
    serve_one, serve_all = child.Session.certify, child.Session.serve
    result_file = child.Stage.result_file

    async def certify(self: Any, name: str) -> None:
        started.append(time.perf_counter())
        await serve_one(self, name)

    async def serve(self: Any) -> None:
        sessions.append(self)
        await serve_all(self)

    def noted_result_file(self: Any, name: str) -> Any:
        if sessions and started:  # in the certifying process, serving `name`
            spans.append((started.pop(), time.perf_counter()))
            if not sessions[-1].waiting:
                busy = sum(end - start for start, end in spans)
                note("certify", f"serve {len(spans)} modules, busy {1000 * busy:.0f}",
                     spans[0][0], spans[-1][1])
        return result_file(self, name)

    child.Session.certify, child.Session.serve = certify, serve
    child.Stage.result_file = noted_result_file


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tools", type=int, default=1000)
    p.add_argument("--runs", type=int, default=1)
    p.add_argument("--no-certify", action="store_true")
    p.add_argument("--edit", action="store_true",
                   help="incremental: after an unnoted cold build, each run edits 1 spec")
    p.add_argument("--workdir", type=Path, help="keep the synthetic project here")
    args = p.parse_args(argv)
    instrument()
    from toolc.commands.build import run_build

    with workdir(args.workdir) as root:
        project = write_project(root / "timeline", args.tools)
        os.chdir(project.root)
        spec = project.specs / f"{module_name(len(project.modules) // 2)}.toolc.yaml"
        original = spec.read_text(encoding="utf-8")
        if args.edit:
            with open(os.devnull, "w") as quiet:
                run_build(check=False, write=True, certify=not args.no_certify, fmt="text",
                          strict=False, out=quiet)
        for run in range(args.runs):
            if args.edit:
                spec.write_text(original.replace("description: Synthetic tool number",
                                                 f"description: Edit {run} of tool", 1))
            else:
                shutil.rmtree(project.output, ignore_errors=True)
                shutil.rmtree(project.root / ".toolc-cache", ignore_errors=True)
            print(f"-- run {run + 1}: toolc build{' --no-certify' * args.no_certify}, "
                  f"{args.tools} tools{', 1 spec edited' * args.edit} "
                  "(ms since start: begin end)", file=sys.stderr)
            global T0
            T0 = time.perf_counter()
            with open(os.devnull, "w") as quiet:
                code = run_build(check=False, write=True, certify=not args.no_certify,
                                 fmt="text", strict=False, out=quiet)
            note("build", f"done (exit {code})", time.perf_counter())


if __name__ == "__main__":
    main(sys.argv[1:])
