"""YAML syntax errors told as the mistake a person made, at the line they made it on.

libyaml says what its scanner met (``found character that cannot start any token``,
``did not find expected key``) where it met it, which is often not the line to fix: a
key indented one space too far is noticed at the key after it. :func:`explain` looks
at the text around the error for the three mistakes behind most of them: a tab in the
indentation, a key indented to no level of the keys around it, and a ``: `` inside an
unquoted value. Where none fits, libyaml's own words are kept.

The look at the text is line by line and does not parse YAML again: a line it cannot
read as a key or a list item (a value going on over lines, a block scalar, a flow
collection over lines) is passed over, and then nothing is claimed about it.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Explained:
    """What to report: the message (after ``YAML syntax error: ``), where, and notes."""

    message: str
    line: int
    col: int
    notes: tuple[str, ...] = ()


def explain(problem: str, text: str, line: int, col: int,
            opened: tuple[str, int, int] | None = None) -> Explained:
    """libyaml's ``problem`` at ``line``:``col`` of ``text``, said as the mistake behind it;
    ``opened``: libyaml's context (``while parsing a flow mapping``) and where it began."""
    lines = text.splitlines()
    tab = _tab(problem, lines, line, col)
    if tab is not None:
        return tab
    unclosed = _unclosed(problem, lines, line, opened)
    if unclosed is not None:
        return unclosed
    if problem.startswith("mapping values are not allowed"):
        if _colon_in_value(lines, line, col):
            return Explained(problem, line, col, _colon_notes(lines, line))
        indented = _indentation(lines, line)
        return indented or Explained(problem, line, col, _colon_notes(lines, line))
    if problem.startswith(("did not find expected key", "did not find expected '-'")):
        indented = _indentation(lines, line)
        if indented is not None:
            return indented
    return Explained(problem, line, col)


# -- tabs ---------------------------------------------------------------------------

def _tab(problem: str, lines: list[str], line: int, col: int) -> Explained | None:
    """A tab in the indentation of the error's line (libyaml: `found character that
    cannot start any token` at it, or `a tab character that violates indentation`)."""
    source = lines[line - 1] if 0 < line <= len(lines) else ""
    lead = source[:len(source) - len(source.lstrip(" \t"))]
    if source[col - 1:col] != "\t" and not ("tab" in problem and "\t" in lead):
        return None
    if "\t" not in lead:
        return Explained("a tab where YAML allows only spaces", line, col,
                         ("replace the tab with a space",))
    step = _step(_entries(lines, line - 1))
    how = f" (this file indents by {step})" if step else ""
    return Explained("a tab indents this line; YAML indents with spaces only", line,
                     lead.index("\t") + 1, (f"replace the tab with spaces{how}",))


# -- a bracket or quote left open -------------------------------------------------------

_CLOSERS = {"{": "}", "[": "]", '"': '"', "'": "'"}


def _unclosed(problem: str, lines: list[str], line: int,
              opened: tuple[str, int, int] | None) -> Explained | None:
    """A `{`, `[` or quote that a later line was read into, said at the line it opened."""
    if opened is None or opened[1] >= line:
        return None
    context, at_line, at_col = opened
    if not (context.startswith(("while parsing a flow", "while scanning a quoted"))):
        return None
    source = lines[at_line - 1] if 0 < at_line <= len(lines) else ""
    mark = source[at_col - 1:at_col]
    if mark not in _CLOSERS:
        return None
    closer = _CLOSERS[mark]
    return Explained(f"this `{mark}` is not closed: no `{closer}` follows on its line", at_line,
                     at_col, (f"close it with `{closer}`; YAML read on to line {line}: {problem}",))


# -- `key: text: more` ------------------------------------------------------------------

# `key: text: more`, a plain scalar holding `: `: the line as a key and an unquoted value.
_PLAIN_ENTRY = re.compile(r"^(\s*(?:-\s+)?[^\s\"'#][^:#]*?):[ \t]+([^\s\"'|>\[{&*!].*?)\s*$")


