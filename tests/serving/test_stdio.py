"""`toolc serve` over stdio answers, per JSON-RPC 2.0, every line it cannot read (not
JSON, a batch, no request), and refuses a second initialize: a real subprocess fed raw
lines, as a client with a bug or an old habit would send them."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from toolc.serving.stdio import INVALID_REQUEST, PARSE_ERROR, answer

sys.path.insert(0, str(Path(__file__).parents[1]))

from project_support import desk_project
from serve_support import INITIALIZE, INITIALIZED, toolc_cmd

LIST = {"jsonrpc": "2.0", "id": 9, "method": "tools/list"}
PATIENCE_S = 120.0  # a bound on waiting for replies, never a verdict on speed


def served_lines(project: Path, *lines: str, replies: int) -> list[dict[str, Any]]:
    """The first ``replies`` messages `toolc serve` writes to stdout for ``lines`` (stdin
    is closed only then: at the end of its input a server may drop what is in flight)."""
    proc = subprocess.Popen(toolc_cmd("serve", "specs/desk.toolc.yaml"), cwd=project,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    watchdog = threading.Timer(PATIENCE_S, proc.kill)  # a reply never sent fails, not hangs
    watchdog.start()
    try:
        proc.stdin.write("".join(f"{line}\n" for line in lines))
        proc.stdin.flush()
        got = [json.loads(proc.stdout.readline() or "null") for _ in range(replies)]
        assert None not in got, f"fewer than {replies} replies: {got}"
        proc.stdin.close()
        proc.wait(timeout=300)
        err = proc.stderr.read() if proc.stderr else ""
    finally:
        watchdog.cancel()
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=60)
    assert proc.returncode == 0 and "Traceback" not in err, err
    return got


def test_unreadable_lines_are_answered_and_serving_goes_on(tmp_path: Path) -> None:
    replies = served_lines(
        desk_project(tmp_path),
        "{not json",
        json.dumps([INITIALIZE, INITIALIZED]),  # a batch: removed from MCP in 2025-06-18
        "[]",
        json.dumps({"jsonrpc": "2.0", "id": 7, "method": 5}),  # no request, but an id
        json.dumps({"id": 8}),
        json.dumps({"jsonrpc": "2.0", "id": 3, "result": 1, "error": {}}),  # a response: no reply
        '"just a string"',
        json.dumps(INITIALIZE), json.dumps(INITIALIZED), json.dumps(LIST), replies=8)
    shown = [(r.get("id"), r["error"]["code"]) if "error" in r else (r.get("id"), "result")
             for r in replies]
    assert shown == [(None, PARSE_ERROR), (None, INVALID_REQUEST), (None, INVALID_REQUEST),
                     (7, INVALID_REQUEST), (8, INVALID_REQUEST), (None, INVALID_REQUEST),
                     (1, "result"), (9, "result")]
    assert "batch" in replies[1]["error"]["message"]
    assert [t["name"] for t in replies[-1]["result"]["tools"]] == ["echo", "boom", "refuse",
                                                                   "shred"]


def test_a_second_initialize_on_the_connection_is_refused(tmp_path: Path) -> None:
    again = {**INITIALIZE, "id": 2, "params": {**INITIALIZE["params"],
                                               "protocolVersion": "2024-11-05"}}
    first, second, listed = served_lines(desk_project(tmp_path), json.dumps(INITIALIZE),
                                         json.dumps(INITIALIZED), json.dumps(again),
                                         json.dumps(LIST), replies=3)
    assert first["result"]["protocolVersion"] == "2025-06-18"
    assert second["id"] == 2 and second["error"]["code"] == INVALID_REQUEST
    assert "initialized already" in second["error"]["message"]
    assert listed["id"] == 9 and "tools" in listed["result"]  # the first handshake stands


class NotPydantic(Exception):
    pass


@pytest.mark.parametrize(("exc", "expected"), [
    (NotPydantic("broken pipe text"), (None, PARSE_ERROR)),
])
def test_an_exception_that_is_no_validation_error_is_a_parse_error(
        exc: Exception, expected: tuple[Any, int]) -> None:
    reply = answer(exc)
    assert reply is not None and (reply["id"], reply["error"]["code"]) == expected
