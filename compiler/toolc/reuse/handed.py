"""What the stages of a build are handed to reuse: plain data, filled by this package.

Each stage takes what it is handed as it is and makes the rest; none knows where it came
from (the records of the last clean build, a warm process's memory) or imports this
package. An empty ``Handed``: everything is made anew.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..certify.verdicts import Verdict
    from ..diff import ToolSet
    from ..frontend import Replay
    from ..specs import KeptSpec


@dataclass(slots=True)
class Handed:
    """By the stage that takes it: what is reused instead of made."""

    # load: each spec's loaded form, by path, taken while its bytes are the same
    known: dict[Path, KeptSpec] | None = None
    # load and analyse: specs whose analysis is not run again, and what it said
    analysis: Replay | None = None
    # publish: module -> its golden files (output path -> text), as made before
    golden: dict[str, dict[str, str]] = field(default_factory=dict)
    # publish: golden files found in the output as the build would write them, kept there
    kept: dict[str, str] = field(default_factory=dict)
    # generate: module -> its code; a module outside the project (its analysis handed) too
    code: dict[str, str] = field(default_factory=dict)
    # diff: golden files read back a moment ago (path in the golden folder -> identity, text)
    read: dict[str, tuple[list[int], str]] = field(default_factory=dict)
    # diff: the last build's new golden files, parsed (a file of the same text is not again)
    tools: ToolSet | None = None
    # certify: module -> its verdict, said again in place of serving the module
    verdicts: dict[str, Verdict] = field(default_factory=dict)
