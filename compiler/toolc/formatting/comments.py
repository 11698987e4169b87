"""Where a spec's comments are, as YAML reads them, and where its lines begin.

PyYAML drops comments, so they are found between the tokens of its own scanner (the one
the loader parses with): there is nothing else between two tokens but blanks, line
breaks and comments. A block scalar's token also holds its header line, where a comment
may follow ``|`` or ``>``. The same rule as ``# toolc: ignore[...]`` suppressions
(:mod:`toolc.suppressions`): a ``#`` inside a quoted string or a block scalar is text.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Any

import yaml  # type: ignore[import-untyped, unused-ignore]

# The line breaks of libyaml, whose marks the formatter reads (YAML 1.1 also breaks
# lines at NEL and the Unicode line and paragraph separators).
BREAKS = "\n\x85\u2028\u2029"
_COMMENT = re.compile(f"#[^{BREAKS}]*")
# Where a comment may begin: a `#` at the start of a line or after a blank. A text with
# none has no comment, and its tokens need not be read.
_MAYBE = re.compile(f"(?:^|(?<=[ \t{BREAKS}]))#", re.MULTILINE)
_HEADER_COMMENT = re.compile(r"[ \t]+(#.*)$")
_Scanner: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class Lines:
    """Offsets of the starts of a text's lines: index to (line, column), both from 0."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0] + [m.end() for m in re.finditer(f"[{BREAKS}]", text)]

    def line(self, index: int) -> int:
        return bisect.bisect_right(self.starts, index) - 1

    def col(self, index: int) -> int:
        return index - self.starts[self.line(index)]

    def content(self, line: int) -> str:
        """The text of ``line`` without its break ('' past the end)."""
        if line >= len(self.starts):
            return ""
        end = self.starts[line + 1] - 1 if line + 1 < len(self.starts) else len(self.text)
        return self.text[self.starts[line]:end]

    def blank(self, line: int) -> bool:
        return 0 <= line < len(self.starts) and not self.content(line).strip()


@dataclass(slots=True, eq=False)
class Comment:
    """One comment: its text from ``#`` (trailing blanks removed) and its place."""

    text: str
    line: int
    col: int
    own_line: bool  # nothing but blanks before it on its line
    blank_before: bool = False  # an own-line comment after a blank line (set by the tree)


def find_comments(text: str, lines: Lines) -> list[Comment]:
    """Every comment of ``text`` (which parses), in order."""
    if _MAYBE.search(text) is None:
        return []
    found: list[Comment] = []
    scanner = _Scanner(text)
    end = 0
    try:
        while (token := scanner.get_token()) is not None:
            start = token.start_mark.index
            if start > end:
                found += _in_gap(text, end, start, lines)
            if isinstance(token, yaml.ScalarToken) and token.style in ("|", ">"):
                found += _in_header(text, start, lines)
            end = max(end, token.end_mark.index)
    finally:
        scanner.dispose()
    if end < len(text):
        found += _in_gap(text, end, len(text), lines)
    return found


def comment_texts(text: str) -> list[str]:
    return [c.text for c in find_comments(text, Lines(text))]


def _in_gap(text: str, start: int, end: int, lines: Lines) -> list[Comment]:
    return [_comment(match.group(), match.start(), lines)
            for match in _COMMENT.finditer(text, start, end)]


def _in_header(text: str, start: int, lines: Lines) -> list[Comment]:
    """A comment on a block scalar's header line (``|-  # why``)."""
    header = lines.content(lines.line(start))[lines.col(start):]
    match = _HEADER_COMMENT.search(header)
    return [] if match is None else [_comment(match.group(1), start + match.start(1), lines)]


def _comment(raw: str, index: int, lines: Lines) -> Comment:
    line = lines.line(index)
    before = lines.content(line)[:lines.col(index)]
    return Comment(raw.rstrip(), line, lines.col(index), not before.strip())
