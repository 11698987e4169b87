"""What the report tests share: markdown rendered as GitHub renders a pull-request comment
(cmark-gfm, GitHub's own CommonMark parser, with its extensions) and read back as
elements, and the check that a rendered report of changes holds the report's own
elements only; workflow commands read as the GitHub Actions runner reads them; and
text built to break out of both."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from itertools import groupby

import cmarkgfm
from cmarkgfm.cmark import Options
from hypothesis import strategies as st
from toolc.diagnostics import Severity
from toolc.diff import Change, SpecPlace
from toolc.report.change_parts import WHOLE_TOOL, tools_label
from toolc.report.escaping import escape_controls
from toolc.report.summary import rules_summary, summary


def github_html(markdown: str) -> str:
    """``markdown`` as GitHub's parser renders it. Raw HTML passes as written (GitHub's
    later sanitiser would hide some of it): any tag the data slipped in shows."""
    html: str = cmarkgfm.github_flavored_markdown_to_html(
        markdown, options=Options.CMARK_OPT_UNSAFE)
    return html


_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
                   "meta", "source", "track", "wbr"})


@dataclass
class Element:
    tag: str
    attrs: dict[str, str | None] = field(default_factory=dict)
    children: list[Element | str] = field(default_factory=list)

    def text(self) -> str:
        """The text shown, a ``<br>`` as a line break."""
        return "".join(c if isinstance(c, str) else "\n" if c.tag == "br" else c.text()
                       for c in self.children)

    def all(self, tag: str | None = None) -> list[Element]:
        """Every element below, in document order (of ``tag`` only, when given)."""
        found = []
        for child in self.children:
            if isinstance(child, Element):
                if tag is None or child.tag == tag:
                    found.append(child)
                found.extend(child.all(tag))
        return found

    def elements(self) -> list[Element]:
        return [c for c in self.children if isinstance(c, Element)]


@dataclass
class Page:
    root: Element
    comments: list[str]
    other: list[str]  # declarations, processing instructions, end tags never opened


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = Page(Element("root"), [], [])
        self.stack = [self.page.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, dict(attrs))
        self.stack[-1].children.append(element)
        if tag not in _VOID:
            self.stack.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Element(tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        if tag not in [e.tag for e in self.stack[1:]]:
            self.page.other.append(f"</{tag}>")
            return
        while self.stack.pop().tag != tag:
            pass

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)

    def handle_comment(self, data: str) -> None:
        self.page.comments.append(data)

    def handle_decl(self, decl: str) -> None:
        self.page.other.append(decl)

    def handle_pi(self, data: str) -> None:
        self.page.other.append(data)

    def unknown_decl(self, data: str) -> None:
        self.page.other.append(data)


def rendered(markdown: str) -> Page:
    """``markdown`` rendered by GitHub's parser, as a tree of elements."""
    builder = _Builder()
    builder.feed(github_html(markdown))
    builder.close()
    return builder.page


WORD_JOINER = "\u2060"  # put after each '@' of prose, so that GitHub links no address
# Every element the report writes itself; anything else came from the data.
REPORT_TAGS = {"h3", "h4", "p", "strong", "del", "table", "thead", "tbody", "tr", "th", "td",
               "code", "a", "br"}


def shown(text: str) -> str:
    """What prose should show: the text, controls as escapes, line breaks kept."""
    return "\n".join(escape_controls(line) for line in text.replace("\r\n", "\n").split("\n"))


HEADER = ["severity", "rule", "spec", "pointer", "change", "old", "new"]


def value_code(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(", ", ": "))
    if isinstance(value, dict | list) and len(text) > 120:  # shortened, as docs/diff.md says
        text = text[:119] + "\u2026"
    return escape_controls(text)


def check_report(changes: list[Change], markdown: str, *, compared: str | None = None,
                 base: str = "", policy: Sequence[Change] = (), warnings: Sequence[str] = (),
                 fail_on: str = "error") -> Page:
    """The rendered report holds the report's own elements only, each where the report
    puts it, and every string of the changes (and of ``policy``, the changes to the
    gate's rules, and of the ``warnings``) shows as it is."""
    page = rendered(markdown)
    assert page.comments == [" toolc-schema-diff "] and page.other == []
    assert {e.tag for e in page.root.all()} <= REPORT_TAGS
    blocks = page.root.elements()
    assert [b.tag for b in blocks[:1]] == ["h3"] and blocks[0].text() == "Schema changes"
    blocks = blocks[1:]
    if compared:
        assert blocks[0].tag == "p" and not {e.tag for e in blocks[0].all()} - {"br"}
        assert blocks[0].text().replace(WORD_JOINER, "") == (
            f"Compared {shown(compared)}.".replace(WORD_JOINER, ""))
        blocks = blocks[1:]
    if warnings:  # one paragraph, a line each
        assert [e.text() for e in blocks[0].all("strong")] == ["warning:"] * len(warnings)
        assert blocks[0].text().replace(WORD_JOINER, "") == "\n".join(
            f"warning: {shown(w)}" if w else "warning:" for w in warnings).replace(WORD_JOINER, "")
        blocks = blocks[1:]
    verdicts = [*([rules_summary(policy)] if policy else []), summary(changes, fail_on, policy)]
    for verdict, words in zip(blocks, verdicts, strict=False):  # the report's, in bold
        assert [(e.tag, e.text()) for e in verdict.all()] == [("strong", words)]
        assert verdict.text() == words
    check_tables(changes, policy, blocks[len(verdicts):], base)
    every = [*policy, *changes]
    strong = [e.text() for e in page.root.all("strong")]
    assert sorted(strong) == sorted(
        verdicts + ["warning:"] * len(warnings) + ["accepted:"] * sum(c.accepted for c in every)
        + ["error"] * sum(c.severity is Severity.ERROR and not c.accepted for c in every))
    assert len(page.root.all("del")) == sum(c.accepted for c in every)
    return page


