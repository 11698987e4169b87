from __future__ import annotations

import json
import sys
import threading
from pathlib import Path
from typing import Any

import anyio
import pytest
import toolc.runtime as rt
from pydantic import BaseModel, ConfigDict
from runtime_support import ECHO_SCHEMA, EchoParams, make_tool, write_module

pytestmark = pytest.mark.anyio


# -- LazyRef ------------------------------------------------------------------------


def test_lazy_ref_parses_module_and_dotted_attribute() -> None:
    ref = rt.LazyRef.parse("pkg.mod:Class.method")
    assert (ref.module, ref.attr, str(ref)) == ("pkg.mod", "Class.method", "pkg.mod:Class.method")
    assert ref == rt.LazyRef("pkg.mod", "Class.method")
    for bad in ("pkg.mod", ":attr", "pkg:"):
        with pytest.raises(ValueError, match=r"'package.module:attribute'"):
            rt.LazyRef.parse(bad)


def test_lazy_ref_imports_at_first_use_only(user_code: Path) -> None:
    write_module(user_code, "lazy_a", "class Box:\n    def twice(self):\n        return 2\n")
    ref = rt.LazyRef("lazy_a", "Box.twice")
    assert "lazy_a" not in sys.modules
    assert ref.resolve() is sys.modules["lazy_a"].Box.twice
    assert ref.resolve() is ref.resolve()


def test_lazy_ref_failure_names_the_reference(user_code: Path) -> None:
    write_module(user_code, "lazy_b", "raise RuntimeError('broken at import')\n")
    with pytest.raises(rt.LazyRefError, match=r"cannot import lazy_b:f: RuntimeError: broken"):
        rt.LazyRef("lazy_b", "f").resolve()
    with pytest.raises(rt.LazyRefError, match=r"cannot import nowhere_xyz:f: ModuleNotFound"):
        rt.LazyRef("nowhere_xyz", "f").resolve()
    write_module(user_code, "lazy_c", "x = 1\n")
    with pytest.raises(rt.LazyRefError, match=r"cannot import lazy_c:y: AttributeError"):
        rt.LazyRef("lazy_c", "y").resolve()


# -- definitions --------------------------------------------------------------------


def test_definition_uses_the_schemas_exactly_as_given() -> None:
    text = '{"type": "object", "properties": {"text": {"type": "string"}}}'
    tool = make_tool(
        input_schema=text,
        output_schema={"type": "object"},
        title="T",
        annotations={"readOnlyHint": True},
        meta={"k": [1]},
    )
    d = tool.definition
    assert list(d.input_schema["properties"]) == ["text"] and d.output_schema == {"type": "object"}
    assert (d.title, d.annotations, d.meta) == ("T", {"readOnlyHint": True}, {"k": [1]})
    assert tool.definition is d
    assert make_tool().definition.input_schema is ECHO_SCHEMA


# -- calls --------------------------------------------------------------------------


async def test_valid_call_passes_validated_params(ctx: rt.RunContext[None]) -> None:
    result = await make_tool().call(ctx, {"text": "hi", "times": 2})
    assert result == rt.ToolResult([rt.TextContent("hi hi")])


async def test_invalid_args_give_the_validators_message(ctx: rt.RunContext[None]) -> None:
    seen: list[Any] = []

    async def spy(ctx: Any, **params: Any) -> str:
        seen.append(params)
        return "ran"

    result = await make_tool("readLog", spy).call(ctx, {"text": "x" * 30, "times": 9, "zz": 1})
    assert result.is_error and seen == []
    assert result.text_content == (
        "Invalid arguments:\n"
        '- text: "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" is longer than 20 characters\n'
        "- times: 9 is greater than the maximum of 3\n"
        "- (arguments): Additional properties are not allowed ('zz' was unexpected)"
    )
    missing = await make_tool().call(ctx, {})
    assert missing.text_content == 'Invalid arguments:\n- (arguments): "text" is a required property'


async def test_the_published_schema_decides_not_the_model(ctx: rt.RunContext[None]) -> None:
    """A model wider than the schema (as generated ones are) never lets more through."""
    class Loose(BaseModel):
        model_config = ConfigDict(extra="allow")
        text: Any = None
        times: Any = None

    tool = make_tool(params_model=Loose)
    assert (await tool.call(ctx, {"text": 5})).text_content == (
        'Invalid arguments:\n- text: 5 is not of type "string"')
    assert (await tool.call(ctx, {"text": "a", "times": 2})).text_content == "a a"


