"""Walk two published versions of each tool and classify every difference.

The walk compares meaning, not text: keys and properties in another order, branches of
``anyOf`` in another order, ``1`` against ``1.0`` are all the same. Where the two sides
have different structures it lines them up first: a schema without ``anyOf`` compared
with one that has it is taken as a one-branch ``anyOf`` (so ``nullable`` turning on is a
``null`` branch added), and a ``$ref`` compared with anything else is followed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from urllib.parse import unquote

from ..runtime.json_pointers import MISSING, step
from . import rules
from . import schema_rules as sr
from .result import At, Change, DiffInputError, Json, canonical, compact, parts_of, same

_TOOL_KEYS = frozenset({"name", "title", "description", "inputSchema", "outputSchema",
                        "annotations", "_meta"})

# Keywords that describe a schema rather than constrain it: when one side has anyOf and
# the other does not, these stay outside while the rest becomes the single branch.
_OUTER = frozenset({"description", "title", "default", "examples", "deprecated", "readOnly",
                    "writeOnly", "$comment", "$defs"})

_SUBSCHEMA_PRESENCE = ("contains", "propertyNames")
_OPENNESS = ("additionalProperties", "unevaluatedProperties")
_HANDLED = frozenset({
    "type", "enum", "const", "format", "pattern", "uniqueItems", "multipleOf", *sr.BOUNDS,
    "description", "title", "default", "properties", "required", "patternProperties",
    *_OPENNESS, *_SUBSCHEMA_PRESENCE, "items", "prefixItems", "allOf", "anyOf", "oneOf",
    "$defs", "$ref", "$comment",
})


def classify(old_tools: Mapping[str, Json], new_tools: Mapping[str, Json],
             renames: Mapping[str, str] | None = None) -> list[Change]:
    """Every change between two tool sets, unsorted and before any policy. ``renames``:
    new key -> old key, the renames the specs declare (``renamed_from``)."""
    changes: list[Change] = []
    # Two tool files of the same text hold the same tool: most of a build's are (the
    # texts are there when both sides were read or made as files, as ToolSets are).
    old_texts = getattr(old_tools, "texts", {})
    new_texts = getattr(new_tools, "texts", {})
    renamed = renamed_tools(old_tools, new_tools, renames or {})
    was = set(renamed.values())
    # Tools pair up by key (folder and name): a tool that moved to another module's
    # folder is another tool, since each module is served on its own.
    for key in sorted(set(old_tools) | set(new_tools)):
        at = At(key)
        if key in was:
            continue  # reported under its new name
        if key in renamed:
            before = old_tools[renamed[key]]
            changes.append(rules.tool_renamed(at, _name(before, renamed[key]),
                                              _name(new_tools[key], key)))
            changes.extend(_inside(key, before, new_tools[key]))
        elif key not in new_tools:
            changes.append(rules.tool_removed(at, old_tools[key]))
        elif key not in old_tools:
            changes.append(rules.tool_added(at, new_tools[key]))
        elif key in old_texts and old_texts[key] == new_texts.get(key):
            continue
        else:
            changes.extend(_inside(key, old_tools[key], new_tools[key]))
    return changes


def renamed_tools(old_tools: Mapping[str, Json], new_tools: Mapping[str, Json],
                  declared: Mapping[str, str]) -> dict[str, str]:
    """New key -> old key of each tool renamed: those ``declared`` (a key only in the
    new side, from a key only in the old), and a tool only in the new side that is, but
    for its name, the one tool only in the old side of its folder that it is alike."""
    gone = {k for k in old_tools if k not in new_tools}
    if not gone:
        return {}
    came = {k for k in new_tools if k not in old_tools}
    found = {new: old for new, old in declared.items() if new in came and old in gone}
    taken = set(found.values())
    olds: dict[tuple[str, str], list[str]] = {}
    for key in sorted(gone):
        if key not in taken:
            olds.setdefault(_body(key, old_tools[key]), []).append(key)
    news: dict[tuple[str, str], list[str]] = {}
    for key in sorted(came) if olds else ():
        if key not in found:
            news.setdefault(_body(key, new_tools[key]), []).append(key)
    for body, keys in olds.items():
        if len(keys) == 1 and len(news.get(body, ())) == 1:
            found[news[body][0]] = keys[0]
    return found


def _body(key: str, tool: Json) -> tuple[str, str]:
    """A tool's folder and everything it publishes but its name."""
    rest = {k: v for k, v in tool.items() if k != "name"} if isinstance(tool, dict) else tool
    return key.rpartition("/")[0], canonical(rest)


