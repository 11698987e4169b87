"""The JSON Schema of the spec format that editors read."""

from __future__ import annotations

from pathlib import Path

from jsonschema import Draft202012Validator
from toolc.loader import load_file
from toolc.model import spec_json_schema

FIXTURES = Path(__file__).parents[1] / "fixtures"


def _validator() -> Draft202012Validator:
    schema = spec_json_schema()
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def test_it_is_a_titled_2020_12_schema() -> None:
    schema = spec_json_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["title"]
    assert schema["required"] == ["toolc", "module"]


def test_valid_specs_pass_it() -> None:
    v = _validator()
    for path in sorted((FIXTURES / "resolve").rglob("*.toolc.yaml")):
        assert list(v.iter_errors(load_file(str(path)).data)) == [], path


def test_it_flags_what_the_compiler_flags() -> None:
    v = _validator()
    for case in ("TC101-unknown-key-tool", "TC101-unknown-keyword-schema", "TC103-bad-value-kind",
                 "TC104-bad-version", "TC103-yaml-1-2-booleans"):
        for path in sorted((FIXTURES / "invalid" / case).glob("*.toolc.yaml")):
            assert not v.is_valid(load_file(str(path)).data), path


def test_schemas_offer_every_keyword_and_toolc_additions() -> None:
    toolc = spec_json_schema()["$defs"]["ToolcSchema"]["anyOf"][1]["properties"]
    raw = spec_json_schema()["$defs"]["JsonSchema"]["anyOf"][1]["properties"]
    assert {"nullable", "description", "$defs", "propertyNames", "if"} <= set(toolc)
    assert "nullable" not in raw and "description" in raw
