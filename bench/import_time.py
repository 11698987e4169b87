"""Import time of a generated module of 1,000 tools: at most 100 ms.

The module (one spec of N tools) is built by `toolc build --no-certify` and compiled to
bytecode, as an installed or once-imported module is. Each sample is a fresh
interpreter that first imports `toolc.runtime` and `toolc.runtime._generated` (the
runtime, as before they were split) and pydantic (which any user of the module has
loaded already) and then times `import generated.<module>` alone. For
reference, the same probe times importing datamodel-code-generator's models for the
same N tools (when it is installed); the figure is the budget, not that ratio.

    bench/.venv/bin/python bench/import_time.py [--tools 1000] [--repeat 7]
"""

from __future__ import annotations

import compileall
import json
import subprocess
import sys
from pathlib import Path

from codegen import peer_command
from harness import Figure, Side, bench_env, command_line, parser, publish, run_timed, tool, workdir
from synth import module_name, write_project

BUDGET = 0.100

PROBE = """
import importlib, json, sys, time
import toolc.runtime
try:
    import toolc.runtime._generated
except ImportError:  # a toolc from before the private module (bench/versus.py)
    pass
import pydantic
started = time.perf_counter()
module = importlib.import_module(sys.argv[1])
elapsed = time.perf_counter() - started
print(json.dumps({"seconds": elapsed, "user_code": "bench_app" in sys.modules}))
"""


def probe(module: str, root: Path) -> float:
    # cwd: the project, whose `generated` package must be the one found first.
    done = subprocess.run([sys.executable, "-c", PROBE, module], check=False,
                          env=bench_env(root), cwd=root, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"the import probe failed:\n{done.stderr[-3000:]}")
    result = json.loads(done.stdout)
    assert not result["user_code"], "importing a generated module must not import handlers"
    return float(result["seconds"])


def main(argv: list[str] | None = None) -> Figure:
    p = parser(__doc__.split("\n\n")[0], tools=1000, repeat=7)
    args = p.parse_args(argv)
    toolc = tool("toolc")
    if toolc is None:
        raise SystemExit("toolc is not installed in this environment: run bench/setup.sh")
    with workdir(args.workdir) as root:
        project = write_project(root / "import_time", args.tools, per_file=args.tools)
        run_timed([str(toolc), "build", "--no-certify"], project.root, bench_env())
        compileall.compile_dir(project.output, quiet=1)
        ours_module = f"generated.{module_name(0)}"
        ours = Side(f"import {ours_module} ({args.tools} tools)")
        peer = None
        if tool("datamodel-codegen"):
            run_timed(peer_command(project.root), project.root, bench_env())
            compileall.compile_dir(project.root / "peer_out", quiet=1)
            peer = Side(f"reference: import datamodel-codegen's {args.tools} models")
        probe(ours_module, project.root)
        for _ in range(args.repeat):
            ours.samples.append(probe(ours_module, project.root))
            if peer is not None:
                peer.samples.append(probe(f"peer_out.{module_name(0)}", project.root))
    figure = Figure(f"import of a generated module of {args.tools} tools", ours, peer, BUDGET,
                    "<= 100 ms", command_line("import_time.py", args,
                                              {"tools": 1000, "repeat": 7}), budget=True)
    publish(figure, args)
    return figure


if __name__ == "__main__":
    main(sys.argv[1:])
