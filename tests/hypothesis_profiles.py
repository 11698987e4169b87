"""The suite's hypothesis profiles, and the example counts of the tests that ask for more
or fewer examples than a profile's.

Two profiles, neither with a clock (a deadline or a too-slow health check fails on a busy
machine) nor an example database (a run depends on nothing an earlier run left), both
random (a test that wants the same examples every run says derandomize=True itself):

- ``ci``, loaded where ``CI`` is set to true (as CI services set it) or
  ``TOOLC_HYPOTHESIS_PROFILE=ci`` (as ``.ci/run`` sets it for the commands it runs, so that
  CI draws the thorough counts whoever calls it): hypothesis' own
  count of examples, and every explicit count as written in the tests;
- ``dev``, for everyone else (the README's test command): a quarter of each, so the tests
  a developer runs over and over stay cheap, and CI still draws the thorough amount.

``pytest --hypothesis-profile=ci`` draws CI's counts anywhere.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

CI_EXAMPLES = 100  # hypothesis' default, which every test without its own count ran
DEV_EXAMPLES = 25
# Below this a count stops exploring (a test asking for fewer gets what it asks for).
FEWEST = 3


def load() -> None:
    # From hypothesis' own defaults, not from whatever profile is loaded: hypothesis loads
    # its built-in "ci" profile (derandomized) wherever CI is set at all.
    common = settings(settings.get_profile("default"), deadline=None, database=None,
                      derandomize=False, suppress_health_check=[HealthCheck.too_slow])
    # print_blob: a failure in CI says how to reproduce it, random as the run was.
    settings.register_profile("ci", common, max_examples=CI_EXAMPLES, print_blob=True)
    settings.register_profile("dev", common, max_examples=DEV_EXAMPLES)
    asked = os.environ.get("TOOLC_HYPOTHESIS_PROFILE", "").strip()
    in_ci = os.environ.get("CI", "").strip().lower() in {"true", "1", "yes"}
    settings.load_profile(asked if asked in ("ci", "dev") else "ci" if in_ci else "dev")


def examples(in_ci: int) -> int:
    """The count for a test that draws ``in_ci`` examples in CI, scaled as the loaded
    profile scales hypothesis' default."""
    scaled = in_ci * settings().max_examples // CI_EXAMPLES
    return max(min(in_ci, FEWEST), scaled)
