"""Before and after: bench scripts run alternately against an earlier commit's toolc.

    bench/.venv/bin/python bench/versus.py ef433ff serving call_overhead [--rounds 3]
        [-- --repeat 9]

The figures' own ratios (toolc / peer, measured side by side within each run) are what
is compared: each round runs every named script once with the earlier toolc (a detached
git worktree of REV, its `compiler/` first on PYTHONPATH, children included) and once
with this checkout's, alternately, so that a machine whose speed drifts hits both alike.
Printed per figure: each run's ratio and the median for before and after. The scripts
themselves (and the peers) are this checkout's, so only toolc differs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def worktree(rev: str, into: Path) -> Path:
    """A detached checkout of ``rev`` (removed by the caller with `git worktree remove`)."""
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(into),
                    rev], check=True)
    return into


def run_script(script: str, args: list[str], source: Path | None, out: Path) -> None:
    """One run of ``bench/<script>.py``; its figures appended to ``out`` as JSON lines."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if source is not None:
        env["PYTHONPATH"] = str(source / "compiler")
    command = [sys.executable, str(HERE / f"{script}.py"), *args, "--json", str(out)]
    subprocess.run(command, check=True, env=env, cwd=ROOT, stdout=subprocess.DEVNULL)


def ratios(path: Path) -> dict[str, list[float]]:
    found: dict[str, list[float]] = defaultdict(list)
    if path.exists():
        for line in path.read_text().splitlines():
            figure = json.loads(line)
            if figure.get("ratio") is not None:
                found[figure["name"]].append(figure["ratio"])
    return found


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    passed: list[str] = []
    if "--" in argv:
        at = argv.index("--")
        argv, passed = argv[:at], argv[at + 1:]
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("rev", help="the earlier commit (anything git rev-parse takes)")
    p.add_argument("scripts", nargs="+", help="bench script names, e.g. serving")
    p.add_argument("--rounds", type=int, default=3, help="runs per side (default 3)")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="toolc-versus-") as scratch:
        base = Path(scratch)
        before = worktree(args.rev, base / "before")
        try:
            for round_ in range(args.rounds):
                for script in args.scripts:
                    print(f"round {round_ + 1}/{args.rounds}: {script}", flush=True)
                    run_script(script, passed, before, base / "before.jsonl")
                    run_script(script, passed, None, base / "after.jsonl")
        finally:  # (what was measured is shown even when a later run failed)
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(before)], check=False)
            show(args.rev, ratios(base / "before.jsonl"), ratios(base / "after.jsonl"))


def show(rev: str, old: dict[str, list[float]], new: dict[str, list[float]]) -> None:
    print(f"\n# before = {rev}, after = this checkout; ratio toolc / peer per run")
    for name in sorted(old.keys() | new.keys()):
        a, b = old.get(name, []), new.get(name, [])
        shown = (f"before {statistics.median(a):.3f} ({', '.join(f'{r:.3f}' for r in a)})"
                 if a else "before -")
        shown_b = (f"after {statistics.median(b):.3f} ({', '.join(f'{r:.3f}' for r in b)})"
                   if b else "after -")
        print(f"== {name}\n  {shown}\n  {shown_b}")


if __name__ == "__main__":
    main()