def check_tables(changes: list[Change], policy: Sequence[Change], blocks: list[Element],
                 base: str) -> None:
    """A heading and a table per tool (the gate's rules first), a row per change."""
    spec_column = HEADER if any(c.spec is not None for c in changes) else [
        h for h in HEADER if h != "spec"]
    groups: list[tuple[tuple[str, ...] | None, list[str], list[Change]]] = (
        [(None, HEADER, list(policy))] if policy else [])
    ordered = sorted(changes, key=lambda c: (c.tools, *c.sort_key()[1:]))
    groups += [(tools, spec_column, list(g)) for tools, g in groupby(ordered, lambda c: c.tools)]
    for tools, header, group in groups:
        heading, blocks = blocks[0], blocks[1:]
        assert heading.tag == "h4" and {e.tag for e in heading.all()} == {"code"}
        assert heading.text() == ("The gate's rules: pyproject.toml" if tools is None else
                                  tools_label(tools, lambda t: escape_controls(t) or " "))
        if blocks[0].tag == "p":  # the golden files of a row in several tools
            files, blocks = blocks[0], blocks[1:]
            assert tools and len(tools) > 1 and {e.tag for e in files.all()} == {"code"}
            assert files.text().startswith("In ") and files.text().endswith(".")
        table, blocks = blocks[0], blocks[1:]
        assert [th.text() for th in table.all("th")] == header
        rows = table.all("tbody")[0].elements()
        assert len(rows) == len(group)
        for change, row in zip(group, rows, strict=True):
            check_row(change, dict(zip(header, row.elements(), strict=True)), base)
    assert blocks == []


def check_row(change: Change, cells: dict[str, Element], base: str) -> None:
    severity = cells["severity"]
    if change.accepted:
        assert [(e.tag, e.text()) for e in severity.all()] == [("del", str(change.severity))]
        assert severity.text() == f"{change.severity} accepted"
    else:
        assert severity.text() == str(change.severity)
    assert [(e.tag, e.text()) for e in cells["rule"].all()] == [
        ("code", escape_controls(change.rule))]
    pointer = cells["pointer"]
    if change.pointer:
        assert [(e.tag, e.text()) for e in pointer.all()] == [
            ("code", escape_controls(change.pointer))]
    else:
        assert pointer.text() == WHOLE_TOOL and not pointer.all()
    message = cells["change"]
    expected = shown(change.message)
    if change.accepted:
        expected += "\naccepted:" + (f" {shown(change.reason)}" if change.reason else "")
    assert message.text().replace(WORD_JOINER, "") == expected.replace(WORD_JOINER, "")
    assert [e.text() for e in message.all() if e.tag != "br"] == (
        ["accepted:"] if change.accepted else [])
    for side, value in (("old", change.old), ("new", change.new)):
        cell = cells[side]
        assert [(e.tag, e.text()) for e in cell.all()] == (
            [] if value is None else [("code", value_code(value))])
    if "spec" in cells:
        check_spec(change.spec, cells["spec"], base)


def check_spec(place: SpecPlace | None, cell: Element, base: str) -> None:
    if place is None:
        assert cell.text() == "(removed)" and not cell.all()
        return
    note = f" ({shown(place.note)})" if place.note else ""
    assert cell.text().replace(WORD_JOINER, "") == (
        f"{escape_controls(place.path)}:{place.line}{note}".replace(WORD_JOINER, ""))
    links = cell.all("a")
    code = ("code", f"{escape_controls(place.path)}:{place.line}")
    if links:  # a link is to the spec's line in the repository, and holds only its label
        (link,) = links
        href = link.attrs["href"] or ""
        assert href.startswith(base) and href.endswith(f"#L{place.line}")
        relative = href[len(base):]
        assert ":" not in relative and not relative.startswith("/")
        assert ".." not in relative.split("/")
        assert [(e.tag, e.text()) for e in link.all()] == [code]
    assert [(e.tag, e.text()) for e in cell.all() if e.tag not in ("a", "br")] == [code]


