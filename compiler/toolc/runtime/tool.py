"""One Python tool: its published definition, argument validation, and the handler call.

Generated modules build `Tool`s with the published JSON Schemas exactly as the compiler
wrote them, a pydantic model that validates the arguments, and the handler, usually as
a `LazyRef` so that importing a generated module never imports user code.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from pydantic import BaseModel, ValidationError

from toolc.runtime.abstract import ToolDefinition
from toolc.runtime.context import RunContext
from toolc.runtime.deferred import DeferredCallError, approval_gate
from toolc.runtime.failures import failure_result
from toolc.runtime.results import ToolResult, to_tool_result, validation_summary

ModelSource = type[BaseModel] | Callable[[], type[BaseModel]]


class LazyRefError(ImportError):
    """A `LazyRef` that does not resolve; the message names the reference."""


class LazyRef:
    """`package.module` + `attr.path`, imported at first use and then cached."""

    __slots__ = ("_value", "attr", "module")

    def __init__(self, module: str, attr: str) -> None:
        self.module = module
        self.attr = attr
        self._value: Any = _UNSET

    @classmethod
    def parse(cls, text: str) -> LazyRef:
        module, sep, attr = text.partition(":")
        if not sep or not module or not attr:
            raise ValueError(f"a reference is 'package.module:attribute', not {text!r}")
        return cls(module, attr)

    def resolve(self) -> Any:
        if self._value is not _UNSET:
            return self._value
        try:
            value: Any = importlib.import_module(self.module)
            for part in self.attr.split("."):
                value = getattr(value, part)
        except Exception as exc:  # any failure of user code at import time
            raise LazyRefError(f"cannot import {self}: {type(exc).__name__}: {exc}") from exc
        self._value = value
        return value

    def __str__(self) -> str:
        return f"{self.module}:{self.attr}"

    def __repr__(self) -> str:
        return f"LazyRef({self.module!r}, {self.attr!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LazyRef) and (other.module, other.attr) == (
            self.module,
            self.attr,
        )

    def __hash__(self) -> int:
        return hash((self.module, self.attr))


_UNSET: Any = object()
_run_sync: Any = None


def _thread_runner() -> Any:
    """anyio.to_thread.run_sync, imported at the first sync call (keeps import cheap)."""
    global _run_sync
    if _run_sync is None:
        from anyio.to_thread import run_sync

        _run_sync = run_sync
    return _run_sync


def resolve_callable(source: Any) -> Any:
    """A LazyRef's target, or the object itself."""
    return source.resolve() if isinstance(source, LazyRef) else source


_CO_COROUTINE = 0x80  # the flag inspect.iscoroutinefunction tests; inspect costs 7 ms to import


def is_async_callable(fn: Any) -> bool:
    """An `async def` function, method, partial of one, or object with `async def __call__`."""
    while isinstance(fn, partial):
        fn = fn.func
    code = getattr(getattr(fn, "__func__", fn), "__code__", None)
    if code is None:
        call = type(fn).__call__ if callable(fn) else None
        code = getattr(call, "__code__", None)
    return code is not None and bool(code.co_flags & _CO_COROUTINE)


def _is_awaitable(value: Any) -> bool:
    return hasattr(type(value), "__await__")


def log_failure(exc: BaseException, message: str, *args: Any) -> None:
    """Log a user-code failure with its traceback (logging imported only when needed)."""
    import logging

    logging.getLogger("toolc.runtime").warning(message, *args, exc_info=exc)


async def call_user_function(fn: Any, is_async: bool, *args: Any, **kwargs: Any) -> Any:
    """Await an async callable; run a sync one in a worker thread, off the event loop."""
    if is_async:
        return await fn(*args, **kwargs)
    value = await _thread_runner()(partial(fn, *args, **kwargs))
    if _is_awaitable(value):
        value = await value
    return value


async def call_inline(fn: Any, is_async: bool, *args: Any) -> Any:
    """Call a quick user function (predicate, prepare) on the event loop itself.

    Unlike handlers these run once per turn and should only look at the context, so a
    worker thread would cost more than it saves.
    """
    value = fn(*args)
    if is_async or _is_awaitable(value):
        value = await value
    return value


def _parse_schema(schema: Mapping[str, Any] | str | None) -> Mapping[str, Any] | None:
    return json.loads(schema) if isinstance(schema, str) else schema


def _model(source: ModelSource | None) -> type[BaseModel] | None:
    if source is None or isinstance(source, type):
        return source
    return source()


