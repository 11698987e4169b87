"""The harness's report: a table per keyword file, totals, and every disagreement.

A *disagreement* is any of: an instance whose call did not agree with the suite, an
instance on which the listed inputSchema itself (checked with `jsonschema`) disagrees
or does not resolve, a connection attempted while calling, and a refused group without
a located diagnostic (line:column inside its own tool), and an exception escaping the
Python API's `call_tool` (`api`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from calls import CLASSES
from translate import differences

CALL_CLASSES = CLASSES
PUBLISHED_CLASSES = ("published-unresolvable", "published-rejects-valid",
                     "published-accepts-invalid")
_SHORT = {"invalid-reached-handler": "inv>hdl", "valid-refused": "val-ref",
          "valid-changed": "val-chg", "crash": "crash", "exception": "exc",
          "published-unresolvable": "p-unres", "published-rejects-valid": "p-rej",
          "published-accepts-invalid": "p-acc"}


def group_record(g: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "file": g.file, "index": g.group.index, "group": g.group.description, "tool": g.tool,
        "status": g.status, "schema": g.group.schema, "instances": len(g.group.tests),
    }
    if g.reason:
        record["reason"] = g.reason
    if g.diagnostics:
        record["diagnostics"] = g.diagnostics
    if g.translation.approximations:
        record["approximations"] = g.translation.approximations
    if g.status == "refused":
        record["located"] = any(d.get("line") and d.get("col") and d["tool_line"] >= 1
                                and d.get("severity") == "error" for d in g.diagnostics)
    if g.status == "built":
        record["published"] = g.published
        changed = differences(g.group.schema, g.published)
        if changed:
            record["published_differs"] = changed
    return record


def combine(parts: list[dict[str, Any]], suite: str, toolc: str,
            seconds: float) -> dict[str, Any]:
    groups = sorted((g for p in parts for g in p["groups"]), key=lambda g: (g["file"], g["index"]))
    rows = sorted((r for p in parts for r in p["rows"]), key=lambda r: (r["file"], r["tool"]))
    files = sorted({g["file"] for g in groups})
    per_file = [_summary(f, [g for g in groups if g["file"] == f],
                         [r for r in rows if r["file"] == f]) for f in files]
    totals = _summary("TOTAL", groups, rows)
    disagreements = [r for r in rows
                     if r["class"] != "agree" or r["published"] or r["network"] or r["api"]]
    unlocated = [g for g in groups if g["status"] == "refused" and not g.get("located")]
    totals["disagreements"] = len(disagreements) + len(unlocated)
    return {
        "suite": suite, "toolc": toolc, "seconds": round(seconds, 1),
        "notes": [n for p in parts for n in p["notes"]],
        "files": per_file, "totals": totals,
        "outcomes": {r["case"]: outcome(r) for r in rows},
        "group_status": {f"{g['file']}#{g['index']}": g["status"] for g in groups},
        "disagreements": disagreements,
        "refused_unlocated": unlocated,
        "groups": groups,
    }


def outcome(row: dict[str, Any]) -> str:
    """One instance's result in a word: its class, then each other problem it showed."""
    flags = [row["published"]] if row["published"] else []
    flags += ["network"] if row["network"] else []
    flags += ["api-raised"] if row["api"] else []
    return "+".join([row["class"], *flags])


def compare(old: dict[str, Any], new: dict[str, Any], limit: int = 25) -> str:
    """What changed since ``old`` (a report or an outcomes file), instance by instance.

    *fixed*: now `agree`; *broken*: was `agree`; *better*: the same class or `agree` with
    fewer problems beside it; *worse*: any other change (another class, a new problem).
    """
    files = {f["file"] for f in new["files"]}  # a run of some files compares only those
    before = {c: o for c, o in old.get("outcomes", {}).items() if c.split("#")[0] in files}
    after = new["outcomes"]
    kinds: dict[str, list[str]] = {"fixed": [], "broken": [], "better": [], "worse": []}
    for case, now in after.items():
        was = before.get(case)
        if was is None or was == now:
            continue
        kinds[_change(was, now)].append(case)
    appeared = [c for c in after if c not in before]
    gone = [c for c in before if c not in after]
    status_old, status_new = old.get("group_status", {}), new["group_status"]
    regrouped = [f"{k}: {status_old[k]} -> {v}" for k, v in status_new.items()
                 if k in status_old and status_old[k] != v]
    lines = [(f"vs baseline: {len(kinds['fixed'])} fixed, {len(kinds['better'])} better, "
              f"{len(kinds['worse'])} worse, {len(kinds['broken'])} broken (agreed before); "
              f"{len(appeared)} now called, {len(gone)} no longer called; "
              f"{len(regrouped)} groups changed status")]
    for title in ("broken", "worse"):
        cases = kinds[title]
        lines.extend(f"  {title}: {c}: {before[c]} -> {after[c]}" for c in cases[:limit])
        if len(cases) > limit:
            lines.append(f"  ... and {len(cases) - limit} more {title}")
    lines.extend(f"  now called, disagreeing: {c}: {after[c]}" for c in appeared
                 if after[c] != "agree")
    lines.extend(f"  group {r}" for r in regrouped[:limit])
    return "\n".join(lines)