async def test_problems_are_bounded_in_number_and_length(ctx: rt.RunContext[None]) -> None:
    schema = {"type": "object", "properties": {f"p{i}": {"type": "string", "maxLength": 1}
                                               for i in range(30)}}
    result = await make_tool(input_schema=schema).call(ctx, {f"p{i}": "x" * 10_000
                                                            for i in range(30)})
    lines = result.text_content.splitlines()
    assert lines[0] == "Invalid arguments:" and len(lines) == 1 + 20 + 1
    assert lines[-1] == "- ... and 10 more problems"
    assert all(len(line) <= 300 for line in lines)
    # the instance is shortened, the rule it broke kept
    assert lines[1] == ('- p0: "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx… (10000 characters) '
                        "is longer than 1 character")


async def test_a_schema_that_does_not_compile_is_an_internal_error(
        ctx: rt.RunContext[None]) -> None:
    ran: list[str] = []

    async def handler(ctx: Any, **params: Any) -> str:
        ran.append("ran")
        return "ran"

    tool = make_tool("odd", handler, input_schema={"type": "object", "pattern": "(["})
    result = await tool.call(ctx, {})
    assert result.is_error and not ran
    assert result.text_content.startswith(
        "Internal error in tool 'odd': the arguments could not be validated: the schema "
        "does not compile")
    assert "a bug in toolc" in result.text_content and "Invalid arguments" not in \
        result.text_content


async def test_a_model_that_refuses_valid_arguments_is_an_internal_error(
        ctx: rt.RunContext[None]) -> None:
    class Narrow(BaseModel):  # narrower than the schema: a generator bug, said as one
        text: int

    result = await make_tool(params_model=Narrow).call(ctx, {"text": "a"})
    assert result.is_error and result.text_content.startswith(
        "Internal error in tool 'echo': valid arguments could not be converted")


async def test_no_ref_is_ever_fetched(ctx: rt.RunContext[None]) -> None:
    """A reference outside the published document is never retrieved (offline)."""
    schema = {"type": "object", "properties": {"x": {"$ref": "http://127.0.0.1:9/s.json"}}}
    result = await make_tool(input_schema=schema).call(ctx, {"x": 1})
    assert result.is_error and "Retrieval is disabled" in result.text_content


async def test_formats_only_annotate_unless_asserted(ctx: rt.RunContext[None]) -> None:
    async def handler(ctx: Any, **params: Any) -> str:
        return "ran"

    schema = {"type": "object", "properties": {"to": {"type": "string", "format": "email"}}}
    assert (await make_tool(handler=handler, input_schema=schema, params_model=None)
            .call(ctx, {"to": "nope"})).text_content == "ran"
    asserted = make_tool(handler=handler, input_schema=schema, params_model=None, formats=True)
    assert (await asserted.call(ctx, {"to": "nope"})).is_error
    assert (await asserted.call(ctx, {"to": "a@example.com"})).text_content == "ran"


async def test_nested_models_reach_the_handler_as_models(ctx: rt.RunContext[None]) -> None:
    class Point(BaseModel):
        x: int

    class Params(BaseModel):
        where: Point
        tags: list[str] = []

    async def handler(ctx: Any, where: Point, tags: list[str]) -> str:
        assert isinstance(where, Point)
        return f"{where.x} {tags}"

    schema = {"type": "object", "properties": {
        "where": {"type": "object", "properties": {"x": {"type": "integer"}}},
        "tags": {"type": "array", "items": {"type": "string"}, "default": []}},
        "required": ["where"]}
    tool = make_tool("at", handler, params_model=Params, input_schema=schema)
    assert (await tool.call(ctx, {"where": {"x": 3}})).text_content == "3 []"


async def test_extra_params_reach_the_handler_when_the_model_allows_them(
    ctx: rt.RunContext[None],
) -> None:
    class Open(BaseModel):
        model_config = ConfigDict(extra="allow")
        a: int

    async def handler(ctx: Any, **params: Any) -> dict[str, Any]:
        return params

    schema = {"type": "object", "properties": {"a": {"type": "integer"}}}
    result = await make_tool("open", handler, params_model=Open,
                             input_schema=schema).call(ctx, {"a": 1, "b": 2})
    assert result.structured_content == {"a": 1, "b": 2}


