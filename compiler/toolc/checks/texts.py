"""The text the model reads: hidden characters and instructions aimed at the model.

Tool poisoning hides instructions for the model where a reviewer does not see them, or
says them plainly where a reviewer does not look. This check reads every text of every
exported tool as published (its description and title, `annotations.title`, and in its
input and output schemas every description, title, property name, and string in an
`enum`, `const`, `default` or `examples`), and each module's description (the server's
instructions under `toolc serve`), own and pinned alike:

- TC701 a bidirectional control (U+202A-U+202E, U+2066-U+2069, LRM, RLM, ALM), which
  makes the text read otherwise than it is stored;
- TC702 an invisible character: zero-width ones, word joiners, fillers, variation
  selectors (but the emoji ones after an emoji), a soft hyphen, other format or control
  characters (tab and line breaks excepted);
- TC703 Unicode tag characters (U+E0000-U+E007F): ASCII written invisibly, said decoded;
- TC704 an HTML comment, which a rendered page hides and the model reads;
- TC705 a phrase of :data:`PHRASES`, instructions aimed at the model ("ignore previous
  instructions", "do not tell the user", ``<IMPORTANT>``, "system prompt", ...).

The first three are errors (nothing hidden is ever what the text's author wanted the
reviewer to miss), the last two warnings; severities are configurable as for any rule.
A pinned tool's findings keep their severity, and are never folded into the per-server
line (:mod:`toolc.report.vendored`): hidden text in a third-party tool is the finding.
Runs after resolve, on the published tools, as the target check does.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Iterator
from typing import Any

from ..diagnostics import DiagnosticBag, Span
from ..ir import ProjectIR, ToolIR
from ..model.parse import ParsedModule

BIDI = frozenset({0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)})
TAGS = range(0xE0000, 0xE0080)
INVISIBLE = frozenset({0x00AD, 0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180E, 0x200B,
                       0x200C, 0x200D, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0x3164,
                       0xFEFF, 0xFFA0, *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)})
_ALLOWED_CONTROLS = frozenset("\t\n\r")
_EMOJI_JOINERS = frozenset({0x200D, 0xFE0E, 0xFE0F})

# The instructions aimed at the model, by class: (class, pattern), matched without case,
# each at word boundaries. Keep it small and specific: every hit is a warning a reviewer
# reads (docs/spec-format.md lists them).
_OVERRIDE = (r"(ignore|disregard|forget) (all |any )?(of )?(the |your )?(previous|prior|"
             r"above|earlier|preceding|other) (instructions|prompts?|messages|rules|directions)")
_KEEP_FROM = (r"(do not|don't|never) (tell|inform|mention|reveal|show|alert|notify) "
              r"(this to |it to )?the user")
_PRECEDENCE = (r"(takes?|has|have) (precedence|priority) over (all |any )?(other |previous )?"
               r"(instructions|tools|rules)")
PHRASES: tuple[tuple[str, str], ...] = (
    ("override", _OVERRIDE),
    ("override", r"(new|updated) instructions (for|to) (the )?(assistant|model|ai)"),
    ("secrecy", _KEEP_FROM),
    ("secrecy", r"without (telling|informing|notifying|alerting) the user"),
    ("secrecy", r"the user (must|should) (not|never) (know|see|be told|find out)"),
    ("markup", r"<\s*/?\s*(important|system|instructions?|admin|secret)\s*>"),
    ("system", r"system prompt"),
    ("precedence", _PRECEDENCE),
    ("shadowing", r"before (using|calling) (any|every) other tool"),
    ("secrets", r"(~/\.ssh|id_rsa|\.aws/credentials)"),
)
# What each class of phrase does, as its finding says it.
SAYS = {"override": "tells the model to drop its instructions",
        "secrecy": "tells the model to keep something from the user",
        "markup": "marks text as instructions for the model",
        "system": "speaks of the model's system prompt",
        "precedence": "claims precedence over other instructions",
        "shadowing": "tells the model how to use other tools",
        "secrets": "names a file of secrets"}
# Word-bounded: a phrase is not found inside a longer word (a tag is bounded by itself).
_PHRASES = tuple((kind, re.compile(pattern if kind == "markup" else
                                   rf"(?<!\w){pattern}(?!\w)", re.IGNORECASE))
                 for kind, pattern in PHRASES)
_COMMENT = re.compile(r"<!--")
# Text with nothing hidden for certain, looked for in one pass before the per-character
# walk (almost every description): every BIDI, TAGS and INVISIBLE point is above ASCII,
# and ASCII's only control or format characters are its controls, of which these three
# are allowed.
_PLAIN = re.compile(r"[\t\n\r\x20-\x7e]*")
# A word each phrase (and the HTML comment) cannot match without: a tool whose texts hold
# none of them, in printable ASCII, has no finding (:func:`_plainly_clean`).
NEEDED = ("ignore", "disregard", "forget", "instructions", "the user", "<", "system prompt",
          "precedence", "priority", "other tool", ".ssh", "id_rsa", ".aws")
# What JSON writes for a control character (ensure_ascii off, everything else is as is).
_CONTROL_ESCAPES = ("\\u", "\\b", "\\f")
_TEXT_KEYS = ("description", "title")
_VALUE_KEYS = {"enum": "a value in `enum`", "const": "the `const`",
               "default": "the `default`", "examples": "a value in `examples`"}
MAX_SHOWN = 80


def check_texts(project: ProjectIR, modules: Iterable[ParsedModule],
                bag: DiagnosticBag) -> None:
    """Every finding in every text of every export (a text said once, however many
    exports publish it) and in each module's description."""
    said: set[tuple[str, Span, str]] = set()
    for parsed in modules:
        text = parsed.description
        if isinstance(text, str) and "description" in parsed.raw.value_spans:
            where = f"the description of module '{parsed.name}' (the server's instructions)"
            _report(bag, said, text, parsed.raw.value_spans["description"], where)
    for module in project.modules.values():
        for tool in module.exported_tools:
            if _plainly_clean(tool):
                continue
            for pointer, text, what in _texts(tool):
                _report(bag, said, text, tool.span_at(pointer), f"{what} of tool '{tool.name}'")