def _name(tool: Json, key: str) -> str:
    name = tool.get("name") if isinstance(tool, dict) else None
    return name if isinstance(name, str) else key.rpartition("/")[2]


def _inside(key: str, old: dict[str, Json], new: dict[str, Json]) -> list[Change]:
    try:
        return diff_tool(key, old, new)
    except RecursionError:
        raise DiffInputError(f"tool {key!r}: its schemas are nested too deeply "
                             "to compare") from None


def diff_tool(tool: str, old: dict[str, Json], new: dict[str, Json]) -> list[Change]:
    """The changes inside one tool (``tool``: its key) that exists on both sides."""
    at = At(tool)
    if same(old, new):
        return []
    changes = [*rules.description(old, new, at), *rules.title(old, new, at)]
    before, after = old.get("annotations"), new.get("annotations")
    if all(isinstance(a, dict | None) for a in (before, after)):
        changes += rules.tool_annotations(before, after, at.child("annotations"))
    elif not same(before, after):
        changes.append(rules.other(at, "annotations", before, after,
                                   "annotations" in old, "annotations" in new))
    if not same(old.get("_meta"), new.get("_meta")):
        changes += rules.meta(old.get("_meta"), new.get("_meta"), at.child("_meta"))
    if "inputSchema" in old or "inputSchema" in new:
        walk = _Walk(old.get("inputSchema"), new.get("inputSchema"))
        changes += walk.schema(walk.old_root, walk.new_root, at.child("inputSchema"))
    if "outputSchema" in old and "outputSchema" in new:
        walk = _Walk(old["outputSchema"], new["outputSchema"])
        changes += walk.schema(walk.old_root, walk.new_root, at.child("outputSchema"))
    elif "outputSchema" in old or "outputSchema" in new:
        changes.append(rules.output_schema_presence(
            at.child("outputSchema"), old.get("outputSchema"), new.get("outputSchema")))
    for key in sorted((old.keys() | new.keys()) - _TOOL_KEYS):
        if (key in old) != (key in new) or not same(old.get(key), new.get(key)):
            changes.append(rules.other(at, key, old.get(key), new.get(key),
                                       key in old, key in new))
    return changes


def _as_schema(value: Json) -> Json:
    # Absent and `true` admit everything, exactly like the empty schema.
    return {} if value is None or value is True else value


def _combinator(schema: dict[str, Json]) -> str | None:
    for keyword in ("anyOf", "oneOf"):
        if isinstance(schema.get(keyword), list):
            return keyword
    return None


def _split(schema: dict[str, Json], keyword: str | None) -> tuple[dict[str, Json], list[Json]]:
    """The keywords beside the branches, and the branches; no combinator: one branch."""
    if keyword is not None:
        return {k: v for k, v in schema.items() if k != keyword}, list(schema[keyword])
    outer = {k: v for k, v in schema.items() if k in _OUTER}
    return outer, [{k: v for k, v in schema.items() if k not in _OUTER}]


def _description(schema: Json) -> str | None:
    text = schema.get("description") if isinstance(schema, dict) else None
    return text if isinstance(text, str) and text.strip() else None


