"""The ``repo`` fixture: a project with one spec, built and committed in a git repository;
helpers live in commands_support.py (on sys.path here)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from commands_support import SPEC, committed_project
from project_support import enter


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return committed_project(enter(tmp_path, monkeypatch), "notes.toolc.yaml", SPEC)
