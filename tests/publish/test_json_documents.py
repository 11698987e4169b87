"""JSON pointers and URI fragments into a published document, and the ``$id`` values it
declares (each rule's use by the references is in test_schema_refs.py)."""

from __future__ import annotations

from toolc.publish.json_documents import declared_ids, fragment, lookup


def test_lookup_follows_json_pointer_fragments() -> None:
    doc = {"a": [{"b/c": {"~": 1}}], "e f": 2}
    assert lookup(doc, "/a/0/b~1c/~0") == (True, 1)
    assert lookup(doc, "/e%20f") == (True, 2)
    assert lookup(doc, "") == (True, doc)
    assert lookup(doc, "/a/01")[0] is False and lookup(doc, "/z")[0] is False


def test_fragment_and_declared_ids() -> None:
    assert fragment("/properties/a b") == "#/properties/a%20b"
    assert declared_ids({"$id": "https://x/a/", "p": {"$id": "b"}}) == {
        "https://x/a/", "https://x/a/b"}
