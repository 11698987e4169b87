"""Trees written whole, for the tests of the output's writing: the product stages a
build's files in batches as they are made (``StagedTree.add``, then ``commit``), a test
often wants one batch at once."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from toolc.output.plan import Plan
from toolc.output.staging import StagedTree


def stage_tree(out: Path, files: Mapping[str, str], *, meanwhile: bool = False) -> StagedTree:
    """A ``StagedTree`` of ``out`` holding ``files`` (one batch)."""
    staged = StagedTree(out)
    staged.add(files, meanwhile=meanwhile)
    return staged


def write_tree(out: Path, files: Mapping[str, str], extra: Mapping[str, Any] | None = None) -> Plan:
    """Make ``out`` hold exactly ``files`` (plus the user's own files), atomically;
    ``extra`` is written too but not counted as a change (the manifest's own data)."""
    return stage_tree(out, files).commit(files, extra)
