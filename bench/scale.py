"""Scale: a build of 10x the tools takes at most 10.5x the time.

Both sides are `toolc build --no-certify` from nothing on disk, of N and 10N tools
(N/20 and N/2 spec files); `--certify` measures full builds instead.

    bench/.venv/bin/python bench/scale.py [--tools 1000] [--repeat 3] [--certify]
"""

from __future__ import annotations

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

TARGET = 10.5


def main(argv: list[str] | None = None) -> Figure:
    p = parser(__doc__.split("\n\n")[0], tools=1000, repeat=3)
    p.add_argument("--certify", action="store_true", help="full builds, certified")
    args = p.parse_args(argv)
    toolc = tool("toolc")
    if toolc is None:
        raise SystemExit("toolc is not installed in this environment: run bench/setup.sh")
    command = [str(toolc), "build"] + ([] if args.certify else ["--no-certify"])
    with workdir(args.workdir) as root:
        small = write_project(root / "scale_small", args.tools)
        large = write_project(root / "scale_large", args.tools * 10)
        env = bench_env()
        mode = "certified" if args.certify else "--no-certify"
        ours = Side(f"toolc build {mode}, {args.tools * 10} tools")
        peer = Side(f"toolc build {mode}, {args.tools} tools")
        interleave(
            lambda: run_timed(command, large.root, env, before=remove(large.output)),
            lambda: run_timed(command, small.root, env, before=remove(small.output)),
            args.repeat, ours, peer)
    figure = Figure(f"scale: {args.tools * 10} vs {args.tools} tools", ours, peer, TARGET,
                    "<= 10.5x", command_line("scale.py", args,
                                             {"tools": 1000, "repeat": 3, "certify": False}))
    publish(figure, args)
    return figure


if __name__ == "__main__":
    main(sys.argv[1:])
