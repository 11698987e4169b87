"""The files a build makes: names every checkout can hold, that shadow nothing.

A module becomes ``generated/<module>.py`` and ``generated/schemas/<module>/``; each tool
it exports becomes ``schemas/<module>/<published name>.json``. The output is committed
and checked out everywhere, so a name must work on every file system, not only on the
author's: two names that differ only in case are one file on macOS and Windows (one
golden file would silently replace the other), and Windows refuses the device names
(``CON``, ``nul.txt``, ``COM1``) whatever their extension. A module must not shadow
what its code, or code beside it, imports (``toolc``, the standard library, the
package's own ``__init__``), and its name must leave room in a file name.
"""

from __future__ import annotations

import re
import sys

from ..diagnostics import Span
from ..loader import YMap
from ..model.parse import ParsedModule
from .facts import Entry, ProjectFacts, ToolKey
from .modules import is_identifier
from .reporting import Reporter

MODULE_NAME_MAX = 100
# Windows device names: reserved with any extension, in any case (`nul.txt`, `Com1.json`).
_RESERVED = re.compile(r"^(CON|PRN|AUX|NUL|COM[0-9¹²³]|LPT[0-9¹²³])$", re.IGNORECASE)
# What a generated module imports at run time, besides the standard library.
_IMPORTED = frozenset({"toolc", "pydantic", "pydantic_core", "mcp", "typing_extensions"})
_PACKAGE_FILES = frozenset({"__init__", "__main__"})


def windows_reserved(file_name: str) -> bool:
    """``CON``, ``nul.txt``, ``COM1.json``: a name Windows keeps for a device."""
    return _RESERVED.match(file_name.split(".")[0].rstrip(" ")) is not None


def shadowed(module: str) -> str | None:
    """What a module of this name would shadow, or None."""
    if module.casefold() in _PACKAGE_FILES:  # `__INIT__.py` is `__init__.py` on Windows
        return f"the output package's own `{module.casefold()}.py`"
    if module in _IMPORTED:
        return f"`{module}`, which generated code imports"
    if module in sys.stdlib_module_names:
        return f"the standard library's `{module}`"
    return None


def _module_span(parsed: ParsedModule) -> Span:
    return parsed.raw.value_spans.get("module", parsed.top_span())


def _named_modules(facts: ProjectFacts) -> list[tuple[ParsedModule, str]]:
    """Modules with a valid name (TC309 reports the others), each name once (TC308)."""
    return [(p, p.name) for p in facts.modules
            if p.name is not None and is_identifier(p.name) and facts.by_name[p.name] is p]


def check_file_names(facts: ProjectFacts, report: Reporter) -> None:
    """TC313-TC316, from one place: the files of each module, then its golden files."""
    _module_files(facts, report)
    _golden_files(facts, report)


def _module_files(facts: ProjectFacts, report: Reporter) -> None:
    """TC316 overlong, TC315 shadowing, TC314 reserved, TC313 case twins: module names."""
    seen: dict[str, ParsedModule] = {}
    for parsed, name in _named_modules(facts):
        span = _module_span(parsed)
        if len(name) > MODULE_NAME_MAX:
            report("TC316", f"module name '{name[:40]}...' is {len(name)} characters "
                   f"long (at most {MODULE_NAME_MAX})", span,
                   notes=(("it names files (`<module>.py`), and file systems refuse "
                          "names of more than 255 bytes"),))
            continue
        what = shadowed(name)
        if what is not None:
            report("TC315", f"module name '{name}' would shadow {what}", span,
                   notes=(("the module becomes `generated/<module>.py`: choose "
                          "another name"),))
        if windows_reserved(name):
            report("TC314", f"module name '{name}' is a device name on Windows",
                   span, notes=(("`generated/<module>.py` could not be checked out "
                                "there"),))
        twin = seen.setdefault(name.casefold(), parsed)
        if twin is not parsed:
            where = _module_span(twin)
            report("TC313", f"module '{name}' differs only in case from module "
                   f"'{twin.name}' ({where.path}:{where.line})", span,
                   notes=(("on macOS and Windows both are one file, "
                          "`generated/<module>.py`"),))


def _golden_files(facts: ProjectFacts, report: Reporter) -> None:
    """TC314 reserved and TC313 case twins among the golden files of each module."""
    for parsed, name in _named_modules(facts):
        seen: dict[str, Entry] = {}
        for entry in _exported(facts, parsed):
            file_name = f"{entry.name}.json"
            span = _tool_span(entry.tool)
            shown = f"schemas/{name}/{file_name}"
            if windows_reserved(file_name):
                report("TC314", f"tool '{entry.name}' is published to {shown}, a "
                       "device name on Windows", span,
                       notes=("the golden file could not be checked out there",))
            twin = seen.setdefault(entry.name.casefold(), entry)
            if twin is not entry and twin.name != entry.name:  # the same name is TC407
                report("TC313", f"tool '{entry.name}' is published to {shown}, which "
                       f"differs only in case from the golden file of '{twin.name}'",
                       span, notes=("on macOS and Windows both are one file",))


def _exported(facts: ProjectFacts, parsed: ParsedModule) -> list[Entry]:
    """The tools the module publishes, as far as they are known when compiling."""
    if parsed.export is None:
        return [Entry(t, ToolKey(parsed, t)) for t in parsed.tools]
    composition = facts.compositions.get((id(parsed), parsed.export))
    return list(composition.entries) if composition is not None else []


def _tool_span(key: ToolKey) -> Span:
    """Where the tool is defined: under ``tools``, or in its external or mcp toolset."""
    parsed = key.module
    toolset = key.external_toolset or key.pinned_toolset
    if toolset is None:
        return parsed.key_span("tools", key.name)
    node = parsed.section("toolsets").get(toolset)
    if not isinstance(node, YMap):
        return parsed.top_span()
    tools = node.get("tools")
    return tools.key_spans.get(key.name, node.span) if isinstance(tools, YMap) else node.span
