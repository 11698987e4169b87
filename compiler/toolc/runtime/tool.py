"""One Python tool: its published definition, argument validation, and the handler call.

Generated modules build `Tool`s with the published JSON Schemas exactly as the compiler
wrote them, and the handler, usually as a `LazyRef` so that importing a generated module
never imports user code. A call is validated against the published input schema itself
(`toolc.runtime.validation`); only then does the params model, a pydantic model with
the handler's parameter types, convert the arguments (nested objects into models,
defaults filled in). The model never decides what is valid: it is generated to accept
whatever the schema accepts, and if it ever refuses, that is reported as the bug it is.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from pydantic import BaseModel, ValidationError

from toolc.runtime.context import RunContext
from toolc.runtime.deferred import DeferredCallError
from toolc.runtime.definition import ToolDefinition
from toolc.runtime.failures import cannot_run, failure_result
from toolc.runtime.metakeys import with_approval
from toolc.runtime.pausing import approval_gate
from toolc.runtime.results import ToolResult, to_tool_result
from toolc.runtime.validation import Validator, ValidatorBroken

ModelSource = type[BaseModel] | Callable[[], type[BaseModel]]


class LazyRefError(ImportError):
    """A `LazyRef` that does not resolve; the message names the reference."""


class LazyRef:
    """`package.module` + `attr.path`, imported at first use and then cached.

    Attributes:
        module: The module to import (`app.tools`).
        attr: The attribute path in it (`read_log`, `Class.method`).
    """

    __slots__ = ("_value", "attr", "module")

    def __init__(self, module: str, attr: str) -> None:
        self.module = module
        self.attr = attr
        self._value: Any = _UNSET

    @classmethod
    def parse(cls, text: str) -> LazyRef:
        """Read `package.module:attr.path`; raises `ValueError` on another shape."""
        module, sep, attr = text.partition(":")
        if not sep or not module or not attr:
            raise ValueError(f"a reference is 'package.module:attribute', not {text!r}")
        return cls(module, attr)

    def resolve(self) -> Any:
        """The object referred to, imported now if not yet; raises `LazyRefError`
        (naming the reference and what failed) when it does not import."""
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
        # lazy: loads anyio
        from anyio.to_thread import run_sync

        _run_sync = run_sync
    return _run_sync


def resolve_callable(source: Any) -> Any:
    """A LazyRef's target, or the object itself."""
    return source.resolve() if isinstance(source, LazyRef) else source


# The flag inspect.iscoroutinefunction tests: inspect is not imported for it (its import
# cost: bench/RESULTS.md, "Costs behind the code").
_CO_COROUTINE = 0x80


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
    # lazy: logging, only when this runs
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


def whole_floats_to_int(value: Any) -> Any:
    """``value`` with every whole float beyond 64 bits made an int, at any depth."""
    if isinstance(value, float) and value.is_integer() and abs(value) >= 2.0**63:
        return int(value)
    if isinstance(value, dict):
        return {k: whole_floats_to_int(v) for k, v in value.items()}
    if isinstance(value, list):
        return [whole_floats_to_int(v) for v in value]
    return value


def invalid(what: str, problems: list[str]) -> ToolResult:
    """The error result for arguments (or a result) the published schema refuses."""
    return ToolResult.error(f"{what}:\n" + "\n".join(problems))


def internal_error(tool: str, what: str, exc: BaseException) -> ToolResult:
    """An error result for a failure of toolc itself, said as one: never "the tool
    failed" (the handler did not run) nor "invalid arguments" (they may be valid)."""
    log_failure(exc, "internal error in tool %s: %s", tool, what)
    return ToolResult.error(
        f"Internal error in tool {tool!r}: {what}: {exc} (a bug in toolc, not in the "
        "arguments; please report it)")


