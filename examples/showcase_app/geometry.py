"""The two drawing tools: one read-only, one destructive."""

from __future__ import annotations

import math
from typing import Any

from toolc.runtime import RunContext

_MM_PER_PX = 0.2645833333


def measure(ctx: RunContext[Any], start: Any, end: Any, unit: str = "px") -> dict[str, float]:
    distance = math.hypot(end.x - start.x, end.y - start.y)
    return {"distance": distance * _MM_PER_PX if unit == "mm" else distance}


def delete_shape(ctx: RunContext[Any], id: str, reason: str | None = None) -> str:
    suffix = f" ({reason})" if reason else ""
    return f"deleted {id}{suffix}"
