"""Rule functions for the keywords of one schema node: types, values, constraints,
object members and combinator branches. Each yields the changes of that node only;
:mod:`toolc.diff.classify` decides where to recurse.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from fractions import Fraction

from .result import At, Change, Json, canonical, compact, same
from .rules import breaking, emit, other, what_happened

Schema = dict[str, Json]

# -- types and values ------------------------------------------------------------------

_ALL_TYPES = frozenset({"array", "boolean", "integer", "fraction", "null", "object", "string"})


def type_atoms(value: Json) -> frozenset[str]:
    """The kinds of JSON value a ``type`` admits; ``number`` is integers and fractions."""
    if value is None:
        return _ALL_TYPES
    names = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    atoms: set[str] = set()
    for name in names:
        atoms |= {"integer", "fraction"} if name == "number" else {str(name)}
    return frozenset(atoms)


def value_atom(value: Json) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return "integer"
    if isinstance(value, float):
        return "fraction"
    return "string" if isinstance(value, str) else "array" if isinstance(value, list) else "object"


def _type_text(value: Json) -> str:
    if value is None:
        return "any type"
    if isinstance(value, list):
        return " | ".join(v if isinstance(v, str) else compact(v) for v in value)
    return value if isinstance(value, str) else compact(value)


def types(old: Schema, new: Schema, at: At) -> Iterator[Change]:
    """TYPE_NARROWED / TYPE_WIDENED from the sets of values ``type`` admits."""
    before, after = old.get("type"), new.get("type")
    was, now = type_atoms(before), type_atoms(after)
    if was == now:
        return
    # An enum or const already limited the values: what matters is whether they still fit.
    listed = old["enum"] if isinstance(old.get("enum"), list) else (
        [old["const"]] if "const" in old else None)
    if listed is not None and all(value_atom(v) in now for v in listed):
        was = was & now
        if was == now:
            return
    where, here = at.describe(), at.child("type")
    message = f"{where}: type changed from {_type_text(before)} to {_type_text(after)}"
    if now < was:
        rule = "TYPE_NARROWED"
    elif was < now:
        rule = "TYPE_WIDENED"
    else:
        rule = breaking(at, "TYPE_NARROWED", "TYPE_WIDENED")
    yield emit(here, rule, message, before, after)


def enum(old: Schema, new: Schema, at: At) -> Iterator[Change]:
    """ENUM_VALUE_REMOVED / ENUM_VALUE_ADDED per value; a whole enum appearing is a constraint."""
    before, after = old.get("enum"), new.get("enum")
    if same(before, after) and ("enum" in old) == ("enum" in new):
        return
    if "enum" in old and "enum" in new and not (isinstance(before, list)
                                                and isinstance(after, list)):
        yield other(at, "enum", before, after, True, True)
        return
    if not isinstance(before, list) or not isinstance(after, list):
        yield _constraint(at, "enum", "enum" not in old, old, new)
        return
    kept = {canonical(v) for v in after}
    for index, value in enumerate(before):
        if canonical(value) not in kept:
            message = f"{at.describe()}: enum value {compact(value)} was removed"
            yield emit(at.child("enum", index), "ENUM_VALUE_REMOVED", message, value, None)
    had = {canonical(v) for v in before}
    for index, value in enumerate(after):
        if canonical(value) not in had:
            message = f"{at.describe()}: enum value {compact(value)} was added"
            yield emit(at.child("enum", index), "ENUM_VALUE_ADDED", message, None, value)


def format_(old: Schema, new: Schema, at: At) -> Iterator[Change]:
    """FORMAT_ADDED for a format added or changed; a format removed loosens."""
    had, has = "format" in old, "format" in new
    if had == has and same(old.get("format"), new.get("format")):
        return
    if has:
        change = what_happened(old.get("format"), new.get("format"), had, has)
        yield emit(at.child("format"), "FORMAT_ADDED", f"{at.describe()}: format {change}",
                   old.get("format"), new.get("format"))
    else:
        yield _constraint(at, "format", False, old, new)


# -- constraints -----------------------------------------------------------------------

_LOWER = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains")
_UPPER = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains")
BOUNDS = _LOWER + _UPPER


def _number(value: Json) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _finite(value: Json) -> bool:
    return _number(value) and math.isfinite(value)


def _constraint(at: At, keyword: str, tighter: bool | None, old: Schema, new: Schema,
                note: str = "") -> Change:
    """One CONSTRAINT_* change; ``tighter=None`` means incomparable: the side's breaking rule."""
    if tighter is None:
        rule = breaking(at, "CONSTRAINT_TIGHTENED", "CONSTRAINT_LOOSENED")
    else:
        rule = "CONSTRAINT_TIGHTENED" if tighter else "CONSTRAINT_LOOSENED"
    before, after = old.get(keyword), new.get(keyword)
    change = what_happened(before, after, keyword in old, keyword in new)
    return emit(at.child(keyword), rule, f"{at.describe()}: {keyword} {change}{note}",
                before, after)


