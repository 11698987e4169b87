"""The incremental-build tests' project lives in incremental_support.py (on sys.path here)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
