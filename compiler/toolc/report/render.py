"""The formats a command can ask for, and the one call for each kind of annotation:
:func:`render_diagnostics` (text | json | github) and :func:`render_changes` /
:func:`render_diff` (text | markdown | json | github). Each format is one module
(:mod:`toolc.report.text`, ``json``, ``github``, ``markdown``) that renders both kinds
with that format's escaping.

Of classified changes, ``warnings`` (acceptances that matched nothing) are said in every
format, before the summary. Where a change has a spec place (the new side is a fresh
build: :mod:`toolc.diff.places`), text and github show it beside the pointer
(``specs/desk.toolc.yaml:14:7``). Compared with a base (:mod:`toolc.diff.gate`), the pull
request's changes to the gate's rules come first in every format: counted in a line and
grouped apart in text and markdown, as ``"policy"`` before ``"changes"`` in json, as the
first annotations (on ``pyproject.toml``) in github. They are rows like the others,
escaped by the same code.

For ``github`` (and the file names in ``text``), the caller says where each tool's golden
file is: ``paths`` maps a tool to its file relative to ``golden_root`` (a ToolSet's
``paths``), and ``new_texts`` / ``old_texts`` map a tool to its file's text, new and old
(a ToolSet's ``texts``, or :func:`toolc.diff.golden_text` of a tool not yet written).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic
from .change_parts import Locator, Said
from .github import changes_github, diagnostics_github, folded_servers_github
from .json import changes_json, diagnostics_json
from .markdown import SpecLinks, changes_markdown
from .text import changes_text, diagnostics_text, folded_servers_text

if TYPE_CHECKING:
    from ..diff.result import Change, SchemaDiff
    from .vendored import PinnedServer

DIAGNOSTIC_FORMATS = ("text", "json", "github")
CHANGE_FORMATS = ("text", "markdown", "json", "github")


def render_diagnostics(
    diagnostics: Iterable[Diagnostic],
    fmt: str,
    sources: Mapping[str, str],
    *,
    color: bool = False,
) -> str:
    """Render in ``fmt``; ``sources`` maps a path to its text, for the quoted lines."""
    items = list(diagnostics)
    if fmt == "json":
        return diagnostics_json(items)
    if fmt == "github":
        return diagnostics_github(items)
    return diagnostics_text(items, sources, color=color)


def render_folded(servers: Iterable[PinnedServer], fmt: str) -> str:
    """One line per pinned MCP server whose findings were folded (:mod:`toolc.report.vendored`):
    a notice on GitHub, ``path:line:col: <summary>`` otherwise (json puts each server's
    :meth:`~toolc.report.vendored.PinnedServer.as_json` under ``vendor``)."""
    if fmt == "github":
        return folded_servers_github(servers)
    return folded_servers_text(servers)


def render_diff(diff: SchemaDiff, fmt: str, *, color: bool = False, golden_root: str,
                fail_on: str = "error", compared: str | None = None,
                link_base: str = "", spec_prefix: str = "") -> str:
    """A build's (or ``toolc diff``'s) classified changes in ``fmt``, the tools' files
    and texts taken from both sides, its warnings said."""
    return render_changes(diff.changes, fmt, color=color, golden_root=golden_root,
                          paths={**diff.old.paths, **diff.new.paths},
                          new_texts=diff.new.texts, old_texts=diff.old.texts,
                          fail_on=fail_on, compared=compared, link_base=link_base,
                          spec_prefix=spec_prefix, warnings=diff.warnings,
                          policy=diff.policy)


def render_changes(changes: Iterable[Change], fmt: str, *, color: bool = False,
                   golden_root: str = "generated/schemas",
                   paths: Mapping[str, str] | None = None,
                   new_texts: Mapping[str, str] | None = None,
                   old_texts: Mapping[str, str] | None = None, fail_on: str = "error",
                   compared: str | None = None, link_base: str = "", spec_prefix: str = "",
                   warnings: Sequence[str] = (), policy: Sequence[Change] | None = None,
                   closing: str | None = None) -> str:
    """Render ``changes`` in ``fmt`` (one of :data:`CHANGE_FORMATS`); no trailing newline.
    ``fail_on``: the gate's threshold, which the summary says the changes meet or not;
    ``policy``: the changes to the gate's rules of a comparison with a base
    (``toolc.diff.gate``), shown first in every format; ``closing`` replaces the summary
    that ends ``text``. ``compared`` (``X with Y``) says in ``markdown`` which sets were
    compared, for the reviewer who reads only that. ``spec_prefix`` (the project's
    folder in its repository, ``app/``) and ``link_base``
    (``https://github.com/ORG/REPO/blob/SHA/``) make markdown's links to spec lines; a
    ``link_base`` that is not an http(s) URL is a ``ValueError``."""
    items, rules = list(changes), None if policy is None else list(policy)
    locate = Locator(golden_root, paths or {}, new_texts or {}, old_texts or {})
    said = Said(fail_on, warnings, rules or ())
    if fmt == "text":
        return changes_text(items, color=color, locate=locate, said=said, closing=closing)
    if fmt == "markdown":
        return changes_markdown(items, compared, SpecLinks(link_base, spec_prefix),
                                locate=locate, said=said)
    if fmt == "json":
        return changes_json(items, locate, warnings, rules)
    if fmt == "github":
        return changes_github([*said.policy, *items], locate, warnings)
    raise ValueError(f"unknown format {fmt!r} (expected {', '.join(CHANGE_FORMATS)})")
