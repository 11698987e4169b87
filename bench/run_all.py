"""Run every figure of issue 6 in one go and print a summary.

    bench/.venv/bin/python bench/run_all.py                # full sizes (several minutes)
    bench/.venv/bin/python bench/run_all.py --smoke        # tiny sizes: the scripts still run
    bench/.venv/bin/python bench/run_all.py --only serving --json results.jsonl
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

import call_overhead
import codegen
import full_build
import growth
import import_time
import incremental
import lsp
import noop_rebuild
import scale
import serving
import watch
from harness import Figure, machine, show

# Each script's main, its arguments at full size and at smoke size.
SCRIPTS: dict[str, tuple[Callable[[list[str]], object], list[str], list[str]]] = {
    "codegen": (codegen.main, [], ["--tools", "20", "--repeat", "1"]),
    "full_build": (full_build.main, [], ["--tools", "20", "--repeat", "1"]),
    "growth": (growth.main, [], ["--tools", "20", "--keys", "200", "--chars", "20000",
                                 "--values", "200", "--repeat", "1"]),
    "scale": (scale.main, [], ["--tools", "20", "--repeat", "1"]),
    "noop_rebuild": (noop_rebuild.main, [], ["--tools", "20", "--repeat", "1"]),
    "call_overhead": (call_overhead.main, [], ["--calls", "50", "--repeat", "1"]),
    "import_time": (import_time.main, [], ["--tools", "20", "--repeat", "1"]),
    "serving": (serving.main, [], ["--tools", "20", "--calls", "5", "--lists", "2",
                                   "--repeat", "1", "--agents", "2", "--balanced-calls", "8"]),
    "incremental": (incremental.main, [], ["--tools", "40", "--repeat", "1"]),
    "watch": (watch.main, [], ["--tools", "40", "--repeat", "1", "--no-certify"]),
    "lsp": (lsp.main, [], ["--tools", "40", "--repeat", "2", "--edits", "10", "--no-watch"]),
}


def main(argv: list[str] | None = None) -> list[Figure]:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--smoke", action="store_true", help="tiny sizes, one run per side")
    p.add_argument("--only", action="append", choices=sorted(SCRIPTS),
                   help="run only this script (repeatable)")
    p.add_argument("--json", type=Path, help="append every figure as JSON to this file")
    args = p.parse_args(argv)
    extra = ["--json", str(args.json)] if args.json else []
    figures: list[Figure] = []
    for name, (run, full, smoke) in SCRIPTS.items():
        if args.only and name not in args.only:
            continue
        result = run((smoke if args.smoke else full) + extra)
        figures += result if isinstance(result, list) else [result]  # type: ignore[list-item]
    info = machine()
    print(f"\n# summary  {info['date']}  {info['uname']}")
    print(f"# {info['cpu']} ({info['cores']} cores), Python {info['python']}, "
          f"load {info['load']}")
    for f in figures:
        peer = show(f.peer.median) if f.peer else "-"
        ratio = f"{f.ratio:.3f}" if f.ratio is not None else "-"
        verdict = {True: "met", False: "MISSED", None: "n/a"}[f.met]
        print(f"{f.name:<62} {show(f.ours.median):>10} {peer:>10} {ratio:>7} "
              f"{f.target_text:<12} {verdict}")
    return figures


if __name__ == "__main__":
    main(sys.argv[1:])
