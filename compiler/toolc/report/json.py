"""The json format, for a program: diagnostics as ``{"diagnostics": [{code, name,
severity, message, path, line, col, notes}]}``, classified changes as ``{"changes":
[{tool, pointer, rule, severity, message, old, new, accepted, reason, spec, tools,
files}], "warnings": [...]}`` (docs/diff.md), each indented and safe to print
(:func:`json_text`). A value is always whole here; messages and notes are bounded as
in every format."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic
from .escaping import bounded

if TYPE_CHECKING:
    from ..diff.result import Change, Json
    from .change_parts import Locator

# What JSON leaves as it is of the controls (it escapes C0 itself; its own line breaks
# stay): DEL, C1, the bidi and separator marks, lone surrogates.
_JSON_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def json_text(document: object) -> str:
    """``document`` as indented JSON for a terminal or a log: UTF-8 kept, and besides the
    controls JSON itself escapes, DEL, the C1 controls and the bidi and separator marks
    written as ``\\u`` escapes too, and so are lone surrogates (valid JSON, read back
    the same, and always encodable as UTF-8)."""
    text = json.dumps(document, indent=2, ensure_ascii=False)
    return _JSON_UNSAFE.sub(_json_escaped, text) if _JSON_UNSAFE.search(text) else text


def _json_escaped(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def diagnostics_json(diagnostics: Iterable[Diagnostic], **more: object) -> str:
    """``{"diagnostics": [{code, name, severity, message, path, line, col, notes}]}``,
    and the keys of ``more`` after it (``vendor``: :mod:`toolc.report.vendored`)."""
    rows = []
    for d in diagnostics:
        s = d.span
        rows.append({
            "code": d.code,
            "name": d.rule.name,
            "severity": str(d.severity),
            "message": bounded(d.message),
            "path": s.path if s else None,
            "line": s.line if s else None,
            "col": s.col if s else None,
            "notes": [bounded(n) for n in d.notes],
        })
    return json_text({"diagnostics": rows, **more})


def changes_json(changes: list[Change], locate: Locator | None = None,
                 warnings: Sequence[str] = (), policy: Sequence[Change] | None = None) -> str:
    """``{"changes": [...], "warnings": [...]}``; compared with a base, ``"policy"`` first."""
    def rows(items: Iterable[Change]) -> list[dict[str, Json]]:
        return [{**c.to_json(), "files": locate.files(c) if locate else []} for c in items]

    found = {"changes": rows(changes), "warnings": list(warnings)}
    return json_text(found if policy is None else {"policy": rows(policy), **found})
