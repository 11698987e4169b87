"""What is being typed, read from a buffer that need not be valid YAML."""

from __future__ import annotations

import pytest
from toolc.lsp.completion import Typing, typing_at

SPEC = """toolc: 1
module: m
tools:
  read:
    handler: app.to
    params:
      level: {type: Sev
toolsets:
  main:
    kind: function
    tools:
      - rea
  other: {kind: function, tools: [read, wr
  up:
    inner: ma
  short:
    kind: renamed
    inner: main
    names:
      rea
""".splitlines()


@pytest.mark.parametrize(("line", "expected"), [
    (5, Typing("handler", "app.to")),
    (7, Typing("type", "Sev")),
    (12, Typing("tools", "rea")),
    (13, Typing("tools", "wr")),
    (15, Typing("inner", "ma")),
    (20, Typing("names:", "rea")),
])
def test_the_key_and_what_is_typed(line: int, expected: Typing) -> None:
    assert typing_at(SPEC, line, len(SPEC[line - 1]) + 1) == expected


def test_nothing_past_the_text() -> None:
    assert typing_at(SPEC, 99, 1) is None
