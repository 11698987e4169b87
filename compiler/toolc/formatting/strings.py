"""A scalar node as the formatter writes it, meaning exactly what it meant.

- Numbers, booleans and nulls keep their spelling (``1e3``, ``0o17``, ``~``): the
  formatter changes how a spec is laid out, not what a value says.
- A string is plain where :func:`toolc.formatting.scalars.plain_ok` allows it, else
  quoted; one with line breaks becomes a literal block (``|``) when one reads back
  exactly.
- A block scalar (``|``, ``>``) keeps its style, chomping and lines, moved to its new
  indentation; a string written over several lines keeps its line breaks. Either is read
  back through the loader before it is used, and written on one line when it would not
  mean the same.
- A tagged scalar (``!!str 1``) is kept as written.
"""

from __future__ import annotations

import functools

from .scalars import literal_block, plain_ok, quoted, quoted_readably, reads_back
from .tree import Scalar


def flow_text(node: Scalar) -> str:
    """The scalar on one line (in a flow collection, or as a key's value)."""
    if node.tagged:
        return node.raw.split("\n", 1)[0] if node.raw else ""
    if node.style == "":
        meaning = node.meaning()
        if not isinstance(meaning, str):
            return node.raw or "null"
    return string_text(node.value, flow=True)


@functools.lru_cache(maxsize=4096)  # a spec says the same words many times over
def string_text(text: str, flow: bool = False, key: bool = False) -> str:
    if "\n" not in text and plain_ok(text, flow, key, every_reader=False):
        return text
    return quoted_readably(text) if "\n" not in text else quoted(text)


def block_lines(node: Scalar, indent: int) -> list[str]:
    """The scalar after ``key:`` or ``-`` at ``indent``: what follows on that line, then
    whole lines (a block's text at ``indent + 2``)."""
    if node.style in ("|", ">"):
        return _block_scalar(node, indent)
    if node.end_line > node.line:
        return _rewrapped(node, indent)
    if node.tagged or (node.style == "" and not isinstance(node.meaning(), str)):
        return [node.raw.split("\n", 1)[0]]  # `key:` stays `key:`; in flow it is `null`
    return _text(node.value, indent)


def _text(text: str, indent: int) -> list[str]:
    if "\n" in text:
        block = literal_block(text, indent + 2)
        if block is not None:
            return block
    return [string_text(text)]


def _rewrapped(node: Scalar, indent: int) -> list[str]:
    """A plain or quoted scalar over several lines: its lines kept, re-indented."""
    first, *rest = node.raw.split("\n")
    later = [line.lstrip(" \t") for line in rest]
    probe = [first, *("  " + line if line else "" for line in later)]
    if node.tagged or reads_back(probe, node.meaning()):
        pad = " " * (indent + 2)
        return [first, *(pad + line if line else "" for line in later)]
    return _text(node.value, indent)


def _block_scalar(node: Scalar, indent: int) -> list[str]:
    header = node.header
    style, chomp = header[0], "-" if "-" in header else ("+" if "+" in header else "")
    body = node.raw.split("\n", 1)[1] if "\n" in node.raw else ""
    content = body.split("\n")
    if body.endswith("\n") or not body:
        content.pop()
    if chomp != "+":
        while content and not content[-1].strip():
            content.pop()
    filled = [line for line in content if line.strip()]
    deepest = min((len(line) - len(line.lstrip(" ")) for line in filled), default=0)
    for strip in range(deepest, 0, -1) if deepest else (0,):
        lines = [line[strip:] if len(line) > strip else "" for line in content]
        first = next((line for line in lines if line.strip()), "")
        head = style + ("2" if first.startswith(" ") else "") + chomp
        if node.tagged or reads_back([head, *("  " + ln if ln else "" for ln in lines)],
                                     node.value):
            pad = " " * (indent + 2)
            return [head, *(pad + ln if ln else "" for ln in lines)]
    return _text(node.value, indent)
