"""The markdown format: classified changes as a pull-request comment (:data:`MARKER`,
the summary, then a table per tool, each row linked to its spec line: relative to the
repository root, or under a link base, an http(s) URL), and the escaping that keeps
untrusted text inert in it.

What a report quotes from its input (tool names, descriptions, pointers, values,
messages, accept reasons, spec paths) is shown as the characters it holds and never read
as markup, however GitHub renders it. CommonMark and GitHub's extensions (tables,
strikethrough, autolinks) give meaning to ASCII punctuation, to a line's first
characters, and to ``www.``, ``scheme://`` and ``name@host.tld`` (autolinks, which need
no punctuation around them):

- :func:`escape_text`, for prose and table cells, backslash-escapes every character
  that opens or closes inline markup (an escaped character is never markup: no
  emphasis, code, link, image, HTML, entity, math or table pipe), the ``:`` of a
  ``://`` and the ``.`` of a ``www.`` (what the autolinks start from), and what a
  line's start would make a heading, quote, list or code block of; it puts a word
  joiner after each ``@`` (GitHub links an e-mail address whatever escapes its
  characters carry, and mentions a ``@name``), writes line breaks as ``<br>`` and
  the spaces at either end as ``&#32;`` (a cell's edges are trimmed), and shows
  control characters as escapes.
- :func:`code_span` fences text by one backtick more than the longest run inside, so
  no run closes it; inside code nothing is markup and nothing is linked.
- :func:`link_base` takes a link's base only as an http(s) URL.

The report's own markup (its headings, bold verdict, struck-through severities,
``<br>`` and spec links) is written around these, never from them.
"""


from __future__ import annotations

import re
from typing import TYPE_CHECKING
from urllib.parse import quote, urlsplit

from ..diagnostics import Severity
from .change_parts import WHOLE_TOOL, Locator, Said, groups, shown_value, tools_label
from .escaping import escape_controls

if TYPE_CHECKING:
    from ..diff.result import Change, Json, SpecPlace


# What opens or closes inline markup anywhere on a line ($ is GitHub's math).
_INLINE = re.compile(r"[\\`*_~\[\]!<>&|$]")
# What an autolink starts from: the colon of `https://`, the dot of `www.`.
_AUTOLINK = re.compile(r":(?=//)|(?<=www)\.", re.IGNORECASE)
# What makes a block of a line's start: a heading, quote, list item, setext underline,
# or an ordered list's `1.` / `1)`.
_LINE_START = re.compile(r"[#>+=-]|\d{1,9}(?=[.)])")
_WORD_JOINER = "\u2060"


def escape_text(text: str) -> str:
    """``text`` as inert inline markdown, on one line: for a table cell, or a line's
    rest after the report's own words."""
    shown = "<br>".join(_inline(line) for line in text.replace("\r\n", "\n").split("\n"))
    body = shown.strip(" ")
    if not body:
        return "&#32;" * len(shown)
    if start := _LINE_START.match(body):
        end = start.end()
        # A leading digit run is escaped at the `.` or `)` after it.
        body = f"{body[:end]}\\{body[end:]}" if body[:end].isdigit() else f"\\{body}"
    lead, trail = len(shown) - len(shown.lstrip(" ")), len(shown) - len(shown.rstrip(" "))
    return "&#32;" * lead + body + "&#32;" * trail


def _inline(line: str) -> str:
    line = _AUTOLINK.sub(r"\\\g<0>", _INLINE.sub(r"\\\g<0>", line))
    return escape_controls(line).replace("@", "@" + _WORD_JOINER)


def code_span(text: str, *, table: bool = True) -> str:
    """``text`` as a code span, controls shown as escapes. In a table (``table``) its
    pipes are escaped, which GitHub's table reads as the pipe itself, inside code too
    (elsewhere a ``\\|`` in code would show its backslash)."""
    shown = escape_controls(text)
    if table:
        shown = shown.replace("|", "\\|")
    if not shown:
        return "` `"
    fence = "`" * (max(map(len, re.findall("`+", shown)), default=0) + 1)
    # A space each side is taken off again; without it a backtick at an end would join
    # the fence, and one space each side of the text would be taken off the text.
    if shown[0] == "`" or shown[-1] == "`" or (
            shown[0] == " " and shown[-1] == " " and shown.strip(" ")):
        shown = f" {shown} "
    return f"{fence}{shown}{fence}"


# Kept as they are in a link's base: what RFC 3986 reserves, less the parentheses (a
# ')' would end the markdown link) and with '%' (an escape already made).
_URL_SAFE = ":/?#[]@!$&'*+,;=%"


