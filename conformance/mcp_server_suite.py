#!/usr/bin/env python3
"""Run the official MCP conformance suite's server scenarios against `toolc serve`.

    .venv/bin/python conformance/mcp_server_suite.py [--version V] [--revision R]
        [--scenario NAME ...] [--cache DIR] [--node PATH] [--json FILE] [--keep]

1. Node 22 (the suite's engine): `--node`, else a `node` on PATH at version 22 or later,
   else npm's `node@22` package installed into the cache folder;
2. `@modelcontextprotocol/conformance@V` installed into the cache folder (npm, scripts
   off);
3. `toolc serve conformance/mcp/specs/everything.toolc.yaml --transport http` on a free
   port of 127.0.0.1 (the spec's tools are what the scenarios call);
4. the suite's server scenarios for revision R (`--requirements R`: the scenarios that
   revision requires, frozen at its release, and the few it runs unscored; a 0.1.x suite,
   which predates requirement sets, runs all its server scenarios);
5. a summary: each scenario in scope (toolc serves tools, so resources, prompts and
   completions are out of scope: listed, never counted) with its checks, failures and
   warnings. Exit status 1 when an in-scope scenario fails, 2 when the suite could not be
   installed or run.

Nothing is contacted but the npm registry (by npm) and 127.0.0.1 (by the suite, at the
URL it is given). See README.md beside this file.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SPEC = HERE / "mcp" / "specs" / "everything.toolc.yaml"
PACKAGE = "@modelcontextprotocol/conformance"
VERSION = "0.2.0-alpha.12"  # the newest on npm (2026-10-01); 0.1.16 is the newest 0.1.x
REVISION = "2025-11-25"  # the newest dated revision whose handshake the suite scores
# Scenarios about what toolc does not serve: resources, prompts, completions.
OUT_OF_SCOPE = re.compile(r"^(resources-|prompts-|completion-|sep-2164-|sep-2640-)")
PATIENCE_S = 600.0  # an install or a run that takes longer is stuck (a bound, not a verdict)


class SuiteUnavailable(Exception):
    """Node, npm or the suite could not be had (exit 2): the message says which and why."""


@dataclass
class Scenario:
    name: str
    checks: list[dict[str, Any]] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(1 for c in self.checks if c.get("status") == status)

    @property
    def in_scope(self) -> bool:
        return OUT_OF_SCOPE.match(self.name) is None

    @property
    def passed(self) -> bool:
        return self.count("FAILURE") == 0

    def problems(self) -> list[str]:
        return [f"{c.get('status')} {c.get('id')}: {c.get('errorMessage') or ''}".rstrip(": ")
                for c in self.checks if c.get("status") in ("FAILURE", "WARNING")]


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    cache = Path(args.cache).resolve()
    try:
        node = Path(args.node) if args.node else find_node(cache)
        entry = install_suite(cache, args.version)
    except SuiteUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    out = Path(tempfile.mkdtemp(prefix="toolc-mcp-conformance-"))
    try:
        with served(out / "serve.log") as url:
            scenarios = run_suite(node, entry, url, args.version, args.revision,
                                  args.scenario, out / "results")
    except SuiteUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    finally:
        if args.keep:
            print(f"results kept in {out}", file=sys.stderr)
        else:
            shutil.rmtree(out, ignore_errors=True)
    print(summary(scenarios, args.version, args.revision))
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"package": f"{PACKAGE}@{args.version}", "revision": args.revision,
             "scenarios": {s.name: {"in_scope": s.in_scope, "passed": s.passed,
                                    "checks": s.checks} for s in scenarios}},
            indent=2) + "\n", encoding="utf-8")
    return 0 if all(s.passed for s in scenarios if s.in_scope) else 1


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", default=VERSION, help=f"the suite's npm version ({VERSION})")
    parser.add_argument("--revision", default=REVISION,
                        help=f"the protocol revision whose scenarios run ({REVISION})")
    parser.add_argument("--scenario", action="append", default=[],
                        help="run only this scenario (repeatable)")
    parser.add_argument("--cache", default=str(HERE / ".mcp-suite"),
                        help="where Node and the suite are installed (git-ignored)")
    parser.add_argument("--node", help="a Node 22 (or later) executable to use")
    parser.add_argument("--json", help="write every scenario's checks to this file")
    parser.add_argument("--keep", action="store_true",
                        help="keep the suite's result folders and the server's log")
    return parser


# -- Node and the suite, from npm ----------------------------------------------------------

def find_node(cache: Path) -> Path:
    """A Node of version 22 or later: on PATH, else npm's `node@22` in the cache."""
    on_path = shutil.which("node")
    if on_path and _node_major(Path(on_path)) >= 22:
        return Path(on_path)
    installed = cache / "node22" / "node_modules" / ".bin" / "node"
    if not (installed.exists() and _node_major(installed) >= 22):
        _npm(cache, cache / "node22", "node@22", scripts=True)  # its script fetches the binary
    if not (installed.exists() and _node_major(installed) >= 22):
        raise SuiteUnavailable(f"npm installed node@22 but {installed} does not run")
    return installed


def _node_major(node: Path) -> int:
    try:
        done = subprocess.run([str(node), "--version"], capture_output=True, text=True,
                              timeout=60, check=False)
    except OSError:
        return 0
    found = re.match(r"v(\d+)\.", done.stdout.strip())
    return int(found.group(1)) if found and done.returncode == 0 else 0


