"""The bundled workbench example works for a new user: real handlers behind real MCP."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client
from toolc.certify.staged_import import staged_package
from toolc.config import load_config
from toolc.frontend import compile_specs
from toolc.pipeline import render_outputs

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def workbench(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The workbench module as the current specs build it, notes kept in tmp_path."""
    import importlib

    monkeypatch.setenv("WORKBENCH_WORKSPACE", str(tmp_path / "workspace"))
    config = load_config(ROOT)
    compiled = compile_specs(config)
    assert compiled.project is not None
    with staged_package(render_outputs(compiled.project), config.python_path) as package:
        yield importlib.import_module(f"{package}.workbench")


async def approve(context: Any, params: Any) -> types.ElicitResult:
    return types.ElicitResult(action="accept", content={"confirm": True})


def test_workbench_over_mcp(workbench: Any, tmp_path: Path) -> None:
    from toolc.runtime import to_mcp_server

    async def session() -> None:
        server = to_mcp_server(workbench.toolset, name="workbench")
        async with Client(server, elicitation_callback=approve) as client:
            listed = [t.name for t in (await client.list_tools()).tools]
            assert listed == ["wb_readLog", "wb_saveNote", "wb_listNotes"]

            log = await client.call_tool("wb_readLog", {"lines": 3, "level": "warning"})
            assert log.content[0].text.splitlines() == [
                "2026-11-29 08:03:40 WARNING slow query: SELECT * FROM notes (812ms)",
                "2026-11-29 08:07:55 ERROR upstream timeout after 30s: GET /weather",
                "2026-11-29 08:12:44 WARNING disk usage at 81%",
            ]
            for text in ("first", "second ünïcode"):
                saved = await client.call_tool("wb_saveNote", {"text": text})
                assert not saved.is_error
            assert saved.structured_content == {"line": 2}

            notes = await client.call_tool("wb_listNotes", {"limit": 1})
            assert notes.structured_content == {"notes": [{"line": 2, "text": "second ünïcode"}]}

            too_long = await client.call_tool("wb_saveNote", {"text": "x" * 2001})
            assert too_long.is_error and "2000" in too_long.content[0].text

    anyio.run(session)
    rows = (tmp_path / "workspace" / "notes.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(r)["text"] for r in rows] == ["first", "second ünïcode"]


def test_over_long_note_is_refused_by_the_handler_itself(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Called directly (no schema in front), the handler answers with an error result."""
    import sys

    monkeypatch.setenv("WORKBENCH_WORKSPACE", str(tmp_path))
    monkeypatch.syspath_prepend(str(ROOT / "examples"))
    from toolc.runtime import RunContext, ToolResult
    from workbench_app.tools import save_note

    result = save_note(RunContext(deps=None), "y" * 2001)
    assert isinstance(result, ToolResult) and result.is_error
    assert "2001 characters long; the limit is 2000" in result.content[0].text
    assert not (tmp_path / "notes.jsonl").exists()
    sys.modules.pop("workbench_app.tools", None)
