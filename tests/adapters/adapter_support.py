"""What every adapter test checks: the schema a framework would send to a model is the
golden file's, with every description at its JSON pointer (certification's comparison)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolc.runtime.json_pointers import json_differences, resolve_pointer

GOLDEN = Path(__file__).resolve().parents[2] / "generated" / "schemas"


def golden(module: str, name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((GOLDEN / module / f"{name}.json").read_text("utf-8"))
    return loaded


def description_pointers(document: Any, pointer: str = "") -> dict[str, str]:
    """Every `description` in a schema, by JSON pointer."""
    found: dict[str, str] = {}
    if isinstance(document, dict):
        for key, value in document.items():
            here = f"{pointer}/{key.replace('~', '~0').replace('/', '~1')}"
            if key == "description" and isinstance(value, str):
                found[here] = value
            else:
                found.update(description_pointers(value, here))
    elif isinstance(document, list):
        for i, value in enumerate(document):
            found.update(description_pointers(value, f"{pointer}/{i}"))
    return found


def assert_sent_as_published(module: str, name: str, description: Any, schema: Any) -> None:
    """The tool `name` as a framework sends it equals its golden file."""
    want = golden(module, name)
    assert description == want["description"], name
    pointers = description_pointers(want["inputSchema"])
    lost = [p for p, text in pointers.items() if resolve_pointer(schema, p) != text]
    assert not lost, f"{name}: descriptions lost at {lost}"
    assert json_differences(want["inputSchema"], schema) == [], name


@dataclass
class Deps:
    """The showcase's deps: its predicate and prepare function read these."""

    drawing_disabled: bool = False
    read_only: bool = False
