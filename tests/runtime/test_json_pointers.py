"""JSON values at RFC 6901 pointers: the lookup and the differences."""

from __future__ import annotations

from toolc.runtime.json_pointers import MISSING, json_differences, resolve_pointer, step


def test_json_differences_ignore_key_order_but_not_types() -> None:
    assert json_differences({"a": 1, "b": [1, 2]}, {"b": [1, 2], "a": 1}) == []
    assert json_differences({"a": 1}, {"a": True}) == [("/a", 1, True)]
    assert json_differences({"a": 1.0}, {"a": 1}) == []
    assert json_differences({"a~/b": 1}, {}) [0][0] == "/a~0~1b"


def test_a_pointer_finds_through_objects_and_arrays_and_missing_is_not_null() -> None:
    document = {"a/b": [{"~k": None}], "n": None}
    assert resolve_pointer(document, "/a~1b/0/~0k") is None
    assert resolve_pointer(document, "/n") is None
    assert resolve_pointer(document, "/a~1b/1") is MISSING
    assert resolve_pointer(document, "/gone/deeper") is MISSING
    assert resolve_pointer(document, "") is document


def test_a_key_on_one_side_only_differs_from_nothing() -> None:
    assert json_differences({"a": None}, {}) == [("/a", None, MISSING)]
    assert json_differences([1, 2], [1]) == [("", [1, 2], [1])]


def test_an_index_is_ascii_digits_without_a_leading_zero() -> None:
    """"²" is a digit to str.isdigit and not to int; "01" names no item (RFC 6901). Each
    reader of pointers (the validator's messages, the published document's `$ref`s, the
    diff's `$ref` following) walks with this one step."""
    items = {"a": ["zero", "one"]}
    assert resolve_pointer(items, "/a/1") == "one"
    assert resolve_pointer(items, "/a/²") is MISSING
    assert resolve_pointer(items, "/a/01") is MISSING
    assert resolve_pointer(items, "/a/-1") is MISSING
    assert step({"²": 1}, "²") == 1


def test_every_pointer_reader_survives_a_superscript_index() -> None:
    from toolc.diff.classify import classify
    from toolc.publish.json_documents import lookup
    from toolc.runtime.validation_messages import _pointer

    schema = {"anyOf": [{"type": "string"}], "properties": {"x": {"$ref": "#/anyOf/²"}}}
    assert _pointer(schema, "#/anyOf/²") is None
    assert lookup(schema, "/anyOf/²") == (False, None)
    tool = {"name": "t", "inputSchema": schema}
    changed = {"name": "t", "inputSchema": {**schema, "required": ["x"]}}
    assert classify({"t": tool}, {"t": changed})  # no ValueError on the way