def link_base(url: str) -> str:
    """``url``, an absolute http(s) URL, as a base that links are put under: ending
    with ``/``, and with every character that could end a markdown link early (a space,
    ``)``, ``<``, ``>``) or is not ASCII percent-encoded. ``ValueError`` for anything
    else (``javascript:``, ``data:``, a relative path, a control character)."""
    try:
        parts = urlsplit(url)
    except ValueError as exc:  # a bad IPv6 address in the host
        raise ValueError(f"not an http(s) URL: {url!r} ({exc})") from None
    # urlsplit quietly drops tabs and line breaks, so they are refused here first.
    if (escape_controls(url) != url or any(ch.isspace() for ch in url)
            or parts.scheme.lower() not in ("http", "https") or not parts.netloc):
        raise ValueError(f"not an http(s) URL: {url!r}")
    base = quote(url, safe=_URL_SAFE)
    return base if base.endswith("/") else base + "/"


MARKER = "<!-- toolc-schema-diff -->"
"""First line of the markdown report, so a CI job can find and update its own comment."""


def _code(value: Json) -> str:
    return "" if value is None else code_span(shown_value(value, shorten=True))


class SpecLinks:
    """Markdown links to spec lines: ``[`specs/desk.toolc.yaml:14`](specs/desk.toolc.yaml#L14)``.

    A spec's path is relative to the project; ``prefix`` places the project in its
    repository. Without ``base`` the link is relative to the repository root, which is
    what GitHub resolves in a committed file; a pull-request comment resolves it against
    the pull request's page instead, so CI passes ``--link-base`` with the commit's
    ``blob`` URL.
    """

    def __init__(self, base: str = "", prefix: str = ""):
        # ValueError unless an http(s) URL: a link's target is the report's own, never
        # a `javascript:` or what data wrote.
        self.base = link_base(base) if base else ""
        self.prefix = prefix

    def cell(self, place: SpecPlace | None) -> str:
        if place is None:
            return "(removed)"
        path = f"{self.prefix}{place.path}"
        label = code_span(f"{path}:{place.line}")
        note = f" ({escape_text(place.note)})" if place.note else ""
        if not _linkable(path):
            return label + note
        # The path comes from a pull request's file names: quoted, it cannot end the link.
        return f"[{label}]({self.base}{quote(path, safe='/')}#L{place.line}){note}"


def _linkable(path: str) -> bool:
    """Whether a link to ``path`` stays in the repository (and on its page): not
    absolute, no ``..`` that climbs out, no drive or scheme, no Windows separator; and
    a file name that is text (one of undecodable bytes holds lone surrogates)."""
    return not (path.startswith("/") or ":" in path or "\\" in path
                or ".." in path.split("/") or escape_controls(path) != path)


def _tools_head(tools: tuple[str, ...], locate: Locator | None) -> list[str]:
    """The heading of a tool's table; for several tools, a line naming their files."""
    head = [f"#### {tools_label(tools, _outside_table)}"]
    where = [f for f in map(locate.file, tools) if f is not None] if locate else []
    if len(tools) > 1 and where:
        head += ["", "In " + ", ".join(_outside_table(file) for file in where) + "."]
    return head


def _outside_table(text: str) -> str:
    # Outside a table a pipe needs no escape (and its backslash would show in code).
    return code_span(text, table=False)


def changes_markdown(changes: list[Change], compared: str | None = None,
                     links: SpecLinks | None = None, *, locate: Locator | None = None,
                     said: Said | None = None) -> str:
    """The comment: :data:`MARKER`, what was compared, the warnings, the summary, then
    the changes to the gate's rules and a table per tool."""
    links, said = links or SpecLinks(), said or Said()
    lines = [MARKER, "### Schema changes", ""]
    if compared:
        lines += [f"Compared {escape_text(compared)}.", ""]
    lines += [f"**warning:** {escape_text(w)}" for w in said.warnings]
    if said.warnings:
        lines.append("")
    if said.policy:
        lines += [f"**{said.rules_summary()}**", ""]
    if not changes and not said.policy:
        return "\n".join([*lines, said.summary(changes)])
    lines.append(f"**{said.summary(changes)}**")
    for tools, group in groups(said.policy, changes):
        spec_column = tools is None or any(c.spec is not None for c in changes)
        head = (["#### The gate's rules: `pyproject.toml`"] if tools is None
                else _tools_head(tools, locate))
        lines += ["", *head, "",
                  "| severity | rule | " + ("spec | " if spec_column else "")
                  + "pointer | change | old | new |",
                  "| --- | --- | --- | --- | --- | --- |" + (" --- |" if spec_column else "")]
        for c in group:
            sev = str(c.severity)
            severity = f"~~{sev}~~ accepted" if c.accepted else (
                f"**{sev}**" if c.severity is Severity.ERROR else sev)
            message = escape_text(c.message)
            if c.accepted:
                message += f"<br>**accepted:** {escape_text(c.reason or '')}"
            pointer = code_span(c.pointer) if c.pointer else WHOLE_TOOL
            spec = f"{links.cell(c.spec)} | " if spec_column else ""
            lines.append(f"| {severity} | {code_span(c.rule)} | {spec}{pointer} | {message} "
                         f"| {_code(c.old)} | {_code(c.new)} |")
    return "\n".join(lines)
