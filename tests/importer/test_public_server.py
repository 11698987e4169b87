"""A public MCP server, when one is installed: the reference `server-everything`.

Never downloaded here: install it with `npm install -g @modelcontextprotocol/server-everything`
(it puts `mcp-server-everything` on PATH) for this test to run; without it, it is skipped.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import anyio
import pytest
from forkserver_support import python_args
from import_support import canonical, golden_tools, import_project, list_stdio, run
from project_support import enter
from toolc.commands.build import run_build
from toolc.commands.import_specs import run_import
from toolc.importer.listing import Server, list_live
from toolc.importer.yamlout import first_difference

EVERYTHING = shutil.which("mcp-server-everything")

pytestmark = pytest.mark.skipif(
    EVERYTHING is None,
    reason="the public MCP server @modelcontextprotocol/server-everything is not installed "
           "(npm install -g @modelcontextprotocol/server-everything); tests never download it")


def test_a_public_server_round_trips(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    enter(import_project(tmp_path), monkeypatch)
    assert EVERYTHING is not None
    server = Server("everything", stdio={"command": EVERYTHING, "args": ["stdio"]})
    original = {t["name"]: t for t in anyio.run(list_live, server, 30.0).tools}
    assert len(original) > 3

    code, out, err = run(run_import, stdio=f"{EVERYTHING} stdio", http=None, saved=None,
                         config_file=None, module="everything", out_path=None)
    assert code == 0, out + err
    code, out, err = run(run_build, check=False, write=True, certify=True, fmt="text",
                         strict=False)
    assert code == 0, out + err
    golden = golden_tools(tmp_path, "everything")
    listed = anyio.run(list_stdio, sys.executable,
                       python_args("-m", "toolc", "serve", "--pinned",
                                   "specs/everything.toolc.yaml"),
                       tmp_path)
    assert sorted(golden) == sorted(original) == sorted(t["name"] for t in listed)
    for tool in listed:
        name = tool["name"]
        assert first_difference(canonical(original[name]), canonical(golden[name])) is None
        assert first_difference(canonical(original[name]), canonical(tool)) is None
