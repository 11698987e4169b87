"""Code generation: `toolc build --no-certify` against datamodel-code-generator.

Both sides start from nothing on disk (their output folder removed before each run) and
turn the same N tools into pydantic models: toolc from the specs, into one module per
spec file (and the golden schemas besides); datamodel-code-generator from the
equivalent JSON Schema documents (one per spec file), into one module per document,
with its fast built-in formatter. Target: toolc at least 10x faster.

    bench/.venv/bin/python bench/codegen.py [--tools 1000] [--repeat 5]
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

TARGET = 0.1
PEER = "datamodel-codegen"


def peer_command(project_root: object, formatter: str = "builtin") -> list[str]:
    exe = tool(PEER)
    assert exe is not None
    return [str(exe), "--input", "jsonschema", "--input-file-type", "jsonschema",
            "--output", "peer_out", "--output-model-type", "pydantic_v2.BaseModel",
            "--formatters", formatter]


def main(argv: list[str] | None = None) -> Figure:
    p = parser(__doc__.split("\n\n")[0], tools=1000)
    args = p.parse_args(argv)
    toolc = tool("toolc")
    if toolc is None:
        raise SystemExit("toolc is not installed in this environment: run bench/setup.sh")
    with workdir(args.workdir) as root:
        project = write_project(root / "codegen", args.tools)
        env = bench_env()
        ours = Side(f"toolc build --no-certify ({args.tools} tools)")
        peer = Side(f"datamodel-codegen --formatters builtin ({args.tools} models)") \
            if tool(PEER) else None

        def run_ours() -> float:
            return run_timed([str(toolc), "build", "--no-certify"], project.root, env,
                             before=remove(project.output))

        def run_peer() -> float:
            return run_timed(peer_command(project.root), project.root, env,
                             before=remove(project.root / "peer_out"))

        interleave(run_ours, run_peer if peer else None, args.repeat, ours, peer)
    figure = Figure("codegen: toolc vs datamodel-code-generator", ours, peer, TARGET,
                    "<= 0.1x (toolc at least 10x faster)",
                    command_line("codegen.py", args, {"tools": 1000, "repeat": 5}))
    if peer is None:
        figure.notes.append(f"{PEER} is not installed here (bench/setup.sh installs it)")
    publish(figure, args)
    return figure


if __name__ == "__main__":
    main(sys.argv[1:])
