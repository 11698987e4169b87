"""The token budget: what each export costs a model upfront, before any call.

A client puts every tool it loads into the model's context: the tool's name, its
description and its input schema (the parts a model API takes; the output schema,
annotations and `_meta` are the client's). This module estimates that cost per exported
toolset and warns when an export loads more than the configured budget upfront.

The estimate is ``ceil(characters / 4)`` of the compact JSON of ``{name, description,
inputSchema}``, per tool. Against OpenAI's tokenizers (the ones installable offline) it
is a slight overestimate on the bundled specs (docs/spec-format.md gives the figures);
Claude's tokenizer is not public, and its counts run higher than OpenAI's on JSON, so
the overestimate is the safe side. Providers also add a fixed per-request text for tool
use, which no figure here includes.

What loads upfront: with tool search (the clients defer MCP tools and let the model
search for them) only the tools marked to always load (`_meta` ``anthropic/alwaysLoad:
true``: ``search: {always_load: true}``, or an ``mcp`` set with ``always_load``); without
it, every tool. Always-load tools count in full either way. Whether clients search is
``[tool.toolc] tool-search`` when given, else the client profiles' default
(``config.CLIENT_PROFILES``): on when every client in ``clients`` defers MCP tools
(``["claude"]``), off when one loads every tool (``openai``). Search over fewer than about
ten tools is a note (TC514): the search round trip then costs more than it saves.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .config import CLIENT_PROFILES, Config
from .diagnostics import DiagnosticBag
from .ir import ModuleIR, ProjectIR, ToolIR

CHARS_PER_TOKEN = 4
# Below this many tools, deferring them costs a search call and saves little context:
# tool-search guides put the break-even at about ten tools.
SEARCH_WORTH_IT = 10
_FEW_NOTE = "mark them `search: {always_load: true}`, or set `tool-search = false` in [tool.toolc]"


@dataclass(frozen=True, slots=True)
class ExportBudget:
    """One module's export: every tool it can show, and what loads upfront."""

    module: str
    toolset: str
    tools: int
    tokens: int                 # every tool's definition
    always_load_tools: int
    always_load_tokens: int
    upfront_tools: int          # what a client loads before any tool search
    upfront_tokens: int

    def as_json(self) -> dict[str, object]:
        return {"module": self.module, "toolset": self.toolset, "tools": self.tools,
                "tokens": self.tokens, "always_load_tools": self.always_load_tools,
                "always_load_tokens": self.always_load_tokens,
                "upfront_tools": self.upfront_tools, "upfront_tokens": self.upfront_tokens}

    @classmethod
    def from_json(cls, data: object) -> ExportBudget | None:
        """Figures as :meth:`as_json` wrote them (the cache record), or None if not that."""
        if not isinstance(data, dict) or set(data) != set(_FIELDS):
            return None
        names_ok = all(isinstance(data[k], str) for k in ("module", "toolset"))
        counts_ok = all(type(data[k]) is int and data[k] >= 0 for k in _FIELDS[2:])
        return cls(**data) if names_ok and counts_ok else None

    def describe(self) -> str:
        text = (f"{self.module}.{self.toolset}: {self.tools} tool(s), ~{self.tokens} tokens; "
                f"upfront {self.upfront_tools} tool(s), ~{self.upfront_tokens} tokens")
        if self.always_load_tools:
            text += f" ({self.always_load_tools} always loaded)"
        return text


_FIELDS = ("module", "toolset", "tools", "tokens", "always_load_tools", "always_load_tokens",
           "upfront_tools", "upfront_tokens")


def from_record(data: object) -> list[ExportBudget] | None:
    """The figures a clean build recorded, or None when the record holds none valid."""
    if not isinstance(data, list):
        return None
    found = [ExportBudget.from_json(item) for item in data]
    return [b for b in found if b is not None] if all(found) else None