def install_suite(cache: Path, version: str) -> Path:
    """The suite's entry point (dist/index.js), installed into the cache if missing."""
    prefix = cache / f"conformance-{version}"
    entry = prefix / "node_modules" / PACKAGE / "dist" / "index.js"
    if not entry.exists():
        _npm(cache, prefix, f"{PACKAGE}@{version}", scripts=False)
    if not entry.exists():
        raise SuiteUnavailable(f"npm installed {PACKAGE}@{version} without {entry}")
    return entry


def _npm(cache: Path, prefix: Path, package: str, *, scripts: bool) -> None:
    npm = shutil.which("npm")
    if npm is None:
        raise SuiteUnavailable("npm is not installed (it installs Node 22 and the suite)")
    prefix.mkdir(parents=True, exist_ok=True)
    command = [npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund",
               "--no-save", "--loglevel=error", *([] if scripts else ["--ignore-scripts"]),
               package]
    env = {**os.environ, "npm_config_cache": str(cache / "npm-cache"),
           "npm_config_update_notifier": "false"}
    print(f"installing {package} into {prefix} ...", file=sys.stderr)
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=env,
                              timeout=PATIENCE_S, check=False)
    except subprocess.TimeoutExpired:
        raise SuiteUnavailable(f"npm install {package} took over {PATIENCE_S:g} s") from None
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-5:]
        raise SuiteUnavailable(f"npm install {package} failed: " + " | ".join(tail))


# -- the server and the run ----------------------------------------------------------------

class served:
    """`toolc serve SPEC --transport http` on a free loopback port, stopped by its PID."""

    def __init__(self, log: Path) -> None:
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> str:
        port = _free_port()
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with self.log.open("wb") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "toolc", "serve", str(SPEC), "--transport", "http",
                 "--host", "127.0.0.1", "--port", str(port)],
                cwd=SPEC.parents[1], stdin=subprocess.DEVNULL, stdout=err, stderr=err)
        deadline = time.monotonic() + PATIENCE_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SuiteUnavailable(f"toolc serve ended: {self.log.read_text()[-2000:]}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return f"http://127.0.0.1:{port}/mcp"
            except OSError:
                time.sleep(0.1)
        raise SuiteUnavailable("toolc serve did not start listening")

    def __exit__(self, *exc_info: object) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=60)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run_suite(node: Path, entry: Path, url: str, version: str, revision: str,
              only: list[str], results: Path) -> list[Scenario]:
    """Every scenario's checks, as the suite saved them (one folder per scenario)."""
    selection = (["--suite", "all"] if version.startswith("0.1.")
                 else ["--requirements", revision])
    runs = [["--scenario", name] for name in only] or [selection]
    said = ""
    for picked in runs:
        command = [str(node), str(entry), "server", "--url", url, "-o", str(results), *picked]
        try:
            done = subprocess.run(command, capture_output=True, text=True,
                                  timeout=PATIENCE_S, check=False, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise SuiteUnavailable(f"the suite ran over {PATIENCE_S:g} s") from None
        said = (done.stderr or done.stdout).strip()
    scenarios = read_results(results)
    if not scenarios:  # (failed checks exit 1 too: only a run without results is broken)
        raise SuiteUnavailable(f"the suite saved no results: {said[-1000:]}")
    return scenarios


_FOLDER = re.compile(r"^server-(?P<name>.+)-\d{4}-\d\d-\d\dT[\d-]+Z$")


def read_results(results: Path) -> list[Scenario]:
    """The scenarios of the suite's result folders (`server-<name>-<timestamp>`)."""
    scenarios: list[Scenario] = []
    for folder in sorted(results.iterdir()) if results.is_dir() else ():
        found = _FOLDER.match(folder.name)
        checks = folder / "checks.json"
        if found and checks.is_file():
            scenarios.append(Scenario(found.group("name"),
                                      json.loads(checks.read_text(encoding="utf-8"))))
    return scenarios


def summary(scenarios: list[Scenario], version: str, revision: str) -> str:
    shown = "all server scenarios" if version.startswith("0.1.") else f"revision {revision}"
    lines = [(f"MCP conformance suite {PACKAGE}@{version}, {shown}, against toolc serve "
              f"{SPEC.relative_to(HERE.parent)}"), ""]
    scoped = [s for s in scenarios if s.in_scope]
    width = max((len(s.name) for s in scoped), default=10)
    for s in scoped:
        verdict = "pass" if s.passed else "FAIL"
        counts = f"{s.count('SUCCESS')} passed, {s.count('FAILURE')} failed"
        if s.count("WARNING"):
            counts += f", {s.count('WARNING')} warning(s)"
        lines.append(f"  {verdict}  {s.name:<{width}}  {counts}")
        lines.extend(f"          {p}" for p in s.problems())
    others = [s.name for s in scenarios if not s.in_scope]
    if others:
        lines += ["", f"out of scope (toolc serves tools only): {', '.join(others)}"]
    failing = [s.name for s in scoped if not s.passed]
    lines += ["", f"{len(scoped) - len(failing)} of {len(scoped)} in-scope scenarios pass"
              + (f"; failing: {', '.join(failing)}" if failing else "")]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