def bounds(old: Schema, new: Schema, at: At) -> Iterator[Change]:
    """Lower and upper bounds: minimum/maximum, exclusive*, lengths, item and property counts."""
    for key in BOUNDS:
        had, has = key in old, key in new
        before, after = old.get(key), new.get(key)
        if had == has and same(before, after):
            continue
        if (had and not _number(before)) or (has and not _number(after)):
            yield other(at, key, before, after, had, has)
            continue
        if not had or not has:
            tighter = has
        else:
            was, now = float(old[key]), float(new[key])
            tighter = now > was if key in _LOWER else now < was
        yield _constraint(at, key, tighter, old, new)


def unique_items(old: Schema, new: Schema, at: At) -> Iterator[Change]:
    before, after = old.get("uniqueItems") is True, new.get("uniqueItems") is True
    if before != after:
        yield _constraint(at, "uniqueItems", after, old, new)


def multiple_of(old: Schema, new: Schema, at: At) -> Iterator[Change]:
    had, has = "multipleOf" in old, "multipleOf" in new
    before, after = old.get("multipleOf"), new.get("multipleOf")
    if had == has and same(before, after):
        return
    tighter: bool | None = has
    if had and has and _finite(before) and _finite(after) and before and after:
        # Every multiple of 4 is a multiple of 2: a new step that the old one divides tightens.
        ratio = Fraction(str(after)) / Fraction(str(before))
        tighter = True if ratio.denominator == 1 else False if ratio.numerator == 1 else None
    yield _constraint(at, "multipleOf", tighter, old, new)


def pattern(old: Schema, new: Schema, at: At) -> Iterator[Change]:
    had, has = "pattern" in old, "pattern" in new
    if had == has and same(old.get("pattern"), new.get("pattern")):
        return
    note = "; patterns cannot be compared, so this is taken as breaking" if had and has else ""
    yield _constraint(at, "pattern", None if had and has else has, old, new, note)


def const(old: Schema, new: Schema, at: At) -> Iterator[Change]:
    had, has = "const" in old, "const" in new
    if had == has and same(old.get("const"), new.get("const")):
        return
    yield _constraint(at, "const", None if had and has else has, old, new)


def presence(at: At, keyword: str, old: Schema, new: Schema) -> Iterator[Change]:
    """A constraining subschema (contains, propertyNames, ...) that appeared or went away."""
    had, has = keyword in old, keyword in new
    if had != has:
        yield _constraint(at, keyword, has, old, new)


# -- objects ---------------------------------------------------------------------------

def _members(schema: Schema, keyword: str) -> dict[str, Json]:
    value = schema.get(keyword)
    return value if isinstance(value, dict) else {}


def _required(schema: Schema) -> list[str]:
    value = schema.get("required")
    return [n for n in value if isinstance(n, str)] if isinstance(value, list) else []


def _admits_other(schema: Schema, name: str) -> bool:
    """Whether an object still accepts a property called ``name`` it does not list."""
    for pattern_text in _members(schema, "patternProperties"):
        try:
            if re.search(pattern_text, name):
                return True
        except re.error:
            continue
    closed = (schema.get("additionalProperties") is False
              or schema.get("unevaluatedProperties") is False)
    return not closed


def properties(old: Schema, new: Schema, at: At) -> Iterator[Change]:
    """PROPERTY_REMOVED/ADDED_*, REQUIRED_ADDED/REMOVED for one object's members."""
    before, after = _members(old, "properties"), _members(new, "properties")
    req_before, req_after = _required(old), _required(new)
    for name in before.keys() - after.keys():
        open_object = _admits_other(new, name)
        place = at.child("properties", name)
        message = f"{place.describe()} was removed"
        if place.kind == "input":
            message += ("; the object still admits other properties, so calls that send it "
                        "are not rejected" if open_object else "; calls that send it are rejected")
        yield emit(place, "PROPERTY_REMOVED", message, before[name], None,
                   open_object=open_object)
    for name in after.keys() - before.keys():
        place = at.child("properties", name)
        kind = "required" if name in req_after else "optional"
        yield emit(place, f"PROPERTY_ADDED_{kind.upper()}",
                   f"{kind} {place.describe()} was added", None, after[name])
    yield from _required_changes(before, after, req_before, req_after, at)


