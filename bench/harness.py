"""What every benchmark script shares: timing, medians, the figure's verdict, the machine.

A figure compares two sides measured in the same run, interleaved (ours, peer, ours,
peer, ...) after one unmeasured warm-up of each, so that a burst of load from the other
users of the machine hits both sides alike. Only medians are reported. The ratio is
ours / peer and the target is the largest ratio that meets the figure; a figure with an
absolute budget (the import time) compares ours with the budget itself.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent


@dataclass(slots=True)
class Side:
    label: str
    samples: list[float] = field(default_factory=list)  # seconds

    @property
    def median(self) -> float:
        return statistics.median(self.samples)


@dataclass(slots=True)
class Figure:
    name: str
    ours: Side
    peer: Side | None            # None: the peer is not installed, or the budget is absolute
    target: float                # the largest ours/peer ratio (or, with budget, seconds) allowed
    target_text: str
    reproduce: str
    budget: bool = False         # the target is an absolute time for ours alone
    notes: list[str] = field(default_factory=list)

    @property
    def ratio(self) -> float | None:
        if self.budget:
            return self.ours.median / self.target
        return None if self.peer is None else self.ours.median / self.peer.median

    @property
    def met(self) -> bool | None:
        ratio = self.ratio
        return None if ratio is None else ratio <= (1.0 if self.budget else self.target)

    def report(self) -> str:
        ours = f"  {self.ours.label}: median {show(self.ours.median)} "
        lines = [f"== {self.name}", f"{ours}over {len(self.ours.samples)} runs"]
        if self.peer is not None:
            lines.append(f"  {self.peer.label}: median {show(self.peer.median)} "
                         f"over {len(self.peer.samples)} runs")
        ratio = self.ratio
        verdict = {True: "MET", False: "MISSED", None: "not measured (peer missing)"}[self.met]
        if self.budget:
            lines.append(f"  budget {show(self.target)}: {ratio:.2f} of it; {verdict}")
        elif ratio is not None:
            lines.append(f"  ratio {ratio:.3f}x (target {self.target_text}); {verdict}")
        else:
            lines.append(f"  target {self.target_text}; {verdict}")
        lines += [f"  note: {n}" for n in self.notes]
        lines.append(f"  reproduce: {self.reproduce}")
        return "\n".join(lines)

    def as_json(self) -> dict[str, object]:
        data = asdict(self)
        data.update(ratio=self.ratio, met=self.met, ours_median=self.ours.median,
                    peer_median=self.peer.median if self.peer else None)
        return data


def show(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.3f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.1f} us"


def interleave(ours: Callable[[], float], peer: Callable[[], float] | None, repeat: int,
               ours_side: Side, peer_side: Side | None, warmup: bool = True) -> None:
    """Run both sides ``repeat`` times, alternating, after one unmeasured run of each."""
    if warmup:
        ours()
        if peer is not None:
            peer()
    for _ in range(repeat):
        ours_side.samples.append(ours())
        if peer is not None and peer_side is not None:
            peer_side.samples.append(peer())


def run_timed(argv: Sequence[str], cwd: Path, env: dict[str, str] | None = None,
              before: Callable[[], None] | None = None) -> float:
    """Wall time of one command; ``before`` runs first, untimed (to clear outputs)."""
    if before is not None:
        before()
    started = time.perf_counter()
    done = subprocess.run(list(argv), check=False, cwd=cwd, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{shlex.join(argv)} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return elapsed


def tool(name: str) -> Path | None:
    """An executable of this interpreter's environment (toolc, datamodel-codegen)."""
    path = Path(sys.executable).parent / name
    return path if path.exists() else None


def has_module(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is not None


def bench_env(*extra_paths: Path) -> dict[str, str]:
    """The environment for child processes: no CI (a CI build would only check).

    ``extra_paths`` go before any inherited PYTHONPATH, which is kept: `versus.py` runs
    a script against an earlier toolc by putting its source first on PYTHONPATH."""
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if extra_paths:
        inherited = [env["PYTHONPATH"]] if env.get("PYTHONPATH") else []
        env["PYTHONPATH"] = os.pathsep.join([str(p) for p in extra_paths] + inherited)
    return env


def remove(path: Path) -> Callable[[], None]:
    return lambda: shutil.rmtree(path, ignore_errors=True)


@contextmanager
def workdir(keep: Path | None = None) -> Iterator[Path]:
    """A scratch folder for the synthetic projects: ``keep`` if given, else a temp one."""
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        yield keep
        return
    path = Path(tempfile.mkdtemp(prefix="toolc-bench-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def machine() -> dict[str, str]:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return {"uname": " ".join(platform.uname()), "cpu": cpu, "cores": str(os.cpu_count()),
            "python": sys.version.split()[0], "load": load,
            "date": time.strftime("%Y-%m-%d %H:%M:%S %Z")}


def parser(description: str, *, tools: int | None = None, repeat: int = 5) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=description)
    if tools is not None:
        p.add_argument("--tools", type=int, default=tools, help=f"tools (default {tools})")
    p.add_argument("--repeat", type=int, default=repeat, help=f"measured runs per side "
                   f"(default {repeat})")
    p.add_argument("--workdir", type=Path, help="keep the synthetic projects here")
    p.add_argument("--json", type=Path, help="also append the figure as JSON to this file")
    return p


def command_line(script: str, args: argparse.Namespace, defaults: Mapping[str, object]) -> str:
    """The command that reproduces this run, from the repository root."""
    parts = ["bench/.venv/bin/python", f"bench/{script}"]
    for key, default in defaults.items():
        value = getattr(args, key, default)
        if value != default:
            flag = f"--{key.replace('_', '-')}"
            parts += [flag] if value is True else [flag, str(value)]
    return shlex.join(parts)


def publish(figure: Figure, args: argparse.Namespace) -> None:
    info = machine()
    print(f"# {info['date']}  load {info['load']}  python {info['python']}  {info['cpu']}")
    print(figure.report(), flush=True)
    if args.json is not None:
        with open(args.json, "a", encoding="utf-8") as f:
            f.write(json.dumps({**figure.as_json(), "machine": info}) + "\n")


def import_generated(project_root: Path, handlers: Path, module: str) -> object:
    """Import ``generated.<module>`` of one synthetic project, in this process.

    Every project's output package is called ``generated``: an earlier project's
    package (another script of run_all) is forgotten first.
    """
    import importlib

    for name in [n for n in sys.modules if n == "generated" or n.startswith("generated.")]:
        del sys.modules[name]
    sys.path[:0] = [str(project_root), str(handlers)]
    importlib.invalidate_caches()
    return importlib.import_module(f"generated.{module}")