class Tool:
    """A tool run by a Python handler: `handler(ctx, **validated_params)`."""

    __slots__ = (
        "_definition",
        "_handler",
        "_handler_is_async",
        "_handler_source",
        "_input_schema",
        "_output_schema",
        "_params",
        "_params_source",
        "_returns",
        "_returns_source",
        "annotations",
        "description",
        "meta",
        "name",
        "requires_approval",
        "title",
    )

    def __init__(
        self,
        name: str,
        description: str,
        *,
        params_model: ModelSource,
        handler: Callable[..., Any] | LazyRef,
        input_schema: Mapping[str, Any] | str,
        output_schema: Mapping[str, Any] | str | None = None,
        returns_model: ModelSource | None = None,
        title: str | None = None,
        annotations: Mapping[str, Any] | None = None,
        meta: Mapping[str, Any] | None = None,
        requires_approval: bool = False,
    ) -> None:
        self.name = name
        self.description = description
        self.title = title
        self.annotations = annotations
        self.meta = meta
        self.requires_approval = requires_approval
        self._params_source = params_model
        self._returns_source = returns_model
        self._input_schema = input_schema
        self._output_schema = output_schema
        self._handler_source = handler
        self._params: type[BaseModel] | None = None
        self._returns: type[BaseModel] | None = None
        self._handler: Any = None
        self._handler_is_async = False
        self._definition: ToolDefinition | None = None

    @property
    def definition(self) -> ToolDefinition:
        """The published definition, built once; JSON text schemas are parsed here."""
        if self._definition is None:
            input_schema = _parse_schema(self._input_schema)
            assert input_schema is not None
            self._definition = ToolDefinition(
                name=self.name,
                description=self.description,
                input_schema=input_schema,
                output_schema=_parse_schema(self._output_schema),
                title=self.title,
                annotations=self.annotations,
                meta=self.meta,
            )
        return self._definition

    @property
    def params_model(self) -> type[BaseModel]:
        """The pydantic model that validates the arguments, resolved at first use (a
        factory is called once); the handler is not imported for it."""
        if self._params is None:
            params = _model(self._params_source)
            assert params is not None
            self._params = params
        return self._params

    def _load(self) -> type[BaseModel]:
        """Resolve the params model, returns model and handler at the first call."""
        params = self.params_model
        self._returns = _model(self._returns_source)
        self._handler = resolve_callable(self._handler_source)
        self._handler_is_async = is_async_callable(self._handler)
        return params

    async def call(self, ctx: RunContext[Any], args: dict[str, Any]) -> ToolResult:
        """Validate, ask for approval when required, run the handler, convert its result."""
        try:
            # Loaded once the handler is: params_model alone may have been resolved.
            model = self.params_model if self._handler is not None else self._load()
        except Exception as exc:  # noqa: BLE001  # user code: an error result, never a crash
            log_failure(exc, "tool %s cannot load", self.name)
            return ToolResult.error(f"{self.name} is not available: {exc}")
        try:
            params = model.model_validate(args)
        except ValidationError as exc:
            return ToolResult.error(
                f"Invalid arguments:\n{validation_summary(exc)}"
            )
        if self.requires_approval:
            gate = approval_gate(ctx, self.name, args)
            if isinstance(gate, ToolResult):
                return gate
            if gate is not args:
                return await self._call_overridden(ctx, model, gate)
        return await self._run(ctx, params)

    async def _call_overridden(
        self, ctx: RunContext[Any], model: type[BaseModel], args: dict[str, Any]
    ) -> ToolResult:
        try:
            params = model.model_validate(args)
        except ValidationError as exc:
            return ToolResult.error(
                f"Invalid approved arguments for tool {self.name!r}:\n{validation_summary(exc)}"
            )
        return await self._run(ctx, params)

    async def _run(self, ctx: RunContext[Any], params: BaseModel) -> ToolResult:
        kwargs = params.__dict__
        if params.__pydantic_extra__:
            kwargs = {**kwargs, **params.__pydantic_extra__}
        try:
            value = await call_user_function(self._handler, self._handler_is_async, ctx, **kwargs)
        except DeferredCallError:
            raise
        except Exception as exc:  # noqa: BLE001  # user code: an error result, never a crash
            return failure_result(self.name, exc)  # a ToolError's message; others masked
        return to_tool_result(value, self.name, self._returns)

    def __repr__(self) -> str:
        return f"Tool({self.name!r})"
