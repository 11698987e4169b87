"""Locations, diagnostics and the one place where compilation fails.

Every problem toolc reports is a :class:`Diagnostic`: a rule code, a severity, a
message and the :class:`Span` it points at. Stages collect diagnostics in a
:class:`DiagnosticBag` so that a run reports every problem, not only the first; a
stage that cannot go on calls :func:`fail`, which raises :class:`SpecError` carrying
one located diagnostic (jinja's ``fail(msg, location)``).

Every rule is declared once in :data:`RULES` with a stable code, a slug and a
one-line purpose; ``docs/diagnostics.md`` is the catalogue of the same list.
"""

from __future__ import annotations

import enum
import fnmatch
import functools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import NamedTuple, NoReturn


@functools.total_ordering
class Severity(enum.Enum):
    """How serious a diagnostic or a schema change is; ordered so that max() works.

    Its value is the word every output writes (``str()`` gives it); it equals no string
    and no number, so a severity is compared only with another (mypy's strict equality
    flags ``severity == "error"``), and orders as declared: off < info < warning < error.
    """

    OFF = "off"
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"

    def __str__(self) -> str:
        return self.value

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Severity):
            return NotImplemented
        return _RANK[self] < _RANK[other]

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(
                f"unknown severity {text!r} (expected off, info, warning or error)"
            ) from None


_RANK = {severity: rank for rank, severity in enumerate(Severity)}


class Span(NamedTuple):
    """A place in a source file: 1-based line and column, and how many characters.

    A named tuple rather than a frozen dataclass: the loader makes one per YAML node,
    and a tuple is built in half the time.
    """

    path: str
    line: int
    col: int
    length: int = 1

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"


@dataclass(frozen=True, slots=True)
class Rule:
    code: str
    name: str
    severity: Severity
    purpose: str


@dataclass(frozen=True, slots=True)
class Fix:
    """A change that applies what a diagnostic suggests, as data (an editor's code action,
    any later format): the ``span.length`` characters at ``span`` become ``text`` (a
    length of 0 inserts it). ``title`` says what it does, in the words of the suggestion."""

    title: str
    span: Span
    text: str


def part_span(span: Span, value: str, start: int = 0, end: int | None = None) -> Span | None:
    """Where ``value[start:end]`` (default: all of it) is written, ``value`` being the
    scalar written at ``span``; None when the scalar's text is not ``value`` as it is,
    plain or in quotes without escapes (what edits it must know its exact place)."""
    end = len(value) if end is None else end
    if span.length == len(value):
        offset = 0
    elif span.length == len(value) + 2:
        offset = 1  # '...' or "..."
    else:
        return None
    return Span(span.path, span.line, span.col + offset + start, end - start)


def replacement(span: Span, value: str, new: str, start: int = 0,
                end: int | None = None) -> tuple[Fix, ...]:
    """The fix that writes ``new`` for ``value[start:end]`` (see :func:`part_span`)."""
    end = len(value) if end is None else end
    at = part_span(span, value, start, end)
    if at is None:
        return ()
    return (Fix(f"Replace '{value[start:end]}' with '{new}'", at, new),)


@dataclass(frozen=True, slots=True)
class Related:
    """Another place a diagnostic is about (the first of two duplicates, a use of the
    type it reports), and what that place is to it."""

    span: Span
    message: str


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: str
    severity: Severity
    message: str
    span: Span | None = None
    notes: tuple[str, ...] = ()
    # What the suggestions say, as edits, and the other places the notes point to: data
    # beside the words, never in them (a diagnostic is the same finding without them).
    fixes: tuple[Fix, ...] = field(default=(), compare=False)
    related: tuple[Related, ...] = field(default=(), compare=False)

    @property
    def rule(self) -> Rule:
        return RULES[self.code]


