"""The hypothesis profiles: CI draws the counts the tests ask for, a developer a quarter."""

from __future__ import annotations

from collections.abc import Iterator

import hypothesis_profiles
import pytest
from hypothesis import settings
from hypothesis_profiles import examples


@pytest.fixture
def reloaded(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """Profiles loaded again under the environment a test sets, then as the suite's."""
    monkeypatch.delenv("TOOLC_HYPOTHESIS_PROFILE", raising=False)  # .ci/run sets it
    yield monkeypatch
    monkeypatch.undo()
    hypothesis_profiles.load()


@pytest.mark.parametrize("value", ["true", "1", "TRUE"])
def test_in_ci_every_count_is_as_written(reloaded: pytest.MonkeyPatch, value: str) -> None:
    reloaded.setenv("CI", value)
    hypothesis_profiles.load()
    assert settings().max_examples == 100
    assert [examples(n) for n in (3, 25, 80, 300)] == [3, 25, 80, 300]


@pytest.mark.parametrize("value", [None, "", "false", "0"])
def test_elsewhere_counts_are_a_quarter_but_never_fewer_than_three(
        reloaded: pytest.MonkeyPatch, value: str | None) -> None:
    if value is None:
        reloaded.delenv("CI", raising=False)
    else:
        reloaded.setenv("CI", value)
    hypothesis_profiles.load()
    assert settings().max_examples == 25
    assert [examples(n) for n in (1, 3, 8, 25, 80, 300)] == [1, 3, 3, 6, 20, 75]


@pytest.mark.parametrize(("asked", "ci", "count"), [("ci", None, 100), ("dev", "true", 25),
                                                   ("nonsense", "true", 100)])
def test_the_profile_asked_by_name_wins_over_ci(reloaded: pytest.MonkeyPatch, asked: str,
                                                ci: str | None, count: int) -> None:
    """``.ci/run`` asks for ``ci`` by name; a name that is no profile is not obeyed."""
    reloaded.setenv("TOOLC_HYPOTHESIS_PROFILE", asked)
    if ci is None:
        reloaded.delenv("CI", raising=False)
    else:
        reloaded.setenv("CI", ci)
    hypothesis_profiles.load()
    assert settings().max_examples == count


def test_no_profile_has_a_clock_or_a_database() -> None:
    for name in ("ci", "dev"):
        profile = settings.get_profile(name)
        assert profile.deadline is None and profile.database is None
        assert profile.derandomize is False
