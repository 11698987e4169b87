#!/usr/bin/env python3
"""Run the JSON-Schema-Test-Suite (draft2020-12, core files) through toolc.

    .venv/bin/python conformance/run_suite.py [--suite DIR] [--files a.json ...]
        [--json FILE] [--markdown FILE] [--outcomes FILE]
        [--baseline FILE] [--jobs N] [--toolc PATH] [--no-certify] [--keep]

Each group becomes one tool with one parameter `x` whose schema is the group's schema,
built with the real `toolc build`, and each instance is called as `{"x": instance}`
through a real MCP client. Prints agreement per keyword file; exit 1 on any
disagreement. See README.md beside this file.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import report
import suite
import summary


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    root = Path(args.suite) if args.suite else suite.obtain(Path(args.cache))
    files = suite.core_files(root, args.files)
    toolc = args.toolc or _default_toolc()
    work = Path(tempfile.mkdtemp(prefix="toolc-conformance-"))
    started = time.monotonic()
    try:
        chunks = _chunks(files, max(1, args.jobs))
        jobs = [(i, [f.name for f in chunk], str(suite.core_folder(root)), toolc,
                 args.certify, str(work / f"p{i}"), args.invalid_pattern)
                for i, chunk in enumerate(chunks)]
        if len(jobs) == 1:
            parts = [run_chunk(*jobs[0])]
        else:
            with ProcessPoolExecutor(len(jobs)) as pool:
                parts = list(pool.map(_run_job, jobs))
    finally:
        if args.keep:
            print(f"projects kept in {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)
    result = report.combine(parts, str(root), toolc, time.monotonic() - started)
    print(report.table(result))
    if args.baseline:
        print(report.compare(json.loads(Path(args.baseline).read_text(encoding="utf-8")), result))
    if args.outcomes:
        compact = {k: result[k] for k in ("group_status", "outcomes")}
        Path(args.outcomes).write_text(json.dumps(compact, indent=0, ensure_ascii=False)
                                       + "\n", encoding="utf-8")
    if args.markdown:
        Path(args.markdown).write_text(summary.markdown(result), encoding="utf-8")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n",
                                   encoding="utf-8")
    return 1 if result["totals"]["disagreements"] else 0


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--suite", help="an existing suite folder (root, or the draft2020-12 one)")
    p.add_argument("--cache", default=str(suite.DEFAULT_CACHE),
                   help="where the downloaded suite is kept (default: conformance/.suite)")
    p.add_argument("--files", nargs="+", metavar="FILE", help="only these keyword files")
    p.add_argument("--json", metavar="FILE", help="write the full report, every disagreement")
    p.add_argument("--markdown", metavar="FILE",
                   help="write a summary: counts per class, top patterns with examples")
    p.add_argument("--outcomes", metavar="FILE",
                   help="write each instance's outcome in a word (a baseline for --baseline)")
    p.add_argument("--baseline", metavar="FILE",
                   help="compare with an --outcomes or --json file: fixed, broken, moved")
    p.add_argument("--jobs", type=int, default=1, help="projects built and called in parallel")
    p.add_argument("--toolc", help="the toolc executable (default: the worktree's .venv)")
    p.add_argument("--no-certify", dest="certify", action="store_false",
                   help="build with --no-certify (faster; certification is part of the contract)")
    p.add_argument("--invalid-pattern", metavar="REGEX",
                   help="what the first line of an invalid-arguments error matches "
                        "(default: 'invalid arguments' or 'arguments are invalid')")
    p.add_argument("--keep", action="store_true", help="keep the generated projects")
    return p


def _default_toolc() -> str:
    for candidate in (HERE.parent / ".venv" / "bin" / "toolc",
                      Path(sys.executable).parent / "toolc"):
        if candidate.exists():
            return str(candidate)
    return "toolc"


def _chunks(files: list[suite.KeywordFile], n: int) -> list[list[suite.KeywordFile]]:
    """``n`` batches of about equal numbers of instances."""
    n = min(n, len(files)) or 1
    batches: list[list[suite.KeywordFile]] = [[] for _ in range(n)]
    sizes = [0] * n
    weight = {f.name: sum(len(g.tests) + 1 for g in f.groups) for f in files}
    for f in sorted(files, key=lambda f: -weight[f.name]):
        i = sizes.index(min(sizes))
        batches[i].append(f)
        sizes[i] += weight[f.name]
    return [sorted(b, key=lambda f: f.name) for b in batches if b]


def _run_job(job: tuple[Any, ...]) -> dict[str, Any]:
    return run_chunk(*job)


def run_chunk(index: int, names: list[str], folder: str, toolc: str, certify: bool,
              work: str, invalid_pattern: str | None = None) -> dict[str, Any]:
    """Build one project of these keyword files, call every instance; plain-data result."""
    import importlib
    import logging

    import anyio
    import calls
    import project

    files = suite.core_files(Path(folder), names)
    root = Path(work)
    modules = project.plan(files)
    notes = project.build(root, modules, toolc, certify)
    sys.path.insert(0, str(root))
    importlib.import_module(project.HANDLERS)
    calls.forbid_network()
    if invalid_pattern:
        calls.INVALID_ARGUMENTS = re.compile(invalid_pattern, re.IGNORECASE)
    # The runtime logs each failed call with its traceback; the report holds the error.
    logging.getLogger("toolc").setLevel(logging.CRITICAL)

    async def all_calls() -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        for m in modules:
            rows.extend(await calls.call_module(root, m))
        return rows

    rows = anyio.run(all_calls)
    return {"groups": [report.group_record(g) for m in modules for g in m.groups],
            "rows": calls.jsonable(rows), "notes": notes}


if __name__ == "__main__":
    sys.exit(main())