class SpecError(Exception):
    """Raised by :func:`fail`; carries the diagnostics that stopped a stage."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = tuple(diagnostics)
        super().__init__("; ".join(d.message for d in self.diagnostics))


def _rules(*rows: tuple[str, str, Severity, str]) -> dict[str, Rule]:
    return {code: Rule(code, name, sev, purpose) for code, name, sev, purpose in rows}


E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO

# The catalogue. Codes are stable: never renumber, only add. Families:
# TC0xx input and YAML, TC1xx structure, TC2xx schemas, TC3xx names and references,
# TC4xx composition, TC5xx build and certification, TC6xx provider targets, TC7xx the
# text the model reads, TC9xx configuration.
RULES: dict[str, Rule] = _rules(
    ("TC001", "unreadable-file", E, "The spec file cannot be read, or is not UTF-8 text."),
    ("TC002", "file-too-large", E, "A spec file over 10 MiB is refused before parsing."),
    ("TC003", "yaml-syntax", E, "The file is not well-formed YAML."),
    ("TC004", "yaml-too-deep", E, "Nesting deeper than 64 levels is refused."),
    ("TC005", "alias-bomb", E, "Aliases that expand to more than 100,000 nodes are refused."),
    ("TC006", "duplicate-key", E, "A key given twice in one mapping; YAML would keep the last."),
    ("TC007", "yaml-tag", E, "Tags are not allowed: specs are data, never objects."),
    ("TC008", "multiple-documents", E, "A spec file holds exactly one YAML document."),
    ("TC009", "non-string-key", E, "Mapping keys must be strings."),
    ("TC010", "not-a-regular-file", E, "A spec must be a regular file inside the project; a symlink only to one."),
    ("TC022", "unused-suppression", W, "A `# toolc: ignore[CODE]` comment that suppresses nothing on its line, or names no rule."),
    ("TC101", "unknown-key", E, "A key the format does not know; often a misspelt one."),
    ("TC102", "missing-key", E, "A key the format requires is absent."),
    ("TC103", "bad-value", E, "A value of the wrong type or outside its allowed set."),
    ("TC104", "bad-version", E, "`toolc:` must be the integer 1."),
    ("TC201", "missing-description", E, "A tool or property has no description the model could read."),
    ("TC202", "invalid-schema", E, "A schema is not valid JSON Schema 2020-12."),
    ("TC203", "empty-enum", E, "An `enum` with no values admits nothing."),
    ("TC204", "bad-default", E, "A `default` that its own schema rejects."),
    ("TC205", "required-conflict", E, "A property's `required:` disagrees with its object's list."),
    ("TC206", "recursive-type", W, "A named type refers to itself; published through `$defs`."),
    ("TC207", "required-unknown", E, "A `required` list names a property that is not there."),
    ("TC208", "type-alias-cycle", E, "Named types that are only aliases of each other, with no structure."),
    ("TC209", "returns-not-object", E, "`returns` must be an object schema: MCP's outputSchema is one."),
    ("TC210", "remote-ref", E, "A `$ref` to a URL: toolc never fetches one; save the schema in the project."),
    ("TC211", "ref-file", E, "A `$ref` to a local schema file that cannot be inlined (missing, outside the project, not JSON/YAML)."),
    ("TC212", "dangling-ref", E, "A `#`-reference that resolves to nothing in the published schema."),
    ("TC213", "schema-not-compilable", E, "A published schema that jsonschema-rs, the runtime's validator, cannot compile."),
    ("TC214", "defs-name-taken", E, "A schema's own `$defs` entry takes the name of a recursive type or schema file toolc publishes there."),
    ("TC215", "duplicate-anchor", E, "Two schemas published in one document declare the same `$anchor`, so a reference to it is ambiguous."),
    ("TC220", "typed-widely", I, "A schema no Python type can say: its handler parameter is typed wider."),
    ("TC221", "foreign-metaschema", E, "A `$schema` other than 2020-12's: the validator cannot honour another metaschema."),
    ("TC230", "too-deep", E, "A published schema or value nests objects and arrays deeper than 64 levels."),
    ("TC231", "schema-too-large", E, "Published schemas over 100,000 nodes a tool (5,000,000 a project), types written out."),
    ("TC232", "number-too-large", E, "An integer of over 640 digits, or a number beyond a float's range."),
    ("TC233", "toolset-too-deep", E, "Toolsets nested more than 64 deep (each naming the next as `inner`, member or server)."),
    ("TC234", "too-many-tools", E, "A toolset that would publish more than 100,000 tools."),
    ("TC301", "bad-name", E, "A name outside the MCP tool-name rule `^[A-Za-z0-9._-]{1,128}$`."),
    ("TC302", "unportable-name", W, "A name outside `^[A-Za-z0-9_-]{1,64}$`, refused by some providers."),
    ("TC303", "bad-reference", E, "A handler, predicate, prepare or wrapper that is not `module.path:attr`."),
    ("TC304", "unknown-tool", E, "A toolset names a tool the module does not define."),
    ("TC305", "unknown-type", E, "A schema names a type that no module defines."),
    ("TC306", "unknown-toolset", E, "A reference to a toolset that does not exist."),
    ("TC307", "unknown-module", E, "A reference to a module no spec defines."),
    ("TC308", "duplicate-module", E, "Two spec files declare the same module."),
    ("TC309", "bad-module-name", E, "A module name must be an ASCII Python identifier, not a keyword."),
    ("TC310", "missing-handler", E, "A tool listed by a `function` toolset has no handler."),
    ("TC311", "bad-identifier", E, "Type and toolset names are ASCII identifiers; a type may not take a JSON type's name."),
    ("TC312", "duplicate-tool", E, "An external tool takes the name of another tool of its module."),
    ("TC313", "case-collision", E, "Two modules, or two golden files of a module, whose names differ only in case: one file on macOS and Windows."),
    ("TC314", "reserved-file-name", E, "A module or golden file named like a Windows device (`CON`, `nul.txt`, `COM1`...), with any extension."),
    ("TC315", "shadowing-module", E, "A module name that would shadow `toolc`, what generated code imports, the standard library or the package's `__init__`."),
    ("TC316", "name-too-long", E, "A module name over 100 characters: it names files, and file systems limit their names."),
    ("TC320", "claude-name-too-long", W, "A published name over 64 characters as Claude calls it, `mcp__<server>__<tool>`."),
    ("TC321", "ambiguous-double-underscore", W, "A `__` inside a published name or server name: Claude's `mcp__a__b__c` cannot be split back."),
    ("TC330", "bad-renamed-from", E, "A tool's `renamed_from` names itself, a tool its module still defines, another's old name, or no valid tool name."),
    ("TC340", "unknown-code-module", E, "A handler, predicate, prepare or wrapper names a module not on the python-path."),
    ("TC341", "unknown-code-attribute", E, "A handler, predicate, prepare or wrapper names an attribute its module lacks."),
    ("TC342", "unchecked-code-reference", W, "A code reference that cannot be checked without importing it."),
    ("TC401", "toolset-cycle", E, "Toolsets that contain themselves."),
    ("TC402", "tool-collision", E, "Two tools publish the same name in a `combined` set."),
    ("TC403", "rename-missing", E, "A `renamed` entry names a tool the inner set does not have."),
    ("TC404", "mcp-transport", E, "An `mcp` toolset needs exactly one of `stdio` and `http`."),
    ("TC405", "external-schema", E, "An `external` tool needs an `input_schema`."),
    ("TC406", "unknown-export", E, "`export` names a toolset that does not exist."),
    ("TC407", "duplicate-published-name", E, "Two tools of a set publish the same name."),
    ("TC408", "not-an-mcp-server", E, "A server of an `mcp_manager` must be an `mcp` toolset."),
    ("TC501", "certify-mismatch", E, "What a real MCP client lists differs from the spec."),
    ("TC502", "description-lost", E, "A description in the spec does not reach the wire."),
    ("TC503", "build-failed", E, "Generated code could not be loaded or served."),
    ("TC505", "unsafe-output-path", E, "A path toolc would write, move or delete (a manifest or journal entry, a link on the way) that is not a plain file of the output folder."),
    ("TC506", "output-write-failed", E, "Writing the output failed (disk full, file too large, read-only, no permission); the old output is kept."),
    ("TC510", "search-meta-conflict", E, "A `_meta` key given in `meta` and through `search` with two different values."),
    ("TC511", "misspelt-search-key", W, "A `meta` key that is a near miss of a tool-search `_meta` key (`anthropic/alwaysLaod`)."),
    ("TC512", "token-budget", W, "An export costs more tokens upfront than `token-budget` (estimated: characters / 4)."),
    ("TC513", "tool-budget", W, "An export loads more tools upfront than `tool-budget`."),
    ("TC514", "few-tools-searched", I, "Tool search defers the tools of an export of fewer than about ten, where loading them upfront is faster."),
    ("TC520", "renamed-from-unknown", W, "A new tool's `renamed_from` names no tool of the golden files it is compared with, or one still published: the diff shows a removal and an addition."),
    ("TC601", "target-rejects-keyword", E, "A configured target (`targets`) refuses a keyword or keyword value of an exported tool: the request would fail."),
    ("TC602", "target-changes-schema", W, "A configured target would silently drop, move into the description or change part of an exported tool: the model reads something else."),
    ("TC603", "target-open-object", E, "A configured target needs every object closed (`additionalProperties: false`)."),
    ("TC604", "target-optional-property", E, "A configured target needs every property of an object in `required` (OpenAI strict)."),
    ("TC605", "target-schema-limit", E, "An exported tool's schema passes a bound of a configured target (properties, nesting, enum values, characters)."),
    ("TC606", "target-request-limit", E, "An export passes a configured target's bound on one request (strict tools, optional or union parameters)."),
    ("TC607", "target-name", E, "A published tool or parameter name a configured target refuses."),
    ("TC608", "target-reference", E, "A `$ref` a configured target cannot follow: a recursive schema, or a reference out of the document."),
    ("TC701", "bidi-control", E, "A bidirectional control character in a text the model reads: it reads otherwise than it is stored."),
    ("TC702", "invisible-character", E, "A zero-width or other invisible character in a text the model reads, which a reviewer does not see."),
    ("TC703", "tag-character", E, "Unicode tag characters (U+E0000 block) in a text the model reads: ASCII hidden from every reader but the model."),
    ("TC704", "html-comment", W, "An HTML comment in a text the model reads: hidden where the text is rendered."),
    ("TC705", "instruction-phrase", W, "A text the model reads holds an instruction aimed at the model (\"ignore previous instructions\", \"do not tell the user\", `<IMPORTANT>`)."),
    ("TC901", "bad-config", E, "`[tool.toolc]` in pyproject.toml is not valid."),
    ("TC902", "path-outside-project", E, "`specs` or `output` in `[tool.toolc]` lies outside the project (links resolved)."),
)
del E, W


@dataclass(slots=True)
class Suppression:
    """``# toolc: ignore[TC201, TC302]`` on a spec line: those rules are not reported on
    that line. ``used`` collects the codes that suppressed something."""

    span: Span                      # the comment
    codes: tuple[str, ...]          # as written (codes or rule names); in a bag, the codes
    used: set[str] = field(default_factory=set)
    judged: set[str] = field(default_factory=set)
    written: tuple[str, ...] = ()   # in a bag: the codes as written (a reusing build's record)


# Certification and the budget report after the front end: a suppression of one of their
# codes is judged by them (``judge_suppressions``), not at the end of the analysis.
LATE_CODES = frozenset({"TC501", "TC502", "TC503", "TC512", "TC513", "TC514", "TC520"})
CERTIFY_CODES = frozenset({"TC501", "TC502", "TC503"})
# What hides text from a reviewer or speaks to the model: never folded into the line of
# an imported server (toolc.report.vendored), whatever its severity.
TEXT_CODES = frozenset({"TC701", "TC702", "TC703", "TC704", "TC705"})
# Found by comparing with the golden files a writing build replaces, which it then
# replaces: what the next build compares with is another base, so never said again from
# a record.
COMPARISON_CODES = frozenset({"TC520"})
BUDGET_CODES = frozenset({"TC512", "TC513", "TC514"})
_RULE_NAMES: dict[str, str] = {}


def rule_code(text: str) -> str | None:
    """The code a rule is named by, as a code (``TC201``) or a name (``missing-description``)."""
    if not _RULE_NAMES:
        _RULE_NAMES.update({rule.name: code for code, rule in RULES.items()})
    text = text.strip()
    return text if text in RULES else _RULE_NAMES.get(text)


def glob_matches(glob: str, path: str) -> bool:
    """A per-file glob against a spec's path as shown (relative to the project): ``*``
    matches across ``/``; a glob without ``/`` also matches the file name alone."""
    if fnmatch.fnmatchcase(path, glob):
        return True
    return "/" not in glob and fnmatch.fnmatchcase(path.rpartition("/")[2], glob)


@dataclass(slots=True)
class DiagnosticBag:
    """Collects every diagnostic of a run, with the configured severities applied: per
    rule (``severities``), per file (``per_file``: globs in order, the last match wins)
    and inline (``suppressions`` per path and line)."""

    severities: dict[str, Severity] = field(default_factory=dict)
    items: list[Diagnostic] = field(default_factory=list)
    per_file: tuple[tuple[str, dict[str, Severity]], ...] = ()
    suppressions: dict[str, dict[int, Suppression]] = field(default_factory=dict)
    _file_tables: dict[str, list[dict[str, Severity]]] = field(default_factory=dict, repr=False)

    def report(
        self,
        code: str,
        message: str,
        span: Span | None = None,
        *,
        notes: Iterable[str] = (),
        severity: Severity | None = None,
        fixes: Iterable[Fix] = (),
        related: Iterable[Related] = (),
    ) -> None:
        """Record a problem; ``severity`` overrides the rule's default, config overrides
        both (the file's severity over the project's), an inline suppression all.
        ``fixes`` and ``related``: see :class:`Diagnostic`."""
        if span is not None and self._suppressed(code, span):
            return
        sev = self.severities.get(code, severity if severity is not None else RULES[code].severity)
        if span is not None and self.per_file:
            for table in self._tables_of(span.path):
                sev = table.get(code, sev)
        if sev is Severity.OFF:
            return
        self.items.append(Diagnostic(code, sev, message, span, tuple(notes), tuple(fixes),
                                     tuple(related)))

    def _suppressed(self, code: str, span: Span) -> bool:
        lines = self.suppressions.get(span.path)
        found = lines.get(span.line) if lines else None
        if found is None or code not in found.codes:
            return False
        found.used.add(code)
        return True

    def _tables_of(self, path: str) -> list[dict[str, Severity]]:
        tables = self._file_tables.get(path)
        if tables is None:
            tables = [t for glob, t in self.per_file if glob_matches(glob, path)]
            self._file_tables[path] = tables
        return tables

    def sibling(self) -> DiagnosticBag:
        """An empty bag with the same severities and suppressions (shared: what it
        suppresses counts as used here)."""
        return DiagnosticBag(self.severities, [], self.per_file, self.suppressions)

    def add_suppressions(self, path: str, found: Iterable[Suppression]) -> None:
        """Take a file's suppression comments; one naming no rule is reported (TC022)."""
        lines = self.suppressions.setdefault(path, {})
        for item in found:
            codes = []
            for text in item.codes:
                code = rule_code(text)
                if code is None:
                    self.report("TC022", f"`# toolc: ignore[{text}]` names no rule; it "
                                "suppresses nothing", item.span,
                                fixes=_without(item.span, item.codes, {text}))
                else:
                    codes.append(code)
            lines[item.span.line] = Suppression(item.span, tuple(codes), written=item.codes)

    def judge_suppressions(self, owns: Callable[[str], bool]) -> None:
        """TC022 for each suppression of a code ``owns`` selects that suppressed nothing:
        called by the stage that reports those codes, once it is done."""
        for lines in self.suppressions.values():
            for item in lines.values():
                unused = [c for c in item.codes
                          if owns(c) and c not in item.used and c not in item.judged]
                item.judged.update(c for c in item.codes if owns(c))
                if unused:
                    shown = " or ".join(unused)
                    self.report("TC022", f"unused suppression: no {shown} is reported on "
                                "this line", item.span,
                                notes=["remove the code from the comment, or the comment"],
                                fixes=_without(item.span, item.written or item.codes,
                                               set(unused)))

    def extend(self, diagnostics: Iterable[Diagnostic]) -> None:
        for d in diagnostics:
            self.report(d.code, d.message, d.span, notes=d.notes, severity=d.severity,
                        fixes=d.fixes, related=d.related)

    @property
    def has_errors(self) -> bool:
        return any(d.severity is Severity.ERROR for d in self.items)

    @property
    def has_warnings(self) -> bool:
        return any(d.severity is Severity.WARNING for d in self.items)

    def sorted(self) -> list[Diagnostic]:
        """Stable, reader-friendly order: by file, line, column, then code."""

        def key(d: Diagnostic) -> tuple[str, int, int, str]:
            s = d.span
            return (s.path, s.line, s.col, d.code) if s else ("", 0, 0, d.code)

        return sorted(self.items, key=key)

    def __iter__(self) -> Iterator[Diagnostic]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)


def _without(comment: Span, written: tuple[str, ...], drop: set[str]) -> tuple[Fix, ...]:
    """The fix of a suppression comment (at ``comment``) that names ``drop`` in vain: the
    comment without them, or no comment."""
    kept = [w for w in written if w not in drop and rule_code(w) not in drop]
    if not kept:
        return (Fix("Remove the suppression comment", comment, ""),)
    return (Fix(f"Remove {', '.join(sorted(drop))} from the comment", comment,
                f"# toolc: ignore[{', '.join(kept)}]"),)


def fail(code: str, message: str, span: Span | None = None) -> NoReturn:
    """Stop the current stage with one located diagnostic."""
    rule = RULES[code]
    raise SpecError([Diagnostic(code, rule.severity, message, span)])
