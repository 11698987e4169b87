"""Full build with certification against the bare import of the mcp SDK.

Ours: `toolc build` of N tools from nothing on disk (load, analyse, generate, publish,
certify through a real MCP client, write). Peer: `python -c "import mcp"`, the floor of
anything that talks MCP in Python. Target: the build at most 2x the import.

    bench/.venv/bin/python bench/full_build.py [--tools 1000] [--repeat 5]
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

TARGET = 2.0


def main(argv: list[str] | None = None) -> Figure:
    p = parser(__doc__.split("\n\n")[0], tools=1000)
    args = p.parse_args(argv)
    toolc = tool("toolc")
    if toolc is None:
        raise SystemExit("toolc is not installed in this environment: run bench/setup.sh")
    with workdir(args.workdir) as root:
        project = write_project(root / "full_build", args.tools)
        env = bench_env()
        ours = Side(f"toolc build ({args.tools} tools, certified)")
        peer = Side('python -c "import mcp"')
        interleave(
            lambda: run_timed([str(toolc), "build"], project.root, env,
                              before=remove(project.output)),
            lambda: run_timed([sys.executable, "-c", "import mcp"], project.root, env),
            args.repeat, ours, peer)
    figure = Figure("full build with certification vs import mcp", ours, peer, TARGET,
                    "<= 2x", command_line("full_build.py", args, {"tools": 1000, "repeat": 5}))
    publish(figure, args)
    return figure


if __name__ == "__main__":
    main(sys.argv[1:])
