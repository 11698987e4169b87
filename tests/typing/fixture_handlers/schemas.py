"""Handlers of tests/fixtures/valid/schemas: they echo what they were given."""

from __future__ import annotations

from typing import Any

from generated_schemas.schemas import (
    EverythingParamsPoint,
    EverythingParamsReasonDuplicate,
    EverythingParamsReasonNotPlanned,
    EverythingParamsSettings,
    EverythingResult,
    Folder,
    Level,
    LooseParamsScores,
    Shape,
    Tree,
)
from toolc import runtime as rt


def everything(
    ctx: rt.RunContext[Any],
    *,
    text: str,
    count: int,
    ratio: float | None,
    flag: bool,
    tags: list[str],
    mode: str | None,
    version: str,
    email: str,
    backup: str | None,
    level: Level,
    point: EverythingParamsPoint,
    labels: dict[str, str],
    anything: Any,
    either: int | str,
    exactly: int | str,
    tree: Tree | None,
    shape: Shape | None,
    pairs: list[list[int]] | None,
    notText: Any,
    folder: Folder | None,
    nested: Any,
    settings: EverythingParamsSettings,
    reason: EverythingParamsReasonDuplicate | EverythingParamsReasonNotPlanned | None,
) -> EverythingResult:
    seen = [text, count, point.x, settings.depth, tree.label if tree else None]
    return EverythingResult(ok=True, note=repr(seen))


def loose(
    ctx: rt.RunContext[Any], /, *, known: str, extra: bool, scores: LooseParamsScores,
    **more: Any
) -> dict[str, Any]:
    # `ctx, /`: undeclared parameters arrive as keyword arguments, and one may be "ctx".
    return {"known": known, "extra": sorted(more), "other_scores": scores.model_extra}
