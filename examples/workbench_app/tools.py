"""Handlers of the workbench tools.

``readLog`` reads a real log file (``WORKBENCH_LOG``, by default the sample log shipped
beside this module); ``saveNote`` and ``listNotes`` keep notes in
``workspace/notes.jsonl`` under the current folder (``WORKBENCH_WORKSPACE`` moves it).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from toolc.runtime import RunContext, ToolResult

LEVELS = ("debug", "info", "warning", "error")
MAX_NOTE = 2000


def _log_path() -> Path:
    return Path(os.environ.get("WORKBENCH_LOG", Path(__file__).with_name("server.log")))


def _notes_path() -> Path:
    return Path(os.environ.get("WORKBENCH_WORKSPACE", "workspace")) / "notes.jsonl"


def _level_of(line: str) -> str:
    for level in LEVELS:
        if f" {level.upper()} " in f" {line} ":
            return level
    return "info"


def read_log(ctx: RunContext[Any], lines: int = 50, level: str | None = None) -> str:
    """The newest ``lines`` lines of the log, only those at or above ``level``."""
    text = _log_path().read_text(encoding="utf-8")
    rows = text.splitlines()
    if level is not None:
        floor = LEVELS.index(level)
        rows = [r for r in rows if LEVELS.index(_level_of(r)) >= floor]
    return "\n".join(rows[-lines:])


def save_note(ctx: RunContext[Any], text: str) -> ToolResult | dict[str, int]:
    """Append a note; an over-long one is refused with an error result the model can read."""
    if len(text) > MAX_NOTE:
        return ToolResult.error(f"note is {len(text)} characters long; the limit is {MAX_NOTE}")
    path = _notes_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps({"text": text}, ensure_ascii=False) + "\n")
    with path.open(encoding="utf-8") as f:
        count = sum(1 for _ in f)
    return {"line": count}


def list_notes(ctx: RunContext[Any], limit: int = 10) -> dict[str, list[dict[str, Any]]]:
    """The last ``limit`` notes, oldest first, with their line numbers."""
    path = _notes_path()
    if not path.exists():
        return {"notes": []}
    rows = path.read_text(encoding="utf-8").splitlines()
    first = max(0, len(rows) - limit)
    notes = [{"line": i + 1, "text": json.loads(rows[i])["text"]} for i in range(first, len(rows))]
    return {"notes": notes}
