"""The validator of record: a call is checked against exactly the schema it publishes.

A tool's arguments (and its structured result, where it has an output schema) are
validated by a real JSON Schema 2020-12 validator, jsonschema-rs, compiled once from the
very JSON text of the published schema: what the model reads, what the golden file
holds and what runs are one contract, never a translation of it. Generated pydantic
models only convert what this validator accepted into typed handler arguments.

The validator never fetches anything (``offline=True``): a published schema resolves
on its own, the build sees to that. ``format`` is an annotation, as 2020-12 says,
unless the tool asks for assertion.

jsonschema-rs has an import cost of its own (bench/RESULTS.md, "Costs behind the code"),
so it is imported when the first schema is compiled, not when a generated module is.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from toolc.runtime.json_pointers import escape
from toolc.runtime.validation_messages import UNIONS, message, short

# How much of the validator's report reaches the model: every problem up to a bound,
# each one cut, so that a 9 MB argument cannot come back as a 9 MB error.
MAX_PROBLEMS = 20
MAX_PROBLEM_CHARS = 300

_compile: Any = None


class ValidatorBroken(Exception):
    """The validator itself failed (a schema that does not compile, a validator error):
    a bug to fix, never the caller's invalid arguments."""


def _compiler() -> Any:
    global _compile
    if _compile is None:
        # lazy: loads jsonschema_rs
        from jsonschema_rs import Draft202012Validator

        _compile = Draft202012Validator
    return _compile


class Validator:
    """One published schema, compiled at its first use.

    ``schema`` is the schema as a mapping or as its JSON text (generated modules hold
    the text, which is compiled directly without a Python copy of the schema).
    """

    __slots__ = ("_compiled", "_formats", "_parsed", "_schema")

    def __init__(self, schema: Mapping[str, Any] | str, *, formats: bool = False) -> None:
        self._schema = schema
        self._formats = formats
        self._compiled: Any = None
        self._parsed: Any = None

    @property
    def compiled_or_none(self) -> Any:
        """The compiled validator if it was compiled already (a call's fast path)."""
        return self._compiled

    def compiled(self) -> Any:
        """The jsonschema-rs validator; ``ValidatorBroken`` when the schema does not
        compile (the build refuses such a schema, so this is a bug)."""
        if self._compiled is None:
            schema = self._schema
            text = schema if isinstance(schema, str) else json.dumps(schema)
            try:
                self._compiled = _compiler()(text, validate_formats=self._formats,
                                             offline=True)
            except Exception as exc:  # any failure is the validator's
                raise ValidatorBroken(f"the schema does not compile: {_first_line(exc)}") \
                    from exc
        return self._compiled

    def _document(self) -> Any:
        """The schema as data (what names a union's branches), read once."""
        if self._parsed is None:
            schema = self._schema
            self._parsed = json.loads(schema) if isinstance(schema, str) else schema
        return self._parsed

    def problems(self, instance: Any) -> list[str]:
        """What is wrong with ``instance``, one line per problem (empty: valid)."""
        return summarise(*self._errors(instance))

    def located(self, instance: Any) -> list[tuple[str, str]]:
        """Each problem of ``instance`` at its RFC 6901 JSON pointer (``""``: the whole
        instance), said as :meth:`problems` says it (a union's branches on the lines
        after the first, each line bounded); empty: valid. For a caller that points at
        the value, ``toolc call``: the model reads :meth:`problems`' wording."""
        errors, document = self._errors(instance)
        return [(pointer(error.instance_path),
                 "\n".join(_cut(line) for line in _message(error, document).split("\n")))
                for error in errors]

    def _errors(self, instance: Any) -> tuple[list[Any], Any]:
        """The validator's errors for ``instance``, and the schema as data when a union
        failed (what names its branches), else None."""
        compiled = self._compiled or self.compiled()
        try:
            if compiled.is_valid(instance):
                return [], None
            errors = list(compiled.iter_errors(instance))
            unions = any(type(e.kind).__name__ in UNIONS for e in errors)
            return errors, self._document() if unions else None
        except Exception as exc:  # RecursionError, a panic: a bug
            raise ValidatorBroken(f"validation failed: {type(exc).__name__}: "
                                  f"{_first_line(exc)}") from exc


def summarise(errors: Any, document: Any = None) -> list[str]:
    """``- path: message`` per problem, at most ``MAX_PROBLEMS`` of them, each line bounded
    (a failing union says why each branch failed on lines of its own); ``document``: the
    schema validated against, which names a union's branches."""
    lines: list[str] = []
    told = extra = 0
    for error in errors:
        if told == MAX_PROBLEMS:
            extra += 1
            continue
        told += 1
        first, *rest = _message(error, document).split("\n")
        lines.append(_cut(f"- {where(error.instance_path)}: {first}"))
        lines.extend(_cut(line) for line in rest)
    if extra:
        lines.append(f"- ... and {extra} more problem{'s' if extra > 1 else ''}")
    return lines


def _message(error: Any, document: Any) -> str:
    """The validator's message, said so that the model can correct its call
    (:mod:`toolc.runtime.validation_messages`); a long one shortened."""
    said = message(error, document)
    if len(said) > MAX_PROBLEM_CHARS and "\n" not in said:  # mostly the instance: shorten it
        text = json.dumps(error.instance, ensure_ascii=False, separators=(",", ":"))
        said = said.replace(text, short(error.instance), 1)
    return said


def where(path: Sequence[str | int]) -> str:
    """An instance path as a reader writes it: ``filters.tags[2]``; ``(arguments)`` for
    the whole input object."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(arguments)"


def pointer(path: Sequence[str | int]) -> str:
    """An instance path as an RFC 6901 JSON pointer: ``/filters/tags/2``; ``""`` for the
    whole instance."""
    return "".join(f"/{escape(str(part))}" for part in path)


def _cut(text: str) -> str:
    if len(text) <= MAX_PROBLEM_CHARS:
        return text
    return text[:MAX_PROBLEM_CHARS - 1] + "…"


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return _cut(text.splitlines()[0] if text else type(exc).__name__)
