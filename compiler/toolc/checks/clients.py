"""Client profiles: every published name as each configured client will see it.

``[tool.toolc] clients`` names the clients the exports are written for (default:
``claude`` and ``openai``). Each sees a module's published names its own way:

- ``claude``: the Claude Agent SDK and Claude Code call an MCP tool
  ``mcp__<server>__<tool>``, at most 64 characters of ``[A-Za-z0-9_-]``, where
  ``<server>`` is the name the client config gives the server (``[tool.toolc]
  server-name``, default the module name). Too long is TC320. A ``__`` inside the tool's
  name or the server's makes the full name ambiguous (``mcp__a__b__c``: server ``a``,
  tool ``b__c``, or server ``a__b``, tool ``c``?): TC321. Its characters are TC302's.
- ``openai``: function names match ``^[a-zA-Z0-9_-]{1,64}$``, exactly the portable rule
  TC302 checks on every name (and so for every profile).
- case-only collisions between published names are TC313 for every client.

What each client loads upfront (whether it defers MCP tools to a tool search by default)
is data too, ``config.CLIENT_PROFILES``, read by the token budget (``toolc.budget``).

Each violation is reported where it was made: at the tool's name when the name itself
breaks the rule, else at the ``prefix`` or ``names`` entry of the last toolset that
turned a good name into a bad one (as TC301/TC302 are). Only what a module exports is
checked, against that module's server name.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from ..diagnostics import Span
from ..model.parse import ParsedModule
from .facts import Entry, ProjectFacts
from .filenames import MODULE_NAME_MAX, _exported, _tool_span
from .names import name_level
from .reporting import Reporter

CLAUDE_LIMIT = 64


def claude_name(server: str, tool: str) -> str:
    return f"mcp__{server}__{tool}"


def check_client_names(facts: ProjectFacts, report: Reporter) -> None:
    """TC320 and TC321 for the claude profile (see the module docstring)."""
    view = facts.clients
    if "claude" not in view.clients:
        return
    found: dict[tuple[str, Span, str], dict[str, str]] = {}   # (code, at, maker) -> names
    for parsed in facts.modules:
        if parsed.name is None:
            continue
        server = view.server(str(parsed.name))
        if len(server) > MODULE_NAME_MAX:
            continue  # a module name too long to be a file name is TC316 already
        _server_name_rule(report, parsed, server)
        if _too_long(server, "x"):  # no tool name fits: one report, not one per tool
            report("TC320", f"server name '{server}' leaves no room for tool names "
                   f"in Claude's mcp__{server}__<tool> ({CLAUDE_LIMIT} characters at "
                   "most)", parsed.raw.value_spans.get("module", parsed.top_span()),
                   notes=("give a shorter `server-name` in [tool.toolc]",))
            continue
        for entry in _exported(facts, parsed):
            _locate(entry, "TC320", partial(_too_long, server), partial(_too_long_says, server),
                    found)
            _locate(entry, "TC321", _double_underscore, partial(_ambiguous_says, server),
                    found)
    for (code, span, maker), names in found.items():
        report(code, _message(code, maker, names), span, notes=(NOTES[code],))


Rule = Callable[[str], bool]
NOTES = {
    "TC320": f"Claude calls MCP tools mcp__<server>__<tool>, at most {CLAUDE_LIMIT} characters",
    "TC321": "Claude splits mcp__<server>__<tool> at `__`; use `_` or `-` instead",
}


GROUPED = {
    "TC320": f"over {CLAUDE_LIMIT} characters as Claude's mcp__<server>__<tool>",
    "TC321": "with `__` inside, ambiguous in Claude's mcp__<server>__<tool>",
}


def _too_long(server: str, name: str) -> bool:
    return len(claude_name(server, name)) > CLAUDE_LIMIT


def _too_long_says(server: str, name: str) -> str:
    full = claude_name(server, name)
    return f"is '{full}' in Claude ({len(full)} characters), over its limit of {CLAUDE_LIMIT}"


def _double_underscore(name: str) -> bool:
    return "__" in name


def _ambiguous_says(server: str, name: str) -> str:
    return (f"has `__` inside, so Claude's '{claude_name(server, name)}' cannot be split "
            "back into server and tool")


def _server_name_rule(report: Reporter, parsed: ParsedModule, server: str) -> None:
    if "__" in server and server == parsed.name:  # a configured one is checked as config
        report("TC321", f"module '{server}' is the server name Claude sees, and "
               f"its `__` makes every 'mcp__{server}__<tool>' ambiguous",
               parsed.raw.value_spans.get("module", parsed.top_span()),
               notes=("give `server-name` in [tool.toolc], or rename the module",))


def _locate(entry: Entry, code: str, bad: Rule, says: Callable[[str], str],
            found: dict[tuple[str, Span, str], dict[str, str]]) -> None:
    """Note ``entry``'s published name if ``bad``, at the step that last made it bad: the
    tool's own name (step 0), or a prefix or rename on the way."""
    if not bad(entry.name) or name_level(entry.name) == 2:  # not an MCP name: TC301's
        return
    steps = [(entry.tool.name, _tool_span(entry.tool), f"tool '{entry.tool.name}'"),
             *entry.steps]
    at = max(i for i, (name, _, _) in enumerate(steps)
             if bad(name) and (i == 0 or not bad(steps[i - 1][0])))
    _, span, maker = steps[at]
    found.setdefault((code, span, maker), {})[entry.name] = says(entry.name)


def _message(code: str, maker: str, names: dict[str, str]) -> str:
    if len(names) > 1:
        shown = ", ".join(f"'{n}'" for n in list(names)[:5])
        more = f" and {len(names) - 5} more" if len(names) > 5 else ""
        return f"{maker} makes published names {GROUPED[code]}: {shown}{more}"
    [(name, says)] = names.items()
    if maker.startswith("tool ") and maker == f"tool '{name}'":
        return f"{maker}: its name {says}"
    if maker.startswith("tool "):
        return f"{maker} is published as '{name}', which {says}"
    return f"{maker} makes the published name '{name}', which {says}"
