"""Where the JSON-Schema-Test-Suite's draft2020-12 core files are, fetched once if need be.

The `jsonschema` sdist ships the whole suite under `json/`; `pip download` of the sdist
(no dependencies, no wheel) is the only network use, and only when no `--suite` is given
and the cache is empty. The cache holds `tests/draft2020-12/*.json`, `remotes/` and the
suite's LICENSE.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DEFAULT_CACHE = HERE / ".suite"
_DRAFT = "draft2020-12"


@dataclass(frozen=True)
class Test:
    description: str
    data: Any
    valid: bool


@dataclass(frozen=True)
class Group:
    index: int
    description: str
    schema: Any
    tests: tuple[Test, ...]


@dataclass(frozen=True)
class KeywordFile:
    name: str            # e.g. "maxLength.json"
    groups: tuple[Group, ...]


def core_folder(suite: Path) -> Path:
    """The folder of draft2020-12 core files inside ``suite`` (a suite root, or the folder)."""
    for candidate in (suite / "tests" / _DRAFT, suite / _DRAFT, suite):
        if candidate.is_dir() and any(candidate.glob("*.json")):
            return candidate
    raise SystemExit(f"no {_DRAFT} test files under {suite}")


def obtain(cache: Path = DEFAULT_CACHE, python: str = sys.executable) -> Path:
    """The cached suite root; downloads the jsonschema sdist the first time."""
    marker = cache / "tests" / _DRAFT
    if marker.is_dir() and any(marker.glob("*.json")):
        return cache
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [python, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:",
             "jsonschema", "-d", tmp],
            check=True,
        )
        sdists = sorted(Path(tmp).glob("jsonschema-*.tar.gz"))
        if not sdists:
            raise SystemExit("pip download produced no jsonschema sdist")
        _extract_suite(sdists[-1], cache)
    return cache


def _extract_suite(sdist: Path, cache: Path) -> None:
    """Copy `json/` of the sdist (tests, remotes, LICENSE) into ``cache``; nothing else."""
    with tarfile.open(sdist) as tar:
        for member in tar.getmembers():
            parts = Path(member.name).parts
            if len(parts) < 3 or parts[1] != "json" or not member.isfile():
                continue
            inner = Path(*parts[2:])
            if ".." in inner.parts or inner.parts[0] not in ("tests", "remotes", "LICENSE"):
                continue
            target = cache / inner
            target.parent.mkdir(parents=True, exist_ok=True)
            source = tar.extractfile(member)
            assert source is not None
            target.write_bytes(source.read())


def core_files(suite: Path, only: list[str] | None = None) -> list[KeywordFile]:
    """The core keyword files (not `optional/`), in name order; ``only`` restricts them."""
    folder = core_folder(suite)
    wanted = {Path(n).name for n in only} if only else None
    files = []
    for path in sorted(folder.glob("*.json")):
        if wanted is not None and path.name not in wanted:
            continue
        files.append(_read(path))
    if wanted is not None:
        missing = wanted - {f.name for f in files}
        if missing:
            raise SystemExit(f"not in {folder}: {', '.join(sorted(missing))}")
    return files


def _read(path: Path) -> KeywordFile:
    raw = json.loads(path.read_text(encoding="utf-8"))
    groups = tuple(
        Group(i, g["description"], g["schema"],
              tuple(Test(t["description"], t["data"], bool(t["valid"])) for t in g["tests"]))
        for i, g in enumerate(raw)
    )
    return KeywordFile(path.name, groups)
