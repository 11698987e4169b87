"""Incremental builds (issue 17 item 4): two figures, each side by side in one run.

1. 1 of 50 specs edited (20 tools each), certifying `toolc build`: the build that reuses
   the other 49 modules (toolc.reuse.modules) against a cold certifying build (output and
   cache removed first) of the same project. Target: at most 0.2x.
2. An unchanged build of a project with a warning against an unchanged build of the same
   project without one: both answered by the no-op cache, which replays the warning.
   Target: at most 1.2x.

    bench/.venv/bin/python bench/incremental.py [--tools 1000] [--repeat 5]
"""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

from harness import (
    Figure,
    Side,
    bench_env,
    command_line,
    interleave,
    parser,
    publish,
    remove,
    run_timed,
    tool,
    workdir,
)
from synth import module_name, write_project

EDITED_TARGET = 0.2
WARNINGS_TARGET = 1.2


def edit_one(spec: Path, original: str, counter: itertools.count[int]) -> None:
    """One tool's description changed, differently each time (so the no-op cache misses)."""
    spec.write_text(original.replace("description: Synthetic tool number",
                                     f"description: Edit {next(counter)} of synthetic tool", 1),
                    encoding="utf-8")


def with_a_warning(spec: Path) -> None:
    """A tool named with a dot (TC302, unportable name): a warning on every build."""
    text = spec.read_text(encoding="utf-8")
    spec.write_text(text.replace("\n  tool0:\n", "\n  tool0.v2:\n", 1), encoding="utf-8")


def main(argv: list[str] | None = None) -> list[Figure]:
    p = parser(__doc__.split("\n\n")[0], tools=1000)
    args = p.parse_args(argv)
    toolc = tool("toolc")
    if toolc is None:
        raise SystemExit("toolc is not installed in this environment: run bench/setup.sh")
    env = bench_env()
    build = [str(toolc), "build"]
    with workdir(args.workdir) as root:
        edited = write_project(root / "inc_edited", args.tools)
        cold = write_project(root / "inc_cold", args.tools)
        spec = edited.specs / f"{module_name(len(edited.modules) // 2)}.toolc.yaml"
        original = spec.read_text(encoding="utf-8")
        counter = itertools.count(1)
        subprocess.run(build, cwd=edited.root, env=env, check=True, stdout=subprocess.DEVNULL)
        ours = Side(f"toolc build, 1 of {len(edited.modules)} specs edited ({args.tools} tools)")
        peer = Side(f"toolc build from nothing ({args.tools} tools, certified)")
        interleave(
            lambda: run_timed(build, edited.root, env,
                              before=lambda: edit_one(spec, original, counter)),
            lambda: run_timed(build, cold.root, env, before=lambda: (
                remove(cold.output)(), remove(cold.root / ".toolc-cache")())),
            args.repeat, ours, peer)
        edit_one(spec, original, counter)
        said = subprocess.run(build, cwd=edited.root, env=env, text=True, capture_output=True,
                              check=True).stdout.strip().splitlines()[-1]
        figure = Figure(f"incremental: 1 of {len(edited.modules)} specs edited vs a cold certifying build",
                        ours, peer, EDITED_TARGET, "<= 0.2x",
                        command_line("incremental.py", args, {"tools": 1000, "repeat": 5}))
        figure.notes.append(f"the incremental build said: {said!r}")

        warned = write_project(root / "inc_warned", args.tools)
        quiet = write_project(root / "inc_quiet", args.tools)
        with_a_warning(warned.specs / f"{module_name(0)}.toolc.yaml")
        for project in (warned, quiet):
            subprocess.run(build, cwd=project.root, env=env, check=True,
                           stdout=subprocess.DEVNULL)
        ours2 = Side(f"toolc build, nothing changed, 1 warning ({args.tools} tools)")
        peer2 = Side(f"toolc build, nothing changed, no warning ({args.tools} tools)")
        interleave(lambda: run_timed(build, warned.root, env),
                   lambda: run_timed(build, quiet.root, env), args.repeat, ours2, peer2)
        out = subprocess.run(build, cwd=warned.root, env=env, text=True, capture_output=True,
                             check=True).stdout
    warnings = Figure("unchanged build with a warning vs without", ours2, peer2,
                      WARNINGS_TARGET, "<= 1.2x",
                      command_line("incremental.py", args, {"tools": 1000, "repeat": 5}))
    shown = [line for line in out.splitlines() if "warning[" in line]
    warnings.notes.append(f"the build with a warning said: {shown[:1]!r} and "
                          f"{out.strip().splitlines()[-1]!r}")
    publish(figure, args)
    publish(warnings, args)
    return [figure, warnings]


if __name__ == "__main__":
    main(sys.argv[1:])
