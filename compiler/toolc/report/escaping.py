"""What every format does to the text it shows: a control character written as an escape
(what reaches a terminal or a CI log is shown, never obeyed), and a long text bounded
around an ellipsis (a name from a spec may be 9 MB long). Each format's own escaping is
in its module (:mod:`toolc.report.github`, :mod:`toolc.report.markdown`,
:mod:`toolc.report.json`), over these."""

from __future__ import annotations

import re

ELLIPSIS = "\u2026"

# A message quotes names and values from the spec, and a name may be 9 MB long too.
MESSAGE_CHARS = 500

# What a terminal would act on rather than show: C0 and C1 controls, DEL, and the Unicode
# marks that reorder or split text (bidi overrides, line and paragraph separators); and
# a lone surrogate (a golden file's "\ud800"), which no encoder writes as UTF-8.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069"
                      "\ud800-\udfff]")


def bounded(text: str, limit: int = MESSAGE_CHARS) -> str:
    """``text``, or its start and end around an ellipsis when it is longer than ``limit``."""
    if len(text) <= limit:
        return text
    half = (limit - 1) // 2
    return f"{text[:half]}{ELLIPSIS}{text[-half:]}"


def escape_controls(text: str) -> str:
    """``text`` with every control character written as an escape (``\\x1b``): what
    reaches a terminal or a CI log is shown, never obeyed."""
    if _CONTROL.search(text) is None:
        return text
    return _CONTROL.sub(_escaped, text)


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
