"""A griffe extension for the reference site: every public name has a docstring.

mkdocstrings leaves an object without a docstring out of the page (and griffe says
nothing), so a new public name would go undocumented without a sound. This extension
walks the public surface once the package is loaded and logs a warning per public name
without one, which `mkdocs build --strict` turns into a failure:

- `toolc.runtime`: every name of its `__all__`, and the public members each class
  defines itself;
- `toolc.adapters` and each adapter module: the module, its public names, and their
  members likewise.

A method that overrides a documented one of a base class (a toolset kind's `list_tools`)
takes the base's docstring, so that the contract is written once and shown everywhere;
an attribute may instead be named in its class's `Attributes:` section (a dataclass's
fields, described in one table).
"""

from __future__ import annotations

from typing import Any

import griffe

ADAPTERS = "toolc.adapters"
RUNTIME = "toolc.runtime"


class RequiredDocstrings(griffe.Extension):
    """Warn about each public name of toolc's Python surface that has no docstring."""

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader,
                   **kwargs: Any) -> None:
        if pkg.path != "toolc":
            return
        seen: set[str] = set()
        for obj in surface(pkg):
            check(obj, seen)


def surface(pkg: griffe.Module) -> list[griffe.Object]:
    """The objects the reference documents: the runtime's exports, the adapters."""
    runtime = pkg[RUNTIME.removeprefix("toolc.")]
    found: list[griffe.Object] = [runtime]
    for name in runtime.exports or ():
        found.append(runtime[name].final_target)
    adapters = pkg[ADAPTERS.removeprefix("toolc.")]
    found.append(adapters)
    for module in adapters.modules.values():
        if module.is_public:
            found.append(module)
            found.extend(m for m in module.members.values() if not m.is_alias and m.is_public)
    return found


def check(obj: griffe.Object, seen: set[str]) -> None:
    """Warn when `obj`, or a public member its class defines, has no docstring."""
    if obj.path in seen:
        return
    seen.add(obj.path)
    if obj.docstring is None and not inherit(obj) and not listed_in_class(obj):
        where = f"{obj.relative_filepath}:{obj.lineno}"
        griffe.logger.warning("%s: %s is public and has no docstring", where, obj.path)
    if isinstance(obj, griffe.Class):
        for name, member in obj.members.items():
            if not member.is_alias and not name.startswith("_"):
                check(member, seen)  # type: ignore[arg-type]


def inherit(obj: griffe.Object) -> bool:
    """Give a method without a docstring the one it overrides, if a base documents it."""
    parent = obj.parent
    if not isinstance(parent, griffe.Class):
        return False
    for base in parent.mro():
        member = base.members.get(obj.name)
        if member is not None and not member.is_alias and member.docstring is not None:
            obj.docstring = griffe.Docstring(member.docstring.value, parent=obj)
            return True
    return False


def listed_in_class(obj: griffe.Object) -> bool:
    """Whether `obj` is an attribute its class's docstring lists under `Attributes:`."""
    parent = obj.parent
    if not isinstance(obj, griffe.Attribute) or not isinstance(parent, griffe.Class):
        return False
    if parent.docstring is None:
        return False
    return any(section.kind is griffe.DocstringSectionKind.attributes
               and any(item.name == obj.name for item in section.value)
               for section in parent.docstring.parsed)
