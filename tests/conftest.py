"""Fixtures every test folder may use; the helpers at this level (net_support, ...) are
importable from every folder."""

from __future__ import annotations

import contextlib
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis.configuration import set_hypothesis_home_dir

if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))

import forkserver_support
import hypothesis_profiles
from mypy_ahead import StrictAhead
from mypy_cache_support import session_cache

ROOT = Path(__file__).resolve().parents[1]

# The "dev" profile (fewer examples) unless CI is set: hypothesis_profiles says which.
hypothesis_profiles.load()


# Hypothesis keeps what it learns (constants it finds in the source, as test modules are
# collected) in a temporary folder of this run, not in .hypothesis/ of the repository.
_HYPOTHESIS_HOME = Path(tempfile.mkdtemp(prefix="toolc-tests-hypothesis-"))
set_hypothesis_home_dir(_HYPOTHESIS_HOME)


def pytest_sessionstart(session: pytest.Session) -> None:
    forkserver_support.start()  # (it imports while the tests are collected)


# The strict mypy gate, started once the tests are collected if it is among them.
_STRICT: list[StrictAhead] = []
MYPY = Path(sys.executable).parent / "mypy"


def pytest_collection_finish(session: pytest.Session) -> None:
    if (not session.config.option.collectonly and MYPY.exists()
            and any(item.name == "test_mypy_strict_is_clean" for item in session.items)):
        _STRICT.append(StrictAhead(ROOT, str(MYPY)))


def pytest_unconfigure(config: pytest.Config) -> None:
    for ahead in _STRICT:
        ahead.close()
    shutil.rmtree(_HYPOTHESIS_HOME, ignore_errors=True)


@pytest.fixture(scope="session")
def strict_ahead() -> StrictAhead:
    """The gate's strict run over the package, started ahead (see mypy_ahead)."""
    if not MYPY.exists():
        pytest.skip("mypy is not installed (pip install -e '.[test]')")
    if not _STRICT:  # (collected in a way the hook did not see)
        _STRICT.append(StrictAhead(ROOT, str(MYPY)))
    return _STRICT[0]


@pytest.fixture(scope="session")
def mypy_caches(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[str], Path]]:
    """The session's mypy caches, one per set of options (``"strict"``: ``--strict`` or
    a configuration that says ``strict = true``; ``"projects"``: the test projects' own
    configurations). Each lives in the session's temporary folder, so nothing is written
    into the repository and two suites running at once never write one cache; each starts
    from the cache the last run of this checkout kept and is kept in turn
    (mypy_cache_support)."""
    with contextlib.ExitStack() as stack:
        made: dict[str, Path] = {}

        def cache(flavour: str) -> Path:
            if flavour == "strict" and _STRICT:
                return _STRICT[0].wait()  # (never two mypy runs on one cache at once)
            if flavour not in made:
                folder = tmp_path_factory.mktemp(f"mypy-cache-{flavour}")
                made[flavour] = stack.enter_context(session_cache(ROOT, folder, flavour))
            return made[flavour]

        yield cache


@pytest.fixture(scope="session")
def mypy_cache(mypy_caches: Callable[[str], Path]) -> Path:
    """The cache of the session's strict mypy runs (the package, the generated code, a
    user wrapper, the README's project): the first pays for pydantic and toolc.runtime,
    the others reuse them. The first is the gate's over the package when it is among the
    tests (started ahead: mypy_ahead)."""
    return mypy_caches("strict")