class _Walk:
    """One schema pair (an inputSchema or outputSchema), with its roots for ``$ref``."""

    def __init__(self, old_root: Json, new_root: Json):
        self.old_root, self.new_root = _as_schema(old_root), _as_schema(new_root)
        self._followed: set[tuple[str, str]] = set()

    def schema(self, old: Json, new: Json, at: At, hide_added: frozenset[str] = frozenset(),
               hide_removed: frozenset[str] = frozenset()) -> Iterator[Change]:
        """All changes at and below ``at``; ``hide_*``: descriptions that only moved."""
        old, new = _as_schema(old), _as_schema(new)
        if same(old, new):
            return
        if not isinstance(old, dict) or not isinstance(new, dict):
            yield self._not_objects(old, new, at)
            return
        if ("$ref" in old or "$ref" in new) and not same(old.get("$ref"), new.get("$ref")):
            yield from self._follow(old, new, at, hide_added, hide_removed)
            return
        moved_into = None
        if _combinator(old) or _combinator(new):
            old, new, moved_into, branch_changes = self._branches(old, new, at)
            yield from branch_changes
        yield from rules.description(old, new, at, moved_into=moved_into,
                                     hide_added=hide_added, hide_removed=hide_removed)
        yield from rules.title(old, new, at)
        yield from rules.default(old, new, at)
        for check in (sr.types, sr.enum, sr.const, sr.format_, sr.bounds, sr.pattern,
                      sr.unique_items, sr.multiple_of, sr.properties):
            yield from check(old, new, at)
        yield from self._members(old, new, at)
        yield from self._arrays(old, new, at)
        for keyword in sorted((old.keys() | new.keys()) - _HANDLED):
            if (keyword in old) != (keyword in new) or not same(old.get(keyword),
                                                                new.get(keyword)):
                yield rules.other(at, keyword, old.get(keyword), new.get(keyword),
                                  keyword in old, keyword in new)

    def _not_objects(self, old: Json, new: Json, at: At) -> Change:
        if new is False:
            return rules.emit(at, "TYPE_NARROWED", f"{at.describe()} no longer admits any "
                              "value (false)", old, new)
        if old is False:
            return rules.emit(at, "TYPE_WIDENED", f"{at.describe()} admits values again "
                              "(was false)", old, new)
        return rules.emit(at, "OTHER_CHANGED", f"{at.describe()} changed from {compact(old)}"
                          f" to {compact(new)}; no rule classifies it", old, new)

    def _follow(self, old: dict[str, Json], new: dict[str, Json], at: At,
                hide_added: frozenset[str], hide_removed: frozenset[str]) -> Iterator[Change]:
        """Compare what two different ``$ref``s (or a ``$ref`` and a schema) stand for."""
        key = (str(old.get("$ref")), str(new.get("$ref")))
        target_old, target_new = _resolve(old, self.old_root), _resolve(new, self.new_root)
        if target_old is None or target_new is None:
            yield rules.other(at, "$ref", old.get("$ref"), new.get("$ref"),
                              "$ref" in old, "$ref" in new)
        elif key not in self._followed:  # a recursive type is compared once
            self._followed.add(key)
            yield from self.schema(target_old, target_new, at, hide_added, hide_removed)

    def _branches(self, old: dict[str, Json], new: dict[str, Json], at: At
                  ) -> tuple[dict[str, Json], dict[str, Json], str | None, list[Change]]:
        """Pair anyOf/oneOf branches; returns the outer keywords left to compare."""
        kw_old, kw_new = _combinator(old), _combinator(new)
        changes: list[Change] = []
        if kw_old and kw_new and kw_old != kw_new:
            changes.append(rules.other(at, kw_new, kw_old, kw_new, True, True))
        outer_old, old_branches = _split(old, kw_old)
        outer_new, new_branches = _split(new, kw_new)
        text_old, text_new = _description(outer_old), _description(outer_new)
        hide_added = frozenset({text_old}) if text_old and not text_new else frozenset()
        hide_removed = frozenset({text_new}) if text_new and not text_old else frozenset()
        moved_into = (kw_new if text_old and not text_new and kw_new
                      and any(_description(b) for b in new_branches) else None)
        # Pointers follow the side that has the branches; a lifted side is the schema itself.
        label = kw_new or kw_old or "anyOf"
        pairs, removed, added = sr.match_branches(old_branches, new_branches)
        for i in removed:
            changes.append(sr.branch_removed(at, label, i if kw_old else None, old_branches[i]))
        for j in added:
            changes.append(sr.branch_added(at, label, j if kw_new else None, new_branches[j]))
        for i, j in pairs:
            place = at.child(kw_new, j) if kw_new else at
            changes += self.schema(old_branches[i], new_branches[j], place,
                                   hide_added, hide_removed)
        return outer_old, outer_new, moved_into, changes

    def _members(self, old: dict[str, Json], new: dict[str, Json], at: At) -> Iterator[Change]:
        """Walk into properties, patternProperties, additionalProperties, $defs."""
        for keyword in ("properties", "$defs", "patternProperties"):
            before, after = _mapping(old.get(keyword)), _mapping(new.get(keyword))
            for name in sorted(before.keys() & after.keys()):
                yield from self.schema(before[name], after[name], at.child(keyword, name))
            if keyword == "patternProperties":
                for name in sorted(before.keys() ^ after.keys()):
                    yield from sr.presence(at.child(keyword), name, before, after)
        for keyword in _OPENNESS:
            yield from sr.openness(old, new, at, keyword)
            if sr.openness_level(old.get(keyword)) == sr.openness_level(new.get(keyword)) == 1:
                yield from self.schema(old[keyword], new[keyword], at.child(keyword))

    def _arrays(self, old: dict[str, Json], new: dict[str, Json], at: At) -> Iterator[Change]:
        """Walk into items, prefixItems, contains, propertyNames and allOf."""
        if "items" in old or "items" in new:
            yield from self.schema(old.get("items"), new.get("items"), at.child("items"))
        before, after = _sequence(old.get("prefixItems")), _sequence(new.get("prefixItems"))
        for index in range(max(len(before), len(after))):
            if index < len(before) and index < len(after):
                yield from self.schema(before[index], after[index], at.child("prefixItems", index))
            else:
                yield from sr.presence(at.child("prefixItems"), str(index),
                                       _by_index(before), _by_index(after))
        for keyword in _SUBSCHEMA_PRESENCE:
            if keyword in old and keyword in new:
                yield from self.schema(old[keyword], new[keyword], at.child(keyword))
            else:
                yield from sr.presence(at, keyword, old, new)
        all_old, all_new = _sequence(old.get("allOf")), _sequence(new.get("allOf"))
        pairs, removed, added = sr.match_branches(all_old, all_new)
        for i in removed:
            yield sr.branch_removed(at, "allOf", i, all_old[i])
        for j in added:
            yield sr.branch_added(at, "allOf", j, all_new[j])
        for i, j in pairs:
            yield from self.schema(all_old[i], all_new[j], at.child("allOf", j))


def _mapping(value: Json) -> dict[str, Json]:
    return value if isinstance(value, dict) else {}


def _sequence(value: Json) -> list[Json]:
    return value if isinstance(value, list) else []


def _by_index(items: list[Json]) -> dict[str, Json]:
    return {str(index): item for index, item in enumerate(items)}


def _resolve(schema: dict[str, Json], root: Json) -> Json:
    """A schema with its local ``$ref`` replaced by the target (siblings win); None if remote."""
    seen: set[str] = set()
    while isinstance(schema, dict) and "$ref" in schema:
        ref = schema["$ref"]
        if not isinstance(ref, str) or not ref.startswith("#") or ref in seen:
            return None
        seen.add(ref)
        target: Json = root
        for part in parts_of(unquote(ref[1:])):  # a URI fragment: percent-encoded
            target = step(target, part)
            if target is MISSING:
                return None
        siblings = {k: v for k, v in schema.items() if k != "$ref"}
        schema = {**target, **siblings} if isinstance(target, dict) else target
    return _as_schema(schema)
