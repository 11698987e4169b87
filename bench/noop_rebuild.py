"""No-op rebuild: `toolc build` when nothing changed, against a full build.

Ours: `toolc build` again on an up-to-date output (the content-hash cache answers).
Peer: the same `toolc build` from nothing on disk (certified, as the first build of a
checkout is). Target: at most 0.25x.

    bench/.venv/bin/python bench/noop_rebuild.py [--tools 1000] [--repeat 5]
"""

from __future__ import annotations

import subprocess
import sys

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
from synth import write_project

TARGET = 0.25


def main(argv: list[str] | None = None) -> Figure:
    p = parser(__doc__.split("\n\n")[0], tools=1000)
    args = p.parse_args(argv)
    toolc = tool("toolc")
    if toolc is None:
        raise SystemExit("toolc is not installed in this environment: run bench/setup.sh")
    with workdir(args.workdir) as root:
        full = write_project(root / "noop_full", args.tools)
        noop = write_project(root / "noop_again", args.tools)
        env = bench_env()
        subprocess.run([str(toolc), "build"], cwd=noop.root, env=env, check=True,
                       stdout=subprocess.DEVNULL)
        ours = Side(f"toolc build, nothing changed ({args.tools} tools)")
        peer = Side(f"toolc build from nothing ({args.tools} tools, certified)")
        interleave(
            lambda: run_timed([str(toolc), "build"], noop.root, env),
            lambda: run_timed([str(toolc), "build"], full.root, env, before=remove(full.output)),
            args.repeat, ours, peer)
        check = subprocess.run([str(toolc), "build"], cwd=noop.root, env=env, text=True,
                               capture_output=True, check=True)
    figure = Figure("no-op rebuild vs full build", ours, peer, TARGET, "<= 0.25x",
                    command_line("noop_rebuild.py", args, {"tools": 1000, "repeat": 5}))
    figure.notes.append(f"the no-op build said: {check.stdout.strip().splitlines()[-1]!r}")
    publish(figure, args)
    return figure


if __name__ == "__main__":
    main(sys.argv[1:])