def _required_changes(before: dict[str, Json], after: dict[str, Json], req_before: list[str],
                      req_after: list[str], at: At) -> Iterator[Change]:
    for name in set(req_after) - set(req_before):
        if name in before and name in after:
            place = at.child("properties", name)
            yield emit(place, "REQUIRED_ADDED", f"{place.describe()} is now required",
                       False, True)
        elif name not in after:  # a name required without a schema of its own
            place = at.child("required", req_after.index(name))
            yield emit(place, "REQUIRED_ADDED", f"{at.describe()}: '{name}' is now required",
                       None, name)
    for name in set(req_before) - set(req_after):
        if name in before and name in after:
            place = at.child("properties", name)
            yield emit(place, "REQUIRED_REMOVED", f"{place.describe()} is no longer required",
                       True, False)
        elif name not in before:
            place = at.child("required", req_before.index(name))
            yield emit(place, "REQUIRED_REMOVED",
                       f"{at.describe()}: '{name}' is no longer required", name, None)


def openness_level(value: Json) -> int:
    """additionalProperties/unevaluatedProperties: false admits nothing, a schema some, true all."""
    if value is False:
        return 0
    if value is None or value is True or value == {}:
        return 2
    return 1


def openness(old: Schema, new: Schema, at: At, keyword: str) -> Iterator[Change]:
    """Only when the level moves; two schemas on the same level are walked by classify."""
    was, now = openness_level(old.get(keyword)), openness_level(new.get(keyword))
    if was != now:
        yield _constraint(at, keyword, now < was, old, new)


# -- combinator branches ---------------------------------------------------------------

def _shape(branch: Json) -> str:
    """What a branch is about, so that an edited branch pairs with its old self."""
    if isinstance(branch, dict):
        if "$ref" in branch:
            return "ref:" + canonical(branch["$ref"])
        if "type" in branch:
            return "type:" + canonical(sorted(type_atoms(branch["type"])))
        for key in ("const", "enum", "properties", "items"):
            if key in branch:
                return key
    return "other:" + canonical(branch)


def match_branches(old: list[Json], new: list[Json]) -> tuple[list[tuple[int, int]],
                                                              list[int], list[int]]:
    """Pair old and new branches: identical ones first, then same shape, in order.

    Returns the pairs, the old indexes left unmatched and the new indexes left unmatched;
    so a reordering of branches pairs everything and reports nothing.
    """
    left_old, left_new = list(range(len(old))), list(range(len(new)))
    pairs: list[tuple[int, int]] = []
    for key in (canonical, _shape):
        for i in list(left_old):
            for j in left_new:
                if key(old[i]) == key(new[j]):
                    pairs.append((i, j))
                    left_old.remove(i)
                    left_new.remove(j)
                    break
    return sorted(pairs, key=lambda p: p[1]), left_old, left_new


def _branch_text(branch: Json) -> str:
    return "null" if branch == {"type": "null"} else compact(branch)


def branch_removed(at: At, keyword: str, index: int | None, branch: Json) -> Change:
    """A branch of ``at``'s ``keyword`` that has no counterpart now; ``index`` None: the
    old schema had no combinator, so the branch is the old schema itself, at ``at``."""
    where = at.describe()
    place = at if index is None else at.child(keyword, index)
    if keyword == "allOf":
        return emit(place, "CONSTRAINT_LOOSENED",
                    f"{where}: allOf branch {compact(branch)} was removed", branch, None)
    return emit(place, "TYPE_NARROWED", f"{where} no longer admits {_branch_text(branch)} "
                f"({keyword} branch removed)", branch, None)


def branch_added(at: At, keyword: str, index: int | None, branch: Json) -> Change:
    where = at.describe()
    place = at if index is None else at.child(keyword, index)
    if keyword == "allOf":
        return emit(place, "CONSTRAINT_TIGHTENED",
                    f"{where}: allOf branch {compact(branch)} was added", None, branch)
    return emit(place, "TYPE_WIDENED", f"{where} now admits {_branch_text(branch)} "
                f"({keyword} branch added)", None, branch)
