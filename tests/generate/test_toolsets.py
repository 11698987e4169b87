"""The generated toolsets, run through the real runtime: every kind, as declared."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anyio
import pytest
from generate_support import CASES
from toolc import runtime as rt
from toolc.diagnostics import DiagnosticBag
from toolc.generate import generate_project
from toolc.generate.toolsets import declared_type
from toolc.ir import ProjectIR
from toolc.runtime.toolsets.wrapper import LazyWrapperToolset

Load = Callable[[str], Any]
CTX = rt.RunContext.empty()


def _list(toolset: rt.AbstractToolset[Any]) -> list[dict[str, Any]]:
    async def run() -> list[dict[str, Any]]:
        return [t.published() for t in await toolset.list_tools(CTX)]
    return anyio.run(run)


def _call(toolset: rt.AbstractToolset[Any], name: str, args: dict[str, Any],
          ctx: rt.RunContext[Any] = CTX) -> rt.ToolResult:
    async def run() -> rt.ToolResult:
        return await toolset.call_tool(ctx, name, args)
    return anyio.run(run)


def _approved(toolset: rt.AbstractToolset[Any], name: str, args: dict[str, Any]
              ) -> rt.ToolResult:
    with pytest.raises(rt.ApprovalRequiredError) as paused:
        _call(toolset, name, args)
    request = paused.value.requests[0]
    assert (request.tool_name, request.args) == (name, args)
    ctx = CTX.resume(approvals={request.call_id: rt.Approved()}).for_call(request.call_id)
    return _call(toolset, name, args, ctx)


def _text(result: rt.ToolResult) -> str:
    return "\n".join(getattr(block, "text", "") for block in result.content)


@pytest.mark.parametrize("case", [c for c in CASES if c != "wrong_handler"])
def test_each_export_lists_exactly_what_the_spec_publishes(case: str, importable: Load,
                                                           projects: dict[str, ProjectIR]
                                                           ) -> None:
    for name, module in projects[case].modules.items():
        generated = importable(f"{case}.{name}")
        listed = {tool["name"]: tool for tool in _list(generated.toolset)}
        expected = {tool.name: tool.published() for tool in module.exported_tools}
        assert listed == expected


def test_every_declared_toolset_is_an_attribute_of_its_kind(importable: Load,
                                                           projects: dict[str, ProjectIR]
                                                           ) -> None:
    kinds = importable("every_kind.kinds")
    expected = {
        "plain": rt.FunctionToolset, "shown": rt.FilteredToolset,
        "tidy": rt.PreparedToolset, "prefixed": rt.PrefixedToolset,
        "renamed": rt.RenamedToolset, "logged": LazyWrapperToolset,
        "guarded": rt.ApprovalRequiredToolset, "outside": rt.ExternalToolset,
        "files": rt.MCPToolset, "web": rt.MCPToolset, "servers": rt.MCPManager,
        "everything": rt.CombinedToolset,
    }
    assert set(expected) == set(projects["every_kind"].modules["kinds"].toolsets)
    for name, cls in expected.items():
        assert type(getattr(kinds, name)) is cls, name
    assert kinds.toolset is kinds.everything
    assert kinds.everything.id == "kinds.everything"
    assert declared_type("mcp") == "rt.MCPToolset"


def test_a_toolset_named_twice_is_one_object(importable: Load) -> None:
    """Built once at first use and kept: a manager and the module share one MCP set."""
    kinds = importable("every_kind.kinds")
    assert kinds.shown.inner is kinds.plain
    assert kinds.servers.servers == {"files": kinds.files, "web": kinds.web}
    base = importable("every_kind.base")
    assert kinds.everything.toolsets[2] is base.core is base.toolset


def test_mcp_toolsets_carry_the_spec_and_do_not_connect_until_used(importable: Load) -> None:
    kinds = importable("every_kind.kinds")
    assert kinds.files.stdio == rt.StdioServer("python", ("-m", "files_server"),
                                               {"ROOT": "/srv"}, "/tmp")
    assert (kinds.files.http, kinds.files.tool_cache_ttl_ms, kinds.files.instructions) == (
        None, 1000, False)
    assert kinds.web.http == rt.HttpServer("http://127.0.0.1:9/mcp",
                                           {"Authorization": "Bearer token"})
    assert (kinds.web.tool_cache_ttl_ms, kinds.web.instructions) == (60000, True)
    assert kinds.files._conn is None and kinds.web._conn is None


def test_calls_go_through_every_layer(importable: Load) -> None:
    """everything = combined(last_wins)[approval(wrapper(renamed(prefixed(prepared(
    filtered(function)))))), external, base.core]."""
    kinds = importable("every_kind.kinds")
    listed = [tool["name"] for tool in _list(kinds.toolset)]
    # sorted by the prepare function (adopt, lookup, remove), then remove renamed
    assert listed[:3] == ["k_adopt", "k_lookup", "k_delete"]
    assert set(listed[3:]) == {"openPage", "ping"}
    result = _approved(kinds.toolset, "k_lookup", {"where": {"street": "a st", "city": "b"}})
    assert result.structured_content == {"street": "A ST", "city": "B"}
    assert _text(result).endswith("(logged k_lookup)")  # the wrapper saw the call
    assert "removed x" in _text(_approved(kinds.toolset, "k_delete", {"key": "x"}))
    assert _call(kinds.toolset, "ping", {}).content[0].text == "pong"  # across modules


def test_a_renamed_tool_is_gone_under_its_old_name(importable: Load) -> None:
    kinds = importable("every_kind.kinds")
    result = _call(kinds.renamed, "k_remove", {"key": "x"})
    assert result.is_error


def test_a_denied_call_tells_the_model_why(importable: Load) -> None:
    kinds = importable("every_kind.kinds")
    with pytest.raises(rt.ApprovalRequiredError) as paused:
        _call(kinds.toolset, "k_delete", {"key": "x"})
    call_id = paused.value.requests[0].call_id
    ctx = CTX.resume(approvals={call_id: rt.Denied("not today")}).for_call(call_id)
    result = _call(kinds.toolset, "k_delete", {"key": "x"}, ctx)
    assert result.is_error and "not today" in _text(result)


def test_an_external_call_pauses_for_the_caller(importable: Load) -> None:
    kinds = importable("every_kind.kinds")
    with pytest.raises(rt.ExternalCallRequired) as paused:
        _call(kinds.toolset, "openPage", {"url": "https://example.org"})
    assert paused.value.requests[0].args == {"url": "https://example.org"}


def test_types_may_refer_to_each_other_across_modules(importable: Load) -> None:
    """base.Owner holds kinds.Pet, which holds base.Owner: the modules import each other."""
    kinds = importable("every_kind.kinds")
    base = importable("every_kind.base")
    owner = base.Owner.model_validate({"name": "ann", "pets": [{"name": "rex"}]})
    assert type(owner.pets[0]) is kinds.Pet
    result = _approved(kinds.toolset, "k_adopt",
                       {"pet": {"name": "rex", "owner": {"name": "ann",
                                                         "pets": [{"name": "tom"}]}}})
    assert _text(result).startswith("rex of ann, with 1 friends")


def test_workbench_tools_validate_then_run(importable: Load) -> None:
    workbench = importable("workbench.workbench")
    assert _call(workbench.toolset, "wb_readLog", {"lines": 3}).content[0].text == (
        "3 lines at any level")
    bad = _call(workbench.toolset, "wb_readLog", {"lines": 0, "level": "loud"})
    assert bad.is_error
    assert "- lines: 0 is less than the minimum of 1" in _text(bad)
    assert "- level: \"loud\" is not one of \"debug\", \"info\", \"warning\", \"error\"" in _text(bad)
    saved = _approved(workbench.toolset, "wb_saveNote", {"text": "hello"})
    assert saved.structured_content == {"line": 5}


FORMATS = """toolc: 1
module: mail
format: assert
tools:
  send:
    description: Send a mail.
    handler: app:send
    params:
      to: {type: string, format: email, description: Who gets it.}
  draft:
    description: Keep a draft.
    handler: app:draft
    format: annotate
    params:
      to: {type: string, format: email, description: Who gets it.}
"""


def test_format_assertion_is_chosen_per_tool_then_module_then_project() -> None:
    from generate_support import analyse_text
    from toolc.frontend import analyse
    from toolc.loader import load_text

    tools = analyse_text(FORMATS).modules["mail"].tools
    assert (tools["send"].formats, tools["draft"].formats) == (True, False)
    code = generate_project(analyse_text(FORMATS))["mail.py"]
    send, draft = code.split("def _tool_Draft")[0], code.split("def _tool_Draft")[1]
    assert "formats=True" in send.split("def _tool_Send")[1] and "formats=True" not in draft
    # a module that says nothing takes the project's mode ([tool.toolc] format)
    plain = FORMATS.replace("format: assert\n", "").replace("    format: annotate\n", "")
    bag = DiagnosticBag()
    project = analyse([load_text(plain, "spec.toolc.yaml")], bag, formats="assert")
    assert project is not None
    assert all(t.formats for t in project.modules["mail"].tools.values())
    assert not any(t.formats for t in analyse_text(plain).modules["mail"].tools.values())