async def test_handler_gets_the_context(ctx: rt.RunContext[None]) -> None:
    async def handler(got: rt.RunContext[Any], text: str, times: int) -> str:
        return f"{got.deps['user']} {got.tool_call_id}"

    call_ctx = rt.RunContext(deps={"user": "ada"}, tool_call_id="c1")
    assert (await make_tool("who", handler).call(call_ctx, {"text": "x"})).text_content == "ada c1"


async def test_a_raising_handler_is_an_error_result(ctx: rt.RunContext[None]) -> None:
    async def handler(ctx: Any, text: str, times: int) -> str:
        raise ValueError(f"cannot echo {text!r}")

    result = await make_tool("echoTool", handler).call(ctx, {"text": "x"})
    assert result.is_error
    assert result.text_content == "echoTool failed: ValueError: cannot echo 'x'"

PATIENCE_S = 60.0


async def test_sync_handlers_run_in_a_worker_thread(ctx: rt.RunContext[None]) -> None:
    threads: list[int] = []

    def handler(ctx: Any, text: str, times: int) -> str:
        threads.append(threading.get_ident())
        return text.upper()

    assert (await make_tool("up", handler).call(ctx, {"text": "hi"})).text_content == "HI"
    assert threads and threads[0] != threading.get_ident()


async def test_sync_handlers_do_not_block_the_event_loop(ctx: rt.RunContext[None]) -> None:
    """Four blocking handlers run at once, and the loop keeps running while they block.

    Each handler blocks until the event loop lets it go, and the loop lets them go only
    once all four are blocked: run one after another, or on the loop's own thread, the
    first would wait in vain (the patience is only there so that such a bug fails the
    test instead of hanging it)."""
    entered: list[str] = []
    release = threading.Event()

    def blocking(ctx: Any, text: str, times: int) -> str:
        entered.append(text)
        return text if release.wait(PATIENCE_S) else "waited in vain"

    tool = make_tool("blocking", blocking)
    results: list[rt.ToolResult] = []

    async def release_once_all_block() -> None:
        with anyio.move_on_after(PATIENCE_S):
            while len(entered) < 4:
                await anyio.sleep(0.01)  # the loop runs while handlers block
            release.set()

    async def call(i: int) -> None:
        results.append(await tool.call(ctx, {"text": str(i)}))

    async with anyio.create_task_group() as tg:
        tg.start_soon(release_once_all_block)
        for i in range(4):
            tg.start_soon(call, i)
    assert sorted(r.text_content for r in results) == ["0", "1", "2", "3"]


async def test_async_callable_objects_are_awaited(ctx: rt.RunContext[None]) -> None:
    class Handler:
        async def __call__(self, ctx: Any, text: str, times: int) -> str:
            return f"obj:{text}"

    assert (await make_tool("o", Handler()).call(ctx, {"text": "a"})).text_content == "obj:a"


async def test_lazy_handler_is_imported_at_first_call(
    user_code: Path, ctx: rt.RunContext[None]
) -> None:
    write_module(
        user_code,
        "user_handlers",
        "async def shout(ctx, text, times):\n    return text.upper() + '!' * times\n",
    )
    tool = make_tool("shout", rt.LazyRef("user_handlers", "shout"))
    assert tool.definition.name == "shout" and "user_handlers" not in sys.modules
    assert (await tool.call(ctx, {"text": "hey", "times": 2})).text_content == "HEY!!"


async def test_lazy_handler_that_does_not_import_is_an_error_result(
    user_code: Path, ctx: rt.RunContext[None]
) -> None:
    write_module(user_code, "broken_handlers", "import not_a_module_anywhere\n")
    tool = make_tool("shout", rt.LazyRef.parse("broken_handlers:shout"))
    result = await tool.call(ctx, {"text": "x"})
    assert result.is_error
    assert result.text_content.startswith(
        "shout cannot run: cannot import broken_handlers:shout: ModuleNotFoundError"
    )


async def test_params_model_may_be_a_factory(ctx: rt.RunContext[None]) -> None:
    made: list[int] = []

    def factory() -> type[BaseModel]:
        made.append(1)
        return EchoParams

    tool = make_tool(params_model=factory)
    assert made == []
    await tool.call(ctx, {"text": "a"})
    await tool.call(ctx, {"text": "b"})
    assert made == [1]