@dataclass
class WorkflowCommand:
    name: str
    properties: dict[str, str]
    data: str


def workflow_commands(output: str) -> list[WorkflowCommand | None]:
    """Each line of ``output`` as the Actions runner reads it (actions/runner,
    ``ActionCommand.TryParseV2``): a line is a command when it starts with ``::``; its
    name and properties run to the next ``::``, the properties split at ``,`` and then
    at the first ``=``; then each value is unescaped. ``None`` for a line that is no
    command. Lines end where .NET's ``ReadLine`` ends them: CR, LF or CRLF."""
    commands: list[WorkflowCommand | None] = []
    for line in re.split("\r\n|\r|\n", output):
        line = line.lstrip()
        end = line.find("::", 2)
        if not line.startswith("::") or end < 0:
            commands.append(None)
            continue
        info = line[2:end]
        name, _, props = info.partition(" ")
        properties = {}
        for prop in filter(None, props.strip().split(",")):
            pair = [p for p in prop.split("=", 1) if p]
            if len(pair) == 2:
                properties[pair[0]] = _unescape(pair[1], ("%0D", "\r"), ("%0A", "\n"),
                                                ("%3A", ":"), ("%2C", ","), ("%25", "%"))
        data = _unescape(line[end + 2:], ("%0D", "\r"), ("%0A", "\n"), ("%25", "%"))
        commands.append(WorkflowCommand(name, properties, data))
    return commands


def in_a_log(text: str) -> str:
    """What a workflow command's text reads as once the runner has unescaped it: its
    line breaks, and every other control character shown as an escape."""
    return "\n".join("\r".join(escape_controls(part) for part in line.split("\r"))
                     for line in text.split("\n"))


def raw_controls(text: str) -> list[str]:
    """The control characters (and lone surrogates) ``text`` holds, line breaks apart:
    what a terminal would obey or an encoder refuse."""
    return [ch for ch in text if ch != "\n" and escape_controls(ch) != ch]


def _unescape(text: str, *mappings: tuple[str, str]) -> str:
    for escaped, token in mappings:  # one after another, in the runner's order
        text = text.replace(escaped, token)
    return text


# Pieces of markup, autolinks, workflow commands and terminal escapes, the among
# them: a description with two backticks that closes its code span, a link, a tracking
# pixel, a bold fake verdict.
FRAGMENTS = ("`", "``", "```", " ", "  ", "|", "\\", "\\|", "[", "]", "](", "(", ")", "!",
             "*", "**", "_", "__", "~~", "<", ">", "&", "&amp;", "&#64;", "#", "-", "+", "=",
             "1.", "$", ":", "::", ",", "%", "%0A", "%25", "=", "@", "a@b.io", "@team",
             "www.", "evil.io", "http://", "https://e.io/x", "<img src=https://t.io/p.png>",
             "</td>", "<b>", "<!--", "[x](https://e.io)", "![p](https://t.io/p.png)",
             "<https://e.io>", "**No changes in the published tools.**", "\n", "\r\n", "\r",
             "\t", "\x00", "\x1b[2J", "\x1b]0;t\x07", "\x9b", "\x85", "\u2028", "\u202e",
             "\ud800", "::error::forged", "\n::error file=x::forged", "ab", "é")

hostile_text = st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=3), max_size=10).map(
    "".join)
"""Strings made of :data:`FRAGMENTS` and any characters."""


@st.composite
def hostile_changes(draw: st.DrawFn, several: bool = False) -> list[Change]:
    """One to four changes of up to three tools, every string of them hostile text; with
    ``several``, a change may be in more tools (a row of several modules' tools)."""
    tools = draw(st.lists(hostile_text.filter(bool), min_size=1, max_size=3, unique=True))
    place = st.builds(SpecPlace, hostile_text.filter(bool), st.integers(1, 10**6),
                      st.integers(1, 999), st.none() | hostile_text)
    items = []
    for _ in range(draw(st.integers(1, 4))):
        accepted = draw(st.booleans())
        items.append(Change(
            tool=draw(st.sampled_from(tools)), pointer=draw(hostile_text),
            rule=draw(st.sampled_from(["TOOL_REMOVED"]) | hostile_text.filter(bool)),
            severity=draw(st.sampled_from([Severity.ERROR, Severity.WARNING, Severity.INFO])),
            message=draw(hostile_text), old=draw(st.none() | hostile_text),
            new=draw(st.none() | st.dictionaries(hostile_text, hostile_text, max_size=2)),
            accepted=accepted, reason=draw(hostile_text) if accepted else None,
            spec=draw(st.none() | place),
            also=draw(st.lists(hostile_text.filter(bool), max_size=2 if several else 0,
                               unique=True).map(tuple))))
    return items
