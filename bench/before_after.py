"""One toolc build, two versions of toolc, side by side (a change's before and after).

Each side is a checkout's ``compiler/`` folder put first on ``PYTHONPATH`` (for example
``git archive <commit> | tar -x -C /tmp/before``), so both run with this environment's
interpreter and dependencies. The rounds are interleaved, the order alternating each
round, after one unmeasured warm-up of each; the output and the no-op cache are removed
before every build. ``python -c "import mcp"`` is timed in the same rounds, so the
full-build figure's ratio can be given for both sides.

    bench/.venv/bin/python bench/before_after.py /tmp/before/compiler /tmp/after/compiler \\
        [--tools 1000] [--repeat 9] [-- --no-certify]
"""

from __future__ import annotations

import shutil
import statistics
import sys
from pathlib import Path

from harness import bench_env, parser, remove, run_timed, tool, workdir
from synth import write_project


def main(argv: list[str]) -> dict[str, float]:
    p = parser(__doc__.split("\n\n")[0], tools=1000, repeat=9)
    p.add_argument("before", type=Path, help="the compiler/ folder of the version before")
    p.add_argument("after", type=Path, help="the compiler/ folder of the version after")
    args, rest = p.parse_known_args(argv)  # after ``--``: arguments for ``toolc build``
    args.build_args = [a for a in rest if a != "--"]
    toolc = tool("toolc")
    if toolc is None:
        raise SystemExit("toolc is not installed in this environment: run bench/setup.sh")
    with workdir(args.workdir) as root:
        project = write_project(root / "before_after", args.tools)

        def clear() -> None:
            remove(project.output)()
            shutil.rmtree(project.root / ".toolc-cache", ignore_errors=True)

        def build(folder: Path) -> float:
            return run_timed([str(toolc), "build", *args.build_args], project.root,
                             bench_env(folder), clear)

        runs = {"before": lambda: build(args.before), "after": lambda: build(args.after),
                "import mcp": lambda: run_timed([sys.executable, "-c", "import mcp"],
                                                project.root, bench_env())}
        samples: dict[str, list[float]] = {name: [] for name in runs}
        for run in runs.values():
            run()  # warm-up
        for round_ in range(args.repeat):
            order = ["before", "after"] if round_ % 2 == 0 else ["after", "before"]
            for name in [*order, "import mcp"]:
                samples[name].append(runs[name]())
    medians = {name: statistics.median(values) for name, values in samples.items()}
    print(f"toolc build {' '.join(args.build_args)} ({args.tools} tools, {args.repeat} rounds)")
    for name, values in samples.items():
        shown = " ".join(f"{v:.2f}" for v in values)
        print(f"  {name:10s} median {medians[name]:.3f} s   samples {shown}")
    mcp = medians["import mcp"]
    print(f"  after / before {medians['after'] / medians['before']:.3f}; to import mcp: "
          f"before {medians['before'] / mcp:.3f}, after {medians['after'] / mcp:.3f}")
    return medians


if __name__ == "__main__":
    main(sys.argv[1:])
