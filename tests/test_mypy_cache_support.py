"""The kept mypy cache: one per checkout, swapped in whole, never in the repository."""

from __future__ import annotations

from pathlib import Path

import mypy_cache_support
import pytest
from mypy_cache_support import CURRENT, keep, kept_cache_home, session_cache, take


def test_two_checkouts_never_share_a_kept_cache(tmp_path: Path) -> None:
    env = {"XDG_CACHE_HOME": str(tmp_path / "xdg")}
    one, other = tmp_path / "one", tmp_path / "other"
    assert kept_cache_home(one, "strict", env) == kept_cache_home(one, "strict", env)
    assert kept_cache_home(one, "strict", env) != kept_cache_home(other, "strict", env)
    assert kept_cache_home(one, "strict", env).is_relative_to(tmp_path / "xdg")


def test_runs_with_other_options_keep_caches_of_their_own(tmp_path: Path) -> None:
    env = {"XDG_CACHE_HOME": str(tmp_path / "xdg")}
    assert kept_cache_home(tmp_path, "strict", env) != kept_cache_home(tmp_path, "projects", env)


def test_a_kept_cache_is_taken_by_the_next_session(tmp_path: Path) -> None:
    home, first, second = tmp_path / "home", tmp_path / "first", tmp_path / "second"
    (first / "3.11").mkdir(parents=True)
    (first / "3.11" / "cache.db").write_bytes(b"entries")
    keep(home, first)
    second.mkdir()
    take(home, second)
    assert (second / "3.11" / "cache.db").read_bytes() == b"entries"


def test_a_newer_cache_replaces_the_kept_one_whole(tmp_path: Path) -> None:
    home, old, new, taken = (tmp_path / name for name in ("home", "old", "new", "taken"))
    for cache, name in ((old, "old.json"), (new, "new.json")):
        cache.mkdir()
        (cache / name).write_text(name)
    keep(home, old)
    keep(home, new)
    taken.mkdir()
    take(home, taken)
    assert sorted(p.name for p in taken.iterdir()) == ["new.json"]
    assert sorted(p.name for p in home.iterdir()) == [CURRENT, "lock"]


def test_a_session_that_ran_no_mypy_keeps_the_cache_it_found(tmp_path: Path) -> None:
    home, full, empty, taken = (tmp_path / name for name in ("home", "full", "empty", "t"))
    full.mkdir()
    (full / "cache.db").write_bytes(b"entries")
    empty.mkdir()
    keep(home, full)
    keep(home, empty)
    taken.mkdir()
    take(home, taken)
    assert (taken / "cache.db").read_bytes() == b"entries"


def test_where_nothing_can_be_kept_the_session_runs_cold(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setattr(mypy_cache_support, "kept_cache_home",
                        lambda root, flavour: blocked / "home")
    cache = tmp_path / "cache"
    cache.mkdir()
    with session_cache(tmp_path, cache, "strict") as given:
        (given / "cache.db").write_bytes(b"entries")
    assert given == cache
    assert blocked.read_text() == "not a folder"