def _colon_in_value(lines: list[str], line: int, col: int) -> bool:
    """Whether the `:` YAML stopped at lies in the value of the line's key (not the key's
    own, after a value that went on from the line before)."""
    source = lines[line - 1] if 0 < line <= len(lines) else ""
    entry = _PLAIN_ENTRY.match(source)
    return entry is not None and col > entry.end(1) + 1


def _colon_notes(lines: list[str], line: int) -> tuple[str, ...]:
    """Notes for an unquoted ``: `` inside a plain scalar (``description: Add a comment to
    a ticket: public...``), which YAML reads as a second mapping on the line."""
    notes = ["a `: ` inside an unquoted value starts a mapping: quote the text or use `>`"]
    source = lines[line - 1] if 0 < line <= len(lines) else ""
    entry = _PLAIN_ENTRY.match(source)
    if entry is not None and '"' not in entry.group(2) and "\\" not in entry.group(2):
        notes.append(f'as in: {entry.group(1).strip()}: "{entry.group(2)}"')
    return tuple(notes)


# -- indentation ------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _Entry:
    """A line that starts a key (``name:``) or a list item (``- ``)."""

    line: int
    indent: int
    name: str           # `description`, or `- item`
    opens: bool         # nothing after the key on its line: what follows is its value


# A key at the start of a line (after any `- ` of list items), plain or quoted.
_KEY = re.compile(r"""((?:-[ ]+)*)("[^"]*"|'[^']*'|[^\s#"'\-?:,\[\]{}][^#]*?|-[^\s#:][^#]*?)"""
                  r""":(?:[ ]+(.*?))?[ ]*$""")
_ITEM = re.compile(r"-(?:[ ]+(.*?))?[ ]*$")
_BLOCK_SCALAR = re.compile(r"[|>][-+0-9]*\s*(?:#.*)?$")


def _entries(lines: list[str], upto: int) -> list[_Entry]:
    """The key and item lines among the first ``upto`` lines, in order; the lines inside a
    block scalar or an unfinished flow collection are left out."""
    found: list[_Entry] = []
    scalar_above: int | None = None  # the indent of a key whose block scalar goes on
    for number, source in enumerate(lines[:upto], 1):
        body = source.lstrip(" ")
        indent = len(source) - len(body)
        if not body or body.startswith("#"):
            continue
        if scalar_above is not None:
            if indent > scalar_above:
                continue
            scalar_above = None
        entry = _entry(number, indent, body)
        if entry is None:
            continue
        found.extend(entry)
        value = _KEY.match(body)
        rest = value.group(3) if value else None
        if rest and _BLOCK_SCALAR.match(rest):
            scalar_above = indent
        elif rest and rest[0] in "[{" and not _closed(rest):
            return found  # a flow collection over lines: what follows is not read
    return found


def _entry(number: int, indent: int, body: str) -> list[_Entry] | None:
    key = _KEY.match(body)
    if key is not None:
        dashes, name, rest = key.group(1), key.group(2), key.group(3)
        out = [_Entry(number, indent + i, "- ...", False)
               for i, ch in enumerate(dashes) if ch == "-"]
        out.append(_Entry(number, indent + len(dashes), name, not rest or rest.startswith("#")))
        return out
    item = _ITEM.match(body)
    if item is not None:
        rest = item.group(1)
        shown = f"- {rest}" if rest and len(rest) <= 30 else "- ..."
        return [_Entry(number, indent, shown, not rest)]
    return None


def _closed(text: str) -> bool:
    depth = 0
    quote = ""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
    return depth <= 0


def _step(entries: list[_Entry]) -> int | None:
    """How far the file indents a level: the most common step from a key to its first child."""
    steps: Counter[int] = Counter()
    for above, below in itertools.pairwise(entries):
        if above.opens and below.indent > above.indent and below.line != above.line:
            steps[below.indent - above.indent] += 1
    if not steps:
        return None
    return max(steps, key=lambda s: (steps[s], -s))