def _plainly_clean(tool: ToolIR) -> bool:
    """True when no text of ``tool`` can hold a finding, told from its JSON in one pass:
    almost every tool, which then skips the walk that finds each text's place. Printable
    ASCII throughout (nothing hidden, and no case beyond ASCII's for the phrases to fold)
    and no word of :data:`NEEDED`. Anything else, or a value JSON cannot write, is walked."""
    try:
        written = json.dumps([tool.description, tool.title, tool.annotations,
                              tool.input_schema, tool.output_schema], ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return False
    if not _PLAIN.fullmatch(written) or any(e in written for e in _CONTROL_ESCAPES):
        return False
    lowered = written.lower()
    return not any(word in lowered for word in NEEDED)


def _texts(tool: ToolIR) -> Iterator[tuple[str, str, str]]:
    """(pointer into the published tool, text, what it is) of every text of ``tool``."""
    if tool.has_description:
        yield "/description", tool.description, "the description"
    if tool.title:
        yield "/title", tool.title, "the title"
    annotations = tool.annotations or {}
    if isinstance(annotations.get("title"), str):
        yield "/annotations/title", annotations["title"], "annotations.title"
    yield from _schema_texts(tool.input_schema, "/inputSchema")
    if tool.output_schema is not None:
        yield from _schema_texts(tool.output_schema, "/outputSchema")


def _schema_texts(schema: Any, base: str) -> Iterator[tuple[str, str, str]]:
    stack: list[tuple[Any, str]] = [(schema, base)]
    while stack:
        node, at = stack.pop()
        if isinstance(node, list):
            stack.extend((v, f"{at}/{i}") for i, v in enumerate(node))
            continue
        if not isinstance(node, dict):
            continue
        for key, value in node.items():
            here = f"{at}/{_token(str(key))}"
            if key in _TEXT_KEYS and isinstance(value, str):
                yield here, value, f"the {key} at {at.removeprefix(base) or '/'}"
            elif key in _VALUE_KEYS:
                yield from _strings(value, here, f"{_VALUE_KEYS[key]} at "
                                    f"{at.removeprefix(base) or '/'}")
            elif key == "properties" and isinstance(value, dict):
                for name in value:
                    yield (f"{here}/{_token(str(name))}", str(name),
                           f"the property name at {at.removeprefix(base) or '/'}")
            if isinstance(value, dict | list) and key not in _VALUE_KEYS:
                stack.append((value, here))


def _strings(value: Any, at: str, what: str) -> Iterator[tuple[str, str, str]]:
    stack: list[tuple[Any, str]] = [(value, at)]
    while stack:
        item, here = stack.pop()
        if isinstance(item, str):
            yield here, item, what
        elif isinstance(item, list):
            stack.extend((v, f"{here}/{i}") for i, v in enumerate(item))
        elif isinstance(item, dict):
            stack.extend((v, f"{here}/{_token(str(k))}") for k, v in item.items())
            yield from ((here, str(k), what) for k in item)


def _report(bag: DiagnosticBag, said: set[tuple[str, Span, str]], text: str, span: Span,
            where: str) -> None:
    for code, message, notes in findings(text):
        full = f"{where}: {message}"
        if (code, span, full) not in said:
            said.add((code, span, full))
            bag.report(code, full, span, notes=notes)


_TAGS_NOTE = "remove them: tag characters hide text from every reader but the model"
_REVIEW = ("describe what the tool does and takes; if this text is a third-party "
           "server's, review it before you pin it")


def findings(text: str) -> Iterator[tuple[str, str, tuple[str, ...]]]:
    """(code, message, notes) of every finding in ``text``, by class."""
    yield from _hidden(text)
    comment = _COMMENT.search(text)
    if comment:
        said = (f"an HTML comment at character {comment.start() + 1} "
                f"({_excerpt(text, comment.start())}): a rendered page hides it, the model "
                "reads it")
        yield "TC704", said, ("write what the model should know as plain text",)
    for kind, pattern in _PHRASES:
        match = pattern.search(text)
        if match:
            said = (f"'{_bounded(match.group(0))}' {SAYS[kind]}: an instruction aimed at "
                    "the model, not a description of the tool")
            yield "TC705", said, (_REVIEW,)


def _hidden(text: str) -> Iterator[tuple[str, str, tuple[str, ...]]]:
    if _PLAIN.fullmatch(text):
        return  # printable ASCII and line breaks: none of the classes below has one
    bidi: list[int] = []
    invisible: list[int] = []
    tags: list[int] = []
    for i, char in enumerate(text):
        point = ord(char)
        if point in BIDI:
            bidi.append(i)
        elif point in TAGS:
            tags.append(i)
        elif _invisible(text, i, point):
            invisible.append(i)
    if bidi:
        said = (f"{_which(text, bidi)}: a bidirectional control makes the text read "
                "otherwise than it is")
        yield "TC701", said, ("remove it; write right-to-left text without controls",)
    if invisible:
        said = (f"{_which(text, invisible)}: an invisible character the model reads and a "
                "reviewer does not see")
        yield "TC702", said, ("remove it",)
    if tags:
        hidden = "".join(chr(ord(text[i]) - 0xE0000) for i in tags
                         if 0xE0020 <= ord(text[i]) <= 0xE007E)
        said = (f"{len(tags)} Unicode tag character(s) from character {tags[0] + 1}, "
                f"invisible text that reads '{_bounded(hidden)}'")
        yield "TC703", said, (_TAGS_NOTE,)


def _invisible(text: str, i: int, point: int) -> bool:
    if point in _EMOJI_JOINERS and _after_emoji(text, i):
        return False  # 👍🏽 and 👨‍👩‍👧 are made with these
    if point in INVISIBLE:
        return True
    category = unicodedata.category(text[i])
    return (category == "Cc" and text[i] not in _ALLOWED_CONTROLS) or category == "Cf"


def _after_emoji(text: str, i: int) -> bool:
    prev = text[i - 1] if i else ""
    return bool(prev) and (unicodedata.category(prev) == "So" or ord(prev) in _EMOJI_JOINERS)


def _which(text: str, places: list[int]) -> str:
    first = places[0]
    name = unicodedata.name(text[first], f"U+{ord(text[first]):04X}")
    more = f" and {len(places) - 1} more" if len(places) > 1 else ""
    return (f"U+{ord(text[first]):04X} {name} at character {first + 1}{more} "
            f"({_excerpt(text, first)})")


def _excerpt(text: str, at: int) -> str:
    """The text around ``at``, every character that is not plain shown as an escape."""
    start, end = max(0, at - 20), min(len(text), at + 20)
    shown = "".join(c if c.isprintable() and ord(c) not in INVISIBLE else _escape(c)
                    for c in text[start:end])
    return f"'{'...' if start else ''}{shown}{'...' if end < len(text) else ''}'"


def _escape(char: str) -> str:
    point = ord(char)
    return f"\\u{point:04x}" if point <= 0xFFFF else f"\\U{point:08x}"


def _bounded(text: str) -> str:
    shown = "".join(c if c.isprintable() and ord(c) not in INVISIBLE else _escape(c)
                    for c in text)
    return shown if len(shown) <= MAX_SHOWN else shown[:MAX_SHOWN - 3] + "..."


def _token(part: str) -> str:
    return part.replace("~", "~0").replace("/", "~1")
