"""The report as Markdown: counts per class, and the top patterns with a few examples.

A pattern is what the disagreements of one class have in common: for calls that reached
the wrong side (handler ran, or valid refused), the top-level keywords of the group's
schema; for crashes and unresolvable published schemas, the error with names and
values taken out.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from typing import Any

from report import CALL_CLASSES, PUBLISHED_CLASSES

_QUIET = {"$schema", "$id", "$comment", "description", "title"}
TOP_PATTERNS = 8
EXAMPLES = 3


def pattern(row: dict[str, Any], kind: str) -> str:
    if kind in ("invalid-reached-handler", "valid-refused", "valid-changed"):
        schema = row["schema"]
        if not isinstance(schema, dict):
            return f"boolean schema {json.dumps(schema)}"
        keys = sorted(k for k in schema if k not in _QUIET)
        untyped = "" if "type" in schema else " (no `type`)"
        return "keywords " + ", ".join(f"`{k}`" for k in keys) + untyped
    text = row.get("published_error", "") if kind in PUBLISHED_CLASSES else row["error"]
    first = text.split("\n")[0]
    first = re.sub(r"\bg\d+\b", "<tool>", first)
    first = re.sub(r"'[^']*'", "'…'", first)
    first = re.sub(r"\{.*\}", "{…}", first)
    first = re.sub(r"(Unresolvable: )\S+", r"\1<ref>", first)
    return first[:140] or "(no message)"


def _compact(value: Any, width: int = 160) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= width else text[: width - 1] + "…"


def markdown(result: dict[str, Any]) -> str:
    t = result["totals"]
    rows = result["disagreements"]
    out = ["| class | instances | of them valid | of them invalid |", "|---|---:|---:|---:|"]
    every = [("agree", t["classes"]["agree"], None, None)]
    for kind in [*CALL_CLASSES[1:], *PUBLISHED_CLASSES]:
        mine = [r for r in rows if _kind_of(r, kind)]
        every.append((kind, len(mine), sum(r["valid"] for r in mine),
                      sum(not r["valid"] for r in mine)))
    net = [r for r in rows if r["network"]]
    every.append(("network attempted", len(net), sum(r["valid"] for r in net),
                  sum(not r["valid"] for r in net)))
    api = [r for r in rows if r["api"]]
    every.append(("Python API call_tool raised", len(api), sum(r["valid"] for r in api),
                  sum(not r["valid"] for r in api)))
    for kind, n, v, i in every:
        out.append(f"| {kind} | {n} | {'' if v is None else v} | {'' if i is None else i} |")
    out.append("")
    out.append(f"Groups: {t['groups']}, built {t['built']}, refused {t['refused']} "
               f"({t['refused_unlocated']} without a located diagnostic), unexpressible "
               f"{t['unexpressible']}; {t['published_differs']} built groups publish `x` "
               f"differently from the suite's schema. Groups whose listed inputSchema "
               f"does not resolve on its own: {t['published_groups']['published-unresolvable']}; "
               f"rejects a valid instance: {t['published_groups']['published-rejects-valid']}; "
               f"accepts an invalid one: {t['published_groups']['published-accepts-invalid']}.")
    said = Counter(f"{d['code']} ({d['severity']})" for g in result["groups"]
                   if g["status"] == "built" for d in g.get("diagnostics", []))
    if said:
        out.append("Diagnostics on built groups: "
                   + ", ".join(f"{k} x{v}" for k, v in sorted(said.items())) + ".")
    for kind in [*CALL_CLASSES[1:], *PUBLISHED_CLASSES]:
        mine = [r for r in rows if _kind_of(r, kind)]
        if mine:
            out.extend(["", f"### {kind} ({len(mine)})", ""])
            out.extend(_patterns(mine, kind))
    if net:
        out.extend(["", f"### network attempted ({len(net)})", ""])
        targets: dict[str, int] = defaultdict(int)
        for r in net:
            for n in r["network"]:
                targets[n] += 1
        out.extend(f"- `{k}`: {v} calls" for k, v in sorted(targets.items(), key=lambda kv: -kv[1]))
    api = [r for r in rows if r["api"]]
    if api:
        out.extend(["", f"### exception escaped the Python API's call_tool ({len(api)})", ""])
        kinds: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in api:
            kinds[pattern({**r, "error": r["api"]}, "crash")].append(r)
        for name, members in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
            files = ", ".join(sorted({m["file"] for m in members}))
            out.append(f"- **{name}**: {len(members)} ({files})")
    refused = [g for g in result["groups"] if g["status"] == "refused"]
    if refused:
        out.extend(["", f"### refused at build ({len(refused)} groups)", ""])
        for g in refused:
            d = (g.get("diagnostics") or [{}])[0]
            out.append(f"- {g['file']} #{g['index']} \"{g['group']}\": {d.get('code')} at "
                       f"{d.get('line')}:{d.get('col')}: {d.get('message')}")
    return "\n".join(out) + "\n"


def _kind_of(row: dict[str, Any], kind: str) -> bool:
    return row["published"] == kind if kind in PUBLISHED_CLASSES else row["class"] == kind


def _patterns(rows: list[dict[str, Any]], kind: str) -> list[str]:
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        groups[pattern(r, kind)].append(r)
    ranked = sorted(groups.items(), key=lambda kv: -len(kv[1]))
    out = []
    for name, members in ranked[:TOP_PATTERNS]:
        files = sorted({m["file"] for m in members})
        out.append(f"- **{name}**: {len(members)} ({', '.join(files)})")
        seen: set[str] = set()
        shown = 0
        for m in members:
            if m["group"] in seen or shown >= EXAMPLES:
                continue
            seen.add(m["group"])
            shown += 1
            said = m.get("published_error") if kind in PUBLISHED_CLASSES else m["error"]
            said = " ".join((said or "").split())[:160]
            outcome = f"jsonschema: {said}" if kind in PUBLISHED_CLASSES else m["happened"] + (
                f": {said}" if said and kind != "invalid-reached-handler" else "")
            out.append(f"  - {m['file']} \"{m['group']}\": `{_compact(m['schema'])}` "
                       f"with `{_compact(m['instance'], 60)}` "
                       f"({'valid' if m['valid'] else 'invalid'}) -> {outcome}")
    if len(ranked) > TOP_PATTERNS:
        rest = sum(len(v) for _, v in ranked[TOP_PATTERNS:])
        out.append(f"- {len(ranked) - TOP_PATTERNS} more patterns: {rest} instances")
    return out
