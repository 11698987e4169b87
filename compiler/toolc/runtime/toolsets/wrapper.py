"""`wrapper`: every call goes through a `WrapperToolset` subclass.

`lazy_wrapper(inner, LazyRef("mod", "Class"))` imports the class at first use (entering
the set, listing or calling) and builds `Class(inner)`; it also takes the class itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import TYPE_CHECKING, Any, ClassVar, Self

from toolc.runtime.context import RunContext
from toolc.runtime.deferred import DeferredCallError
from toolc.runtime.definition import ToolDefinition
from toolc.runtime.failures import cannot_run, failure_result
from toolc.runtime.pausing import PausedResult
from toolc.runtime.results import ToolResult, to_tool_result
from toolc.runtime.tool import LazyRef, LazyRefError
from toolc.runtime.toolsets.abstract import (
    AbstractToolset,
    DelegatingToolset,
    ExitInfo,
    ToolsetError,
)

CallNext = Callable[[RunContext[Any], str, dict[str, Any]], Awaitable[ToolResult]]
"""The `next` a wrapper's `call_tool` receives: `await next(ctx, name, args)` runs the
inner set's tool."""


if TYPE_CHECKING:

    class _WrapperBase:
        """What type checkers see of DelegatingToolset, without its `call_tool`."""

        inner: AbstractToolset[Any]
        id: str | None

        def __init__(self, inner: AbstractToolset[Any], *, id: str | None = None) -> None: ...
        async def list_tools(self, ctx: RunContext[Any]) -> list[ToolDefinition]: ...
        async def get_instructions(self, ctx: RunContext[Any]) -> str | None: ...
        def static_names(self) -> frozenset[str] | None: ...
        def listing_is_fixed(self) -> bool: ...
        async def __aenter__(self) -> Self: ...
        async def __aexit__(
            self,
            exc_type: type[BaseException] | None,
            exc: BaseException | None,
            tb: TracebackType | None,
        ) -> None: ...
        @property
        def label(self) -> str: ...

else:
    _WrapperBase = DelegatingToolset


class WrapperToolset(_WrapperBase):
    """Every call goes through it: subclass and override `call_tool(self, ctx, name,
    args, next)` (a spec's `wrapper`).

    A subclass overrides `call_tool(self, ctx, name, args, next: rt.CallNext)` and calls
    `await next(ctx, name, args)` to run the inner tool; it may change the arguments
    before and the result after, or answer without calling `next` at all. It may return any
    value a handler may (a str, a dict, a pydantic model, content blocks, a `ToolResult`):
    it is converted the same way; an exception it raises is an error result. It may also
    override `list_tools` to change what the model reads (descriptions, schemas), but not
    the names: calls are routed by the inner set's names.

    A call that pauses (it needs approval, or runs outside the process) makes `next` raise
    the pause (`rt.DeferredCallError`), which passes through the wrapper to its caller: the
    wrapper's code after `await next(...)` does not run for it. A wrapper that must see
    every call, paused or not (an audit log), sets `pauses_as_results = True` on its class:
    `next` then returns the pause as an `rt.PausedResult` (`result.pause`, `result.requests`)
    instead of raising it, and returning that result passes the pause on to the caller,
    raised as before. Returning anything else answers the call in the pause's place (a
    wrapper's own policy denying it, say): the call was not run, and the result should say
    so.

    Outer toolsets call every toolset as `call_tool(ctx, name, args)`; the override with
    `next` is adapted to that signature when the subclass is defined (`next` defaults to the
    inner set's `call_tool`), so `super().call_tool(ctx, name, args, next)` works too.

    Typing: a subclass's `call_tool(self, ctx, name, args, next)` must type-check under
    `mypy --strict`, and a 4-parameter override of the toolset contract's 3-parameter
    `call_tool` cannot. So type checkers see `WrapperToolset` as a class of its own (with
    the wrapper's `call_tool`), while at run time it is a `DelegatingToolset`. Typed code
    that needs the wrapper as an `AbstractToolset` uses `lazy_wrapper(inner, Class)`.
    """

    pauses_as_results: ClassVar[bool] = False
    """True: `next` returns a paused call as an `rt.PausedResult` instead of raising."""

    # `next` is required in the signature subclasses override; at run time every
    # `call_tool` of the class tree also takes the contract's three arguments (below).
    async def call_tool(
        self, ctx: RunContext[Any], name: str, args: dict[str, Any], next: CallNext
    ) -> ToolResult:
        """Run the call: `await next(ctx, name, args)` runs the inner set's tool.

        Override it to change the arguments before, the result after, or to answer
        without calling `next`; the base class only calls `next`.
        """
        return await next(ctx, name, args)

    def listing_is_fixed(self) -> bool:
        """Fixed when the inner set is and no class of the wrapper overrides list_tools."""
        mro = type(self).__mro__
        if any("list_tools" in vars(cls) for cls in mro[: mro.index(WrapperToolset)]):
            return False
        return self.inner.listing_is_fixed()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        wrap = cls.__dict__.get("call_tool")
        if wrap is not None:
            setattr(cls, "call_tool", _adapt(wrap))  # noqa: B010  # mypy: no method-assign


