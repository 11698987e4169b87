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


# A toolset whose handlers ask their caller (toolc.runtime.client): each adapter either
# answers through its framework's equivalent or refuses saying what and where.
async def _ask(ctx: Any) -> str:
    answer = await ctx.elicit("Which colour?", {"type": "object", "properties": {
        "colour": {"type": "string", "enum": ["red", "blue"]}}})
    return str(answer.content)


async def _shade(ctx: Any) -> str:
    reply = await ctx.sample("Name a shade of blue.", max_tokens=20, system_prompt="Be brief.")
    return f"the model says: {reply.text}"


async def _steps(ctx: Any) -> str:
    for step in (1, 2):
        await ctx.report_progress(step, 2, f"step {step}")
    await ctx.log("info", "stepped")
    return "stepped"


def asking_toolset() -> Any:
    from toolc import runtime as rt

    empty = {"type": "object", "properties": {}, "additionalProperties": False}
    return rt.FunctionToolset([rt.Tool(name, f"{name}.", handler=handler, input_schema=empty)
                               for name, handler in (("ask", _ask), ("shade", _shade),
                                                     ("steps", _steps))])


NO_ELICIT = "ctx.elicit is not available in {} (no MCP client made this call): there is no user"
