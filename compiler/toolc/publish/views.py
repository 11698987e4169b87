"""Each target's view of the exported tools, published as golden files beside the tools.

A module whose export is written for provider targets (``targets``) publishes, beside
``schemas/<module>/<tool>.json``, one view of each tool per target:
``schemas/<module>/<target>/<tool>.json``. A view is the canonical golden file, in the
`$ref` shape ``[tool.toolc] refs`` gives the target, lowered into that target's dialect
by :func:`toolc.runtime.dialects.lower_tool` (the same
function an adapter calls on the listed tool, so a framework is handed this file), and
says what the lowering moved (``x-toolc-lowered``) and, for a pinned server's tool,
what could not be lowered (``x-toolc-unlowered``). Its folder is named after the target
(a tool's golden file is ``<name>.json``, never a folder): every reader of the golden
folder (the diff, a gate's ``git`` read, the records of a taken component) reads the
views as the module's own files, keyed ``<module>/<target>/<tool>``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..ir import ModuleIR, ToolIR
    from ..runtime.dialects import View


def seen_tool(tool: ToolIR) -> dict[str, Any]:
    """What a target is sent of a published tool, before lowering: its name, its
    description (when it publishes one) and its input schema."""
    seen: dict[str, Any] = {"name": tool.name}
    if tool.has_description and tool.description is not None:
        seen["description"] = tool.description
    seen["inputSchema"] = tool.input_schema
    return seen


def module_views(module: ModuleIR) -> dict[str, list[View]]:
    """Each of the module's targets -> the views of its exported tools, in their order."""
    shapes = dict(module.refs)
    return {name: [tool_view(name, t, shapes.get(name, "as-written"))
                   for t in module.exported_tools]
            for name in module.targets}


# One build asks for each view three times (the targets' check, the budget, the golden
# files), and a warm process again for every module whose IR it kept: a tool (frozen IR)
# is lowered once per target and shape. The entry holds the tool, so its id is not reused.
_MADE: dict[tuple[str, str, int], tuple[ToolIR, View]] = {}
_MADE_MOST = 50_000


def tool_view(target: str, tool: ToolIR, refs: str) -> View:
    """``target``'s view of ``tool`` in the `$ref` shape ``refs`` (made once)."""
    key = (target, refs, id(tool))
    made = _MADE.get(key)
    if made is not None and made[0] is tool:
        return made[1]
    # lazy: the dialect tables and lowerings, only for a module that has targets
    from ..runtime.dialects import TARGETS, lower_tool

    if len(_MADE) >= _MADE_MOST:
        _MADE.clear()
    view = lower_tool(TARGETS[target], seen_tool(tool), refs)
    _MADE[key] = (tool, view)
    return view


def view_documents(module: ModuleIR) -> dict[tuple[str, str], dict[str, Any]]:
    """(target, tool name) -> the JSON of that view's golden file, for every view of the
    module (:func:`toolc.publish.golden.module_files` writes them)."""
    return {(target, str(view.tool["name"])): view.as_json()
            for target, views in module_views(module).items() for view in views}
