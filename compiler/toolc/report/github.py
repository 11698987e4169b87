"""The github format: GitHub Actions workflow commands, each shown as an annotation on
the pull request. A diagnostic is ``::error file=..,line=..,col=..,title=..::message``
(info a notice); a classified change is one command on its (first) golden file's line,
or for a change to the gate's rules on ``pyproject.toml``'s, accepted ones as notices;
a warning of the diff's policy is a warning of no file.

A change is annotated at its pointer's line in the new text; a removal at the line of
what held the removed thing there (annotations land on the pull request's version of
the file, where the old pointer may name a neighbour or nothing); a removed tool at the
first line of its old file.

Every string taken from the input goes through the commands' own escaping
(:func:`escape_data`, :func:`escape_property`), here once for both."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic, Severity
from .change_parts import WHOLE_TOOL, is_rules_change, shown_value
from .escaping import bounded, escape_controls

if TYPE_CHECKING:
    from ..diff.result import Change
    from .change_parts import Locator
    from .vendored import PinnedServer


def escape_data(text: str) -> str:
    """A workflow command's data: its own escapes for ``%``, CR and LF, and the other
    controls written out (an ESC would colour the log, a BEL ring)."""
    lines = text.replace("%", "%25").split("\n")
    return "%0A".join("%0D".join(escape_controls(part) for part in line.split("\r"))
                      for line in lines)


def escape_property(text: str) -> str:
    """A workflow command's property value: its data escapes, and ``:`` and ``,``
    (which end a property)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_command(severity: Severity) -> str:
    """The workflow command a finding of ``severity`` is shown with: info is a notice."""
    return str(severity) if severity in (Severity.ERROR, Severity.WARNING) else "notice"


def diagnostics_github(diagnostics: Iterable[Diagnostic]) -> str:
    """GitHub Actions workflow commands: ``::error file=..,line=..,col=..::message``."""
    out = []
    for d in diagnostics:
        kind = github_command(d.severity)
        props = [f"title={escape_property(f'{d.code} {d.rule.name}')}"]
        if d.span:
            props[:0] = [f"file={escape_property(d.span.path)}", f"line={d.span.line}",
                         f"col={d.span.col}"]
        message = bounded(d.message) + "".join(f"\n{bounded(n)}" for n in d.notes)
        out.append(f"::{kind} {','.join(props)}::{escape_data(message)}")
    return "\n".join(out)


def folded_servers_github(servers: Iterable[PinnedServer]) -> str:
    """A notice per pinned MCP server whose findings were folded, on its toolset's key."""
    return "\n".join(
        f"::notice file={escape_property(s.spec)},line={s.span.line},col={s.span.col},"
        f"title=pinned MCP server::{escape_data(s.summary())}" for s in servers)


def changes_github(changes: list[Change], locate: Locator,
                   warnings: Sequence[str] = ()) -> str:
    """``::error file=..,line=..,title=..::message`` per change; info and accepted: notice.
    A row in several tools is annotated on the first's file and names the others'."""
    out = [f"::warning title={escape_property('toolc diff policy')}::{escape_data(w)}"
           for w in warnings]
    for c in changes:
        kind = "notice" if c.accepted else github_command(c.severity)
        props = []
        rules = c.spec is not None and is_rules_change(c)  # pyproject.toml's own line
        where = c.spec.path if rules and c.spec else locate.file(c.tool)
        if where is not None:
            props.append(f"file={escape_property(where)}")
            line = c.spec.line if rules and c.spec else locate.line(c)
            if line is not None:
                props.append(f"line={line}")
        props.append(f"title={escape_property(f'{c.rule} in {c.tool} ({c.severity})')}")
        message = c.message if not c.accepted else f"accepted ({c.reason}): {c.message}"
        message += f"\npointer: {c.pointer or WHOLE_TOOL}"
        if c.also:
            message += f"\nalso in: {', '.join(locate.file(k) or k for k in c.also)}"
        if c.spec is not None:
            message += f"\nspec: {c.spec}"
        if c.old is not None:
            message += f"\nold: {shown_value(c.old, shorten=True)}"
        if c.new is not None:
            message += f"\nnew: {shown_value(c.new, shorten=True)}"
        out.append(f"::{kind} {','.join(props)}::{escape_data(message)}")
    return "\n".join(out)