def estimate_tokens(value: object) -> int:
    """The estimated tokens of a JSON value as a model reads it: its compact JSON / 4."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def definition_tokens(tool: ToolIR) -> int:
    """The estimated tokens of what a model reads of ``tool``."""
    return published_tokens(tool.published())


def published_tokens(published: Mapping[str, Any]) -> int:
    """The estimated tokens of what a model reads of a published tool definition (a
    golden file's, or a tools/list entry: ``toolc call --list`` counts what it lists)."""
    return estimate_tokens({key: published[key] for key in ("name", "description",
                                                            "inputSchema") if key in published})


def always_loaded(tool: ToolIR) -> bool:
    # lazy: toolc.runtime's package imports pydantic, which a no-op build never needs
    from .runtime.metakeys import ALWAYS_LOAD

    return tool.meta is not None and tool.meta.get(ALWAYS_LOAD) is True


def export_budget(module: ModuleIR, *, tool_search: bool) -> ExportBudget:
    costs = [(definition_tokens(t), always_loaded(t)) for t in module.exported_tools]
    always = [c for c, a in costs if a]
    upfront = always if tool_search else [c for c, _ in costs]
    return ExportBudget(module.name, module.export, len(costs), sum(c for c, _ in costs),
                        len(always), sum(always), len(upfront), sum(upfront))


def measure(project: ProjectIR, config: Config, bag: DiagnosticBag) -> list[ExportBudget]:
    """Every export's figures, in module order; TC512/TC513 for those over budget, TC514
    for those that defer too few tools for search to pay."""
    searches = config.searches()
    budgets = [export_budget(m, tool_search=searches) for m in project.modules.values()]
    for module, figures in zip(project.modules.values(), budgets, strict=True):
        _check(module, figures, config, bag)
        if searches:
            _few_to_search(module, figures, config, bag)
    return budgets


def _check(module: ModuleIR, figures: ExportBudget, config: Config,
           bag: DiagnosticBag) -> None:
    span = module.toolsets[module.export].span
    searches = config.searches()
    what = ("always loaded" if searches else
            "loaded upfront (no tool search" + (
                f": {config.search_source()})" if config.tool_search is not None else ")"))
    note = ("mark only the tools most tasks need with `search: {always_load: true}`"
            if searches else _no_search_note(config))
    if figures.upfront_tokens > config.token_budget:
        bag.report("TC512", f"export '{module.name}.{module.export}' costs ~"
                   f"{figures.upfront_tokens} tokens {what}, over the budget of "
                   f"{config.token_budget} (`token-budget`)", span, notes=(note,))
    if figures.upfront_tools > config.tool_budget:
        bag.report("TC513", f"export '{module.name}.{module.export}' has "
                   f"{figures.upfront_tools} tools {what}, over the budget of "
                   f"{config.tool_budget} (`tool-budget`); models choose worse among many",
                   span, notes=(note,))


def _no_search_note(config: Config) -> str:
    if config.tool_search is not None:
        return "split the export or trim descriptions"
    why = "; ".join(f"'{c}' in `clients` {CLIENT_PROFILES[c].why}" for c in config.loads_all())
    return (f"{why}: if your clients defer MCP tools (tool search), say so with "
            "`tool-search = true` in [tool.toolc]; else split the export or trim descriptions")


def _few_to_search(module: ModuleIR, figures: ExportBudget, config: Config,
                   bag: DiagnosticBag) -> None:
    """TC514: search on, some tools deferred, and fewer tools than search pays for."""
    if figures.tools >= SEARCH_WORTH_IT or figures.tools == figures.always_load_tools:
        return
    tools = f"{figures.tools} tool" + ("s" if figures.tools != 1 else "")
    bag.report("TC514", f"export '{module.name}.{module.export}' has {tools}, "
               f"deferred by tool search ({config.search_source()}): with fewer than about "
               f"{SEARCH_WORTH_IT}, loading them all upfront is faster",
               module.toolsets[module.export].span,
               notes=(_FEW_NOTE,))