def _chain(entries: list[_Entry]) -> list[_Entry]:
    """The last entry and the entries it lies in: one per level open at the end."""
    chain: list[_Entry] = []
    for entry in entries:
        while chain and chain[-1].indent >= entry.indent:
            chain.pop()
        chain.append(entry)
    return chain


def _spaces(n: int) -> str:
    return f"{n} space{'' if n == 1 else 's'}"


def _indentation(lines: list[str], line: int) -> Explained | None:
    """A key or item at ``line`` indented to no level of the lines above it."""
    entries = _entries(lines, line)
    if not entries or entries[-1].line != line:
        return None
    here = next(e for e in entries if e.line == line)
    above = [e for e in entries if e.line < line]
    chain = _chain(above)
    if not chain or here.indent in {e.indent for e in chain}:
        return None
    last = chain[-1]
    if here.indent > last.indent:
        return None if last.opens else _under_a_value(here, last, above)
    inner = next(e for e in chain if e.indent > here.indent)   # the level it falls short of
    outer = [e for e in chain if e.indent < here.indent]
    step = _step(above)
    first = _first_child(above, outer[-1]) if outer else None
    if (first is not None and step is not None and first.indent != here.indent
            and here.indent == outer[-1].indent + step):
        return _first_key_off(first, here, step)
    how = f"indent `{here.name}` by {_spaces(inner.indent)} to set it beside `{inner.name}`"
    if outer and _is_item(outer[-1]) == _is_item(here):
        how += f", or by {outer[-1].indent} beside `{outer[-1].name}`"
    return Explained(
        f"bad indentation: `{here.name}` is indented {_spaces(here.indent)}, "
        f"`{inner.name}` above it (line {inner.line}) {inner.indent}",
        here.line, here.indent + 1, (f"{_line_up(here)}: {how}",))


def _is_item(entry: _Entry) -> bool:
    return entry.name.startswith("- ")


def _line_up(entry: _Entry) -> str:
    if _is_item(entry):
        return "the items of one list line up in one column"
    return "the keys of one mapping line up in one column"


def _first_child(above: list[_Entry], parent: _Entry) -> _Entry | None:
    after = [e for e in above if e.line > parent.line or (e.line == parent.line
                                                            and e.indent > parent.indent)]
    return after[0] if after and after[0].indent > parent.indent else None


def _first_key_off(first: _Entry, here: _Entry, step: int) -> Explained:
    """The first key of a mapping indented off the file's step, noticed at the next key."""
    return Explained(
        f"bad indentation: `{first.name}` is indented {_spaces(first.indent)}, "
        f"`{here.name}` below it (line {here.line}) {here.indent}",
        first.line, first.indent + 1,
        ((f"{_line_up(first)}: indent `{first.name}` by {_spaces(here.indent)}, as "
         f"`{here.name}` (this file indents by {step})"),
         f"YAML noticed it at line {here.line}: did not find expected key"))


def _under_a_value(here: _Entry, last: _Entry, above: list[_Entry]) -> Explained:
    """A key indented under a key whose value is already on its line."""
    notes = [(f"YAML reads it as more of the value of `{last.name}`; to make it a key beside "
             f"`{last.name}`, indent it by {_spaces(last.indent)}")]
    before = [e for e in above if e.line < last.line]
    if before and before[-1].indent > last.indent and not before[-1].opens:
        notes.append(f"or, if `{last.name}` belongs beside `{before[-1].name}` (line "
                     f"{before[-1].line}), indent `{last.name}` by {_spaces(before[-1].indent)}")
    return Explained(
        f"bad indentation: `{here.name}` is indented under `{last.name}` (line "
        f"{last.line}), whose value is on its line", here.line, here.indent + 1, tuple(notes))


__all__ = ["Explained", "explain"]
