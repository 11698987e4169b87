"""What every spec model shares: strict parsing, forbidden extras, and readable expectations.

Models are strict so that YAML's data keeps the meaning the format gives it: ``"1"`` is
not the integer 1, ``yes`` is not ``true``, ``1.0`` is not an integer. Unknown keys are
forbidden everywhere; :mod:`toolc.model.errors` turns pydantic's errors into located,
human diagnostics, using the :class:`Expect` phrases attached to fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, WithJsonSchema

# Placeholders that :func:`toolc.model.spec_json_schema` replaces by references to the
# schema vocabularies it adds itself (pydantic cannot emit a ``$ref`` it did not create).
TOOLC_SCHEMA_MARK = "x-toolc-schema"
RAW_SCHEMA_MARK = "x-json-schema"


@dataclass(frozen=True, slots=True)
class Expect:
    """What a field holds, in words, for messages: ``expected <text>, got a list``."""

    text: str


class SpecModel(BaseModel):
    """Base of every spec model: strict, no unknown keys, immutable."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


# A schema written in toolc's dialect (JSON Schema 2020-12 plus named types, `required:
# true|false` and `nullable`). Pydantic keeps it exactly as loaded (a YMap with spans, or a
# boolean); the schema checks walk it keyword by keyword, which is both faster and more
# precise than a 60-field model per schema node.
ToolcSchema = Annotated[Any, WithJsonSchema({TOOLC_SCHEMA_MARK: True})]

# Plain JSON Schema 2020-12, as an `external` tool's `input_schema` is written.
RawSchema = Annotated[Any, WithJsonSchema({RAW_SCHEMA_MARK: True})]

# Any JSON value (for `_meta`); finite numbers are checked separately.
JsonValue = Annotated[Any, WithJsonSchema({})]