def _adapt(wrap: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[ToolResult]]:
    """Make a `call_tool(ctx, name, args, next)` override callable without `next`, and
    hold it to the contract: what it returns is converted as a handler's return value is
    (a str, a dict, content blocks, a `ToolResult`), and an exception it raises is an
    error result (the deferrals excepted), so a served call never breaks the protocol."""

    async def call_tool(
        self: WrapperToolset,
        ctx: RunContext[Any],
        name: str,
        args: dict[str, Any],
        next: CallNext | None = None,
    ) -> ToolResult:
        # The outermost layer of this call (not a `super().call_tool(...)` inside it)
        # turns pauses into results for the wrapper, and a returned one back into a pause.
        outer = not isinstance(next, _PausesAsResults)
        step = next if next is not None else self.inner.call_tool
        if outer and self.pauses_as_results:
            step = _PausesAsResults(step)
        try:
            value = await wrap(self, ctx, name, args, step)
        except DeferredCallError:
            raise
        except Exception as exc:  # noqa: BLE001  # user code: an error result, never a crash
            return failure_result(name, exc)
        if outer and isinstance(value, PausedResult):
            raise value.pause
        return value if isinstance(value, ToolResult) else to_tool_result(value, name)

    call_tool.__doc__ = wrap.__doc__
    call_tool.__qualname__ = wrap.__qualname__
    return call_tool


setattr(WrapperToolset, "call_tool", _adapt(WrapperToolset.__dict__["call_tool"]))  # noqa: B010


class _PausesAsResults:
    """The `next` of a wrapper with `pauses_as_results`: a pause is returned, not raised."""

    __slots__ = ("step",)

    def __init__(self, step: CallNext) -> None:
        self.step = step

    async def __call__(self, ctx: RunContext[Any], name: str, args: dict[str, Any]) -> ToolResult:
        try:
            return await self.step(ctx, name, args)
        except DeferredCallError as pause:
            return PausedResult(pause)


class LazyWrapperToolset(DelegatingToolset[Any]):
    """A wrapper whose class is imported at first use; see `lazy_wrapper`."""

    def __init__(
        self,
        inner: AbstractToolset[Any],
        ref: LazyRef | type[WrapperToolset],
        *,
        id: str | None = None,
    ) -> None:
        super().__init__(inner, id=id)
        self.ref = ref
        self._wrapper: WrapperToolset | None = None

    def wrapper(self) -> WrapperToolset:
        """The wrapper instance; raises ToolsetError when the class does not import."""
        if self._wrapper is None:
            try:
                cls = self.ref.resolve() if isinstance(self.ref, LazyRef) else self.ref
            except LazyRefError as exc:
                raise ToolsetError(f"the wrapper of {self.label}: {exc}") from exc
            if not (isinstance(cls, type) and issubclass(cls, WrapperToolset)):
                raise ToolsetError(
                    f"the wrapper {self.ref} of {self.label} is not a WrapperToolset subclass"
                )
            self._wrapper = cls(self.inner)
        return self._wrapper

    async def list_tools(self, ctx: RunContext[Any]) -> list[ToolDefinition]:
        return await self.wrapper().list_tools(ctx)

    def listing_is_fixed(self) -> bool:
        if type(self) is not LazyWrapperToolset:
            return False  # exact: a subclass may override list_tools
        try:
            return self.wrapper().listing_is_fixed()
        except ToolsetError:
            return False

    async def call_tool(self, ctx: RunContext[Any], name: str, args: dict[str, Any]) -> ToolResult:
        try:
            wrapper = self.wrapper()
        except ToolsetError as exc:
            return cannot_run(name, exc)
        return await wrapper.call_tool(ctx, name, args, self.inner.call_tool)

    async def get_instructions(self, ctx: RunContext[Any]) -> str | None:
        return await self.wrapper().get_instructions(ctx)

    async def enter_resources(self) -> None:
        await self.wrapper().__aenter__()

    async def exit_resources(self, exc_info: ExitInfo) -> None:
        await self.wrapper().__aexit__(*exc_info)

    def describe(self) -> str:
        ref = self.ref if isinstance(self.ref, LazyRef) else self.ref.__qualname__
        return f"lazy_wrapper({ref}, {self.inner.label})"


def lazy_wrapper(
    inner: AbstractToolset[Any],
    ref: LazyRef | str | type[WrapperToolset],
    *,
    id: str | None = None,
) -> LazyWrapperToolset:
    """`inner` wrapped by the WrapperToolset subclass `ref`, imported at first use."""
    return LazyWrapperToolset(inner, LazyRef.parse(ref) if isinstance(ref, str) else ref, id=id)