class Tool:
    """A tool run by a Python handler: `handler(ctx, **params)`.

    `params_model` converts validated arguments into the handler's parameter types;
    without one the handler receives the arguments as they came. `arg_names` maps a
    model field to the handler's keyword where the two differ (a field cannot be named
    `model_dump_x` or `json`; the handler's parameter is). `formats=True` asserts
    `format` keywords (by default they only annotate, as JSON Schema 2020-12 says).
    Generated modules make one per tool of the spec; the handler and the model are
    resolved at the first call.

    Args:
        name: The tool's name.
        description: What the model reads about it.
        handler: The handler, or a `LazyRef` to it (imported at the first call).
        input_schema: The published JSON Schema of the arguments (a dict, or its JSON
            text): every call is validated against it before the handler runs.
        params_model: The pydantic model (or a factory of it) that converts validated
            arguments into the handler's types.
        output_schema: The JSON Schema of the structured result, which checks it.
        title: A title for people.
        annotations: MCP's tool annotations.
        meta: The tool's `_meta`.
        requires_approval: Every call pauses for approval first.
        formats: Assert `format` keywords when validating.

    Attributes:
        name: The tool's name.
        description: What the model reads about it.
        title: A title for people.
        annotations: MCP's tool annotations.
        meta: The tool's `_meta`, as given.
        requires_approval: Whether every call pauses for approval first.
    """

    __slots__ = (
        "_arg_names",
        "_definition",
        "_handler",
        "_handler_is_async",
        "_handler_source",
        "_input",
        "_input_schema",
        "_output",
        "_output_schema",
        "_params",
        "_params_source",
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
        handler: Callable[..., Any] | LazyRef,
        input_schema: Mapping[str, Any] | str,
        params_model: ModelSource | None = None,
        output_schema: Mapping[str, Any] | str | None = None,
        title: str | None = None,
        annotations: Mapping[str, Any] | None = None,
        meta: Mapping[str, Any] | None = None,
        requires_approval: bool = False,
        formats: bool = False,
        arg_names: Mapping[str, str] | None = None,
    ) -> None:
        self.name = name
        self._arg_names = dict(arg_names) if arg_names else None
        self.description = description
        self.title = title
        self.annotations = annotations
        self.meta = meta
        self.requires_approval = requires_approval
        self._params_source = params_model
        self._input_schema = input_schema
        self._output_schema = output_schema
        self._input = Validator(input_schema, formats=formats)
        self._output = None if output_schema is None else Validator(output_schema,
                                                                    formats=formats)
        self._handler_source = handler
        self._params: type[BaseModel] | None = None
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
                meta=with_approval(self.meta) if self.requires_approval else self.meta,
            )
        return self._definition

    @property
    def params_model(self) -> type[BaseModel] | None:
        """The pydantic model that converts validated arguments, resolved at first use
        (a factory is called once); the handler is not imported for it."""
        if self._params is None and self._params_source is not None:
            self._params = _model(self._params_source)
        return self._params

    @property
    def validator(self) -> Validator:
        """The validator of the published input schema."""
        return self._input

    def _load(self) -> None:
        """Resolve the params model and the handler at the first call."""
        self.params_model  # noqa: B018  # resolved before the handler: it names its types
        self._handler = resolve_callable(self._handler_source)
        self._handler_is_async = is_async_callable(self._handler)

    async def call(self, ctx: RunContext[Any], args: dict[str, Any]) -> ToolResult:
        """Validate, ask for approval when required, run the handler, convert its result."""
        try:
            # (the common case without a Python call: compiled already, and valid)
            compiled = self._input.compiled_or_none
            problems = [] if compiled is not None and compiled.is_valid(args) \
                else self._input.problems(args)
        except ValidatorBroken as exc:
            return internal_error(self.name, "the arguments could not be validated", exc)
        except Exception as exc:  # noqa: BLE001  # a validator failure is a bug, said as one
            return internal_error(self.name, "the arguments could not be validated",
                                  ValidatorBroken(f"{type(exc).__name__}: {exc}"))
        if problems:
            return invalid("Invalid arguments", problems)
        if self._handler is None:
            try:
                self._load()
            except Exception as exc:  # noqa: BLE001  # user code: an error result, never a crash
                log_failure(exc, "tool %s cannot load", self.name)
                return cannot_run(self.name, exc)  # masked behind a server, like a failure
        if self.requires_approval:
            gate = approval_gate(ctx, self.name, args)
            if isinstance(gate, ToolResult):
                return gate
            if gate is not args:
                return await self._call_overridden(ctx, gate)
        return await self._run(ctx, args)

    async def _call_overridden(self, ctx: RunContext[Any], args: dict[str, Any]) -> ToolResult:
        try:
            problems = self._input.problems(args)
        except ValidatorBroken as exc:
            return internal_error(self.name, "the approved arguments could not be validated",
                                  exc)
        if problems:
            return invalid(f"Invalid approved arguments for tool {self.name!r}", problems)
        return await self._run(ctx, args)

    async def _run(self, ctx: RunContext[Any], args: dict[str, Any]) -> ToolResult:
        # Validated arguments as the handler's keyword arguments (written out here, not in
        # a helper: this runs at every call).
        model = self._params
        try:
            if model is None:
                kwargs = args
            else:
                try:
                    params = model.model_validate(args)
                except ValidationError:
                    # pydantic's int takes 5.0 but not a whole float beyond 64 bits (1e300),
                    # which JSON Schema counts as an integer too: once more, those made ints.
                    params = model.model_validate(whole_floats_to_int(args))
                kwargs = params.__dict__
                if self._arg_names is not None:
                    kwargs = {self._arg_names.get(k, k): v for k, v in kwargs.items()}
                if params.__pydantic_extra__:
                    kwargs = {**kwargs, **params.__pydantic_extra__}
        except Exception as exc:  # noqa: BLE001  # the model refused what the schema took
            return internal_error(self.name, "valid arguments could not be converted to "
                                  "the handler's types", exc)
        try:
            value = await call_user_function(self._handler, self._handler_is_async, ctx, **kwargs)
        except DeferredCallError:
            raise
        except Exception as exc:  # noqa: BLE001  # user code: an error result, never a crash
            return failure_result(self.name, exc)  # a ToolError's message; others masked
        return to_tool_result(value, self.name, self._output)

    def __repr__(self) -> str:
        return f"Tool({self.name!r})"
