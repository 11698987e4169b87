"""jsonschema-rs as the build uses it: the engine the runtime validates with.

The build judges patterns, defaults and whole published schemas with the very validator
that enforces them at call time, so that what builds is what runs: a pattern is
ECMA-262 as JSON Schema says (``\\p{Letter}`` is fine, Python's ``(?P<n>...)`` too, ``\\Z``
is not), and a schema the validator cannot compile stops the build instead of failing
every call. Nothing is ever retrieved: a reference the document does not hold is an
error, never a request (see :func:`refuse_retrieval`).

jsonschema-rs has an import cost of its own (bench/RESULTS.md, "Costs behind the code");
it is imported here only, and this module only by the checks that need it.
"""

from __future__ import annotations

import functools
import re
from typing import Any

import jsonschema_rs

ValidationError = jsonschema_rs.ValidationError
Validator = jsonschema_rs.Validator


class RetrievalRefused(Exception):
    """Raised inside jsonschema-rs for every reference outside the document."""


def refuse_retrieval(uri: str) -> Any:
    """The retriever of every validator toolc makes: toolc never fetches a schema."""
    raise RetrievalRefused(f"toolc never retrieves schemas ({uri})")


def compile_schema(schema: Any) -> Validator:
    """A 2020-12 validator for ``schema``; raises :class:`ValidationError` when it cannot
    be compiled (not a valid schema, a pattern out of dialect, a reference to nowhere)."""
    return jsonschema_rs.Draft202012Validator(schema, retriever=refuse_retrieval)


def compile_problem(schema: Any) -> str | None:
    """Why jsonschema-rs cannot compile ``schema`` (``None`` when it can)."""
    try:
        compile_schema(schema)
    except ValidationError as exc:
        return problem_text(exc)
    except BaseException as exc:  # noqa: BLE001 - any failure of the engine, a Rust panic too
        return failure_text(exc)
    return None


def reraise_interrupt(exc: BaseException) -> None:
    """Catching every failure of the engine (a Rust panic is a BaseException) must not
    swallow Ctrl-C."""
    if isinstance(exc, (KeyboardInterrupt, SystemExit)):
        raise exc


def failure_text(exc: BaseException) -> str:
    """What an unexpected failure of the engine says; interrupts are not swallowed."""
    reraise_interrupt(exc)
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def validator_map(schema: Any) -> Any:
    """Validators of every subschema of a document, keyed ``#<pointer>``, each resolving
    its references against the whole document."""
    return jsonschema_rs.validator_map_for(schema, retriever=refuse_retrieval)


def problem_text(exc: ValidationError) -> str:
    """The first line of a jsonschema-rs message (the rest repeats schema and instance)."""
    text = str(exc.message).strip().splitlines()
    return text[0] if text else "rejected"


_NOT_REGEX = re.compile(r'is not a "regex"$')


@functools.lru_cache(maxsize=4096)
def regex_problem(pattern: str) -> str | None:
    """Why ``pattern`` is not an ECMA-262 regular expression as jsonschema-rs reads it."""
    try:
        jsonschema_rs.validator_for({"pattern": pattern})
    except ValidationError as exc:
        return _why_not_regex(pattern, problem_text(exc))
    except BaseException as exc:  # noqa: BLE001 - e.g. a lone surrogate, a Rust panic
        return failure_text(exc)
    return None


def _why_not_regex(pattern: str, message: str) -> str:
    """jsonschema-rs only says "not a regex"; Python's reason, when Python agrees, says
    where (and otherwise the dialects differ, which is worth saying)."""
    try:
        re.compile(pattern)
    except (re.error, RecursionError, OverflowError, ValueError) as exc:
        return str(exc)
    if _NOT_REGEX.search(message):
        return "not valid in ECMA-262, the dialect of JSON Schema's patterns"
    return message
