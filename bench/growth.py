"""Growth: 4x the hostile input takes about 4x the time, not 16x (issue 12, item 5).

Three inputs a pull request could hold, each at N and 4N, measured interleaved:

- duplicate keys: one tool whose `params` gives the same key N times (`toolc validate`,
  which reports every one of them: this took 195 s for 40,000 before, re-splitting the
  file for each diagnostic);
- a long line: a tool description of N characters on one line (`toolc build
  --no-certify`: loaded, checked, generated and published);
- many tools: N tools in N/20 spec files (`toolc build --no-certify`);
- a long enum: one parameter with N values (`toolc build --no-certify`: its `Literal`
  took 50 s for 20,000 values before, each value looked up in a list).

The ratio printed is time(4N) / time(N); linear work gives about 4 (a little less, as
the start-up of the process is paid once by each side), quadratic about 16. The target
is 6x.

    bench/.venv/bin/python bench/growth.py [--keys 10000] [--chars 2000000] [--tools 250]
"""

from __future__ import annotations

import shlex
import subprocess
import sys
import time
from collections.abc import Callable
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
    tool,
    workdir,
)
from synth import write_project

TARGET = 6.0
PYPROJECT = '[tool.toolc]\nspecs = "specs"\noutput = "generated"\n'
HEAD = "toolc: 1\nmodule: grow\ntools:\n  t:\n    description: {description}\n" \
       "    handler: app:t\n"


def _project(root: Path, spec: str) -> Path:
    (root / "specs").mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(PYPROJECT)
    (root / "specs" / "grow.toolc.yaml").write_text(spec)
    return root


def duplicate_keys(root: Path, count: int) -> Path:
    lines = [HEAD.format(description="T.") + "    params:"]
    lines += ["      a: {type: string, description: A.}"] * count
    return _project(root, "\n".join(lines) + "\n")


def long_enum(root: Path, count: int) -> Path:
    values = ", ".join(f"v{i}" for i in range(count))
    return _project(root, HEAD.format(description="T.") + "    params:\n"
                    f"      a: {{type: string, description: A., enum: [{values}]}}\n")


def long_lines(root: Path, chars: int) -> Path:
    return _project(root, HEAD.format(description="x" * chars))


def timed(argv: list[str], cwd: Path, env: dict[str, str], before: Callable[[], None],
          ok: tuple[int, ...] = (0,)) -> float:
    """Wall time of one command, whose exit code must be one of ``ok``."""
    before()
    started = time.perf_counter()
    done = subprocess.run(argv, check=False, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - started
    if done.returncode not in ok:
        raise SystemExit(f"{shlex.join(argv)} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return elapsed


def main(argv: list[str] | None = None) -> list[Figure]:
    p = parser(__doc__.split("\n\n")[0], tools=250, repeat=3)
    p.add_argument("--keys", type=int, default=10_000, help="duplicate keys (default 10000)")
    p.add_argument("--values", type=int, default=5_000, help="enum values (default 5000)")
    p.add_argument("--chars", type=int, default=2_000_000,
                   help="characters of the long line (default 2000000; 4x must stay "
                        "under the 10 MiB file limit)")
    args = p.parse_args(argv)
    toolc = tool("toolc")
    if toolc is None:
        raise SystemExit("toolc is not installed in this environment: run bench/setup.sh")
    env = bench_env()
    validate = [str(toolc), "validate"]
    build = [str(toolc), "build", "--no-certify"]
    figures = []
    with workdir(args.workdir) as root:
        cases = [
            ("duplicate keys", "keys", args.keys, validate, (1,),
             lambda where, n: duplicate_keys(where, n)),
            ("a long line", "characters", args.chars, build, (0,),
             lambda where, n: long_lines(where, n)),
            ("many tools", "tools", args.tools, build, (0,),
             lambda where, n: write_project(where, n).root),
            ("a long enum", "values", args.values, build, (0,),
             lambda where, n: long_enum(where, n)),
        ]
        for name, unit, size, command, ok, make in cases:
            slug = name.replace(" ", "_")
            small = make(root / f"growth_{slug}_1x", size)
            large = make(root / f"growth_{slug}_4x", size * 4)
            ours = Side(f"{shlex.join(command[1:])}, {size * 4:,} {unit}")
            peer = Side(f"{shlex.join(command[1:])}, {size:,} {unit}")
            interleave(
                lambda c=command, at=large, k=ok: timed(
                    [*c], at, env, remove(at / "generated"), k),
                lambda c=command, at=small, k=ok: timed(
                    [*c], at, env, remove(at / "generated"), k),
                args.repeat, ours, peer)
            figure = Figure(
                f"growth: {name}, 4x ({size * 4:,}) vs 1x ({size:,})", ours, peer, TARGET,
                "<= 6x", command_line("growth.py", args, {
                    "keys": 10_000, "chars": 2_000_000, "tools": 250, "values": 5_000,
                    "repeat": 3}),
                notes=["linear work gives about 4x, quadratic about 16x"])
            publish(figure, args)
            figures.append(figure)
    return figures


if __name__ == "__main__":
    main(sys.argv[1:])
