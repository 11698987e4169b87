"""Handlers of tests/fixtures/valid/workbench: a sync one and an async one."""

from __future__ import annotations

from typing import Any

from generated_workbench.workbench import SaveNoteResult, Severity
from toolc import runtime as rt


def read_log(ctx: rt.RunContext[Any], *, lines: int = 50, level: Severity | None = None) -> str:
    return f"{lines} lines at {level or 'any'} level"


async def save_note(ctx: rt.RunContext[Any], *, text: str) -> SaveNoteResult:
    return SaveNoteResult(line=len(text))