async def test_params_model_is_resolved_once_without_the_handler(
    user_code: Path, ctx: rt.RunContext[None]
) -> None:
    made: list[int] = []

    def factory() -> type[BaseModel]:
        made.append(1)
        return EchoParams

    write_module(user_code, "params_handlers", "def shout(ctx, text, times):\n    return text\n")
    tool = make_tool("shout", rt.LazyRef("params_handlers", "shout"), params_model=factory)
    assert made == []
    assert tool.params_model is EchoParams and tool.params_model is EchoParams
    assert made == [1] and "params_handlers" not in sys.modules
    # Resolving the model alone leaves the first call to load the handler.
    assert (await tool.call(ctx, {"text": "hey"})).text_content == "hey"
    assert made == [1] and "params_handlers" in sys.modules


async def test_structured_results_are_checked_against_the_output_schema(
    ctx: rt.RunContext[None],
) -> None:
    saved = {"type": "object", "properties": {"line": {"type": "integer"}},
             "required": ["line"]}

    async def good(ctx: Any, text: str, times: int) -> dict[str, Any]:
        return {"line": 7}

    async def bad(ctx: Any, text: str, times: int) -> dict[str, Any]:
        return {"line": "seven"}

    ok = await make_tool("save", good, output_schema=saved).call(ctx, {"text": "a"})
    assert ok.structured_content == {"line": 7} and ok.text_content == '{"line": 7}'
    wrong = await make_tool("save", bad, output_schema=json.dumps(saved)).call(ctx, {"text": "a"})
    assert wrong.is_error and "does not match its output schema" in wrong.text_content


async def test_explicit_error_results_keep_is_error(ctx: rt.RunContext[None]) -> None:
    async def handler(ctx: Any, text: str, times: int) -> rt.ToolResult:
        return rt.ToolResult.error(f"note too long: {len(text)} characters")

    result = await make_tool("saveNote", handler).call(ctx, {"text": "abc"})
    assert result.is_error and result.text_content == "note too long: 3 characters"


# -- requires_approval ----------------------------------------------------------------


async def test_requires_approval_validates_first_then_pauses() -> None:
    ran: list[str] = []

    async def handler(ctx: Any, text: str, times: int) -> str:
        ran.append(text)
        return "saved"

    tool = make_tool("saveNote", handler, requires_approval=True)
    ctx = rt.RunContext(deps=None, tool_call_id="c1")
    assert (await tool.call(ctx, {"text": 5})).is_error  # bad args: no pause, no run
    with pytest.raises(rt.ApprovalRequiredError) as info:
        await tool.call(ctx, {"text": "hello"})
    assert info.value.requests == [rt.DeferredToolRequest("c1", "saveNote", {"text": "hello"})]
    assert ran == []

    approved = ctx.resume(approvals={"c1": rt.Approved()})
    assert (await tool.call(approved, {"text": "hello"})).text_content == "saved"
    override = ctx.resume(approvals={"c1": rt.Approved(override_args={"text": "edited"})})
    await tool.call(override, {"text": "hello"})
    assert ran == ["hello", "edited"]

    bad_override = ctx.resume(approvals={"c1": rt.Approved(override_args={"text": 1})})
    result = await tool.call(bad_override, {"text": "hello"})
    assert result.is_error and "Invalid approved arguments" in result.text_content

    denied = ctx.resume(approvals={"c1": rt.Denied("not now")})
    result = await tool.call(denied, {"text": "hello"})
    assert result.is_error and result.text_content == "The call to 'saveNote' was not run: not now"
    assert ran == ["hello", "edited"]


async def test_json_numbers_arrive_as_json_says(ctx: rt.RunContext[None]) -> None:
    """What generated models do: an integer may come as a whole float (1e300 too), and a
    number stays the int or float it came as (10**400 has no float)."""
    class Numbers(BaseModel):
        count: int = 0
        ratio: int | float = 0

    seen: list[dict[str, Any]] = []

    async def handler(ctx: Any, **params: Any) -> str:
        seen.append(params)
        return "ok"

    schema = {"type": "object", "properties": {"count": {"type": "integer"},
                                               "ratio": {"type": "number"}}}
    tool = make_tool("n", handler, params_model=Numbers, input_schema=schema)
    for args in ({"count": 5.0, "ratio": 3}, {"count": 1e300, "ratio": 10**400},
                 {"ratio": 0.5}):
        assert (await tool.call(ctx, args)).text_content == "ok", args
    assert seen == [{"count": 5, "ratio": 3}, {"count": int(1e300), "ratio": 10**400},
                    {"count": 0, "ratio": 0.5}]
    assert [type(s["count"]) for s in seen] == [int, int, int]
    assert type(seen[0]["ratio"]) is int