def _change(was: str, now: str) -> str:
    if now == "agree":
        return "fixed"
    if was == "agree":
        return "broken"
    (was_class, *was_flags), (now_class, *now_flags) = was.split("+"), now.split("+")
    if now_class in (was_class, "agree") and set(now_flags) <= set(was_flags):
        return "better"
    return "worse"


def _summary(name: str, groups: list[dict[str, Any]], rows: list[dict[str, Any]]) -> dict[str, Any]:
    status = Counter(g["status"] for g in groups)
    classes = Counter(r["class"] for r in rows)
    published = Counter(r["published"] for r in rows if r["published"])
    return {
        "file": name, "groups": len(groups), "built": status["built"],
        "refused": status["refused"], "unexpressible": status["unexpressible"],
        "refused_unlocated": sum(1 for g in groups
                                 if g["status"] == "refused" and not g.get("located")),
        "published_differs": sum(1 for g in groups if g.get("published_differs")),
        "instances": len(rows), "classes": {c: classes[c] for c in CALL_CLASSES},
        "published": {c: published[c] for c in PUBLISHED_CLASSES},
        "published_groups": {c: len({(r["file"], r["tool"]) for r in rows if r["published"] == c})
                             for c in PUBLISHED_CLASSES},
        "network": sum(1 for r in rows if r["network"]),
        "api": sum(1 for r in rows if r["api"]),
        "not_run": sum(g["instances"] for g in groups if g["status"] != "built"),
    }


def table(result: dict[str, Any]) -> str:
    heads = ["file", "grp", "built", "refus", "unexp", "inst", "agree",
             *(_SHORT[c] for c in CALL_CLASSES[1:]), *(_SHORT[c] for c in PUBLISHED_CLASSES),
             "net", "api"]
    lines = []
    for s in [*result["files"], result["totals"]]:
        cells = [s["file"], s["groups"], s["built"], s["refused"], s["unexpressible"],
                 s["instances"], *(s["classes"][c] for c in CALL_CLASSES),
                 *(s["published"][c] for c in PUBLISHED_CLASSES), s["network"], s["api"]]
        lines.append([str(c) if c != 0 or i < 1 else "." for i, c in enumerate(cells)])
    widths = [max(len(h), *(len(row[i]) for row in lines)) for i, h in enumerate(heads)]
    fmt = "  ".join(f"{{:<{w}}}" if i == 0 else f"{{:>{w}}}" for i, w in enumerate(widths))
    out = [fmt.format(*heads), fmt.format(*("-" * w for w in widths))]
    out += [fmt.format(*row) for row in lines[:-1]]
    out += [fmt.format(*("-" * w for w in widths)), fmt.format(*lines[-1])]
    t = result["totals"]
    out.append("")
    out.append(f"{t['instances']} instances called in {t['built']} built groups "
               f"({t['not_run']} instances of refused/unexpressible groups not called); "
               f"{t['classes']['agree']} agree; {t['disagreements']} disagreements; "
               f"{t['refused_unlocated']} refused without a located diagnostic; "
               f"{t['published_differs']} built groups publish `x` differently from the "
               f"suite; published schema of {t['published_groups']['published-unresolvable']} "
               f"groups does not resolve on its own; {result['seconds']} s")
    out.extend(f"note: {n}" for n in result["notes"])
    return "\n".join(out)
