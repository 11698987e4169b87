"""The validator of record: exactly the published schema, all problems said, no network."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from toolc.runtime.validation import MAX_PROBLEMS, Validator, ValidatorBroken, pointer, where


@pytest.fixture
def http_server() -> Iterator[tuple[str, list[str]]]:
    """A schema server on 127.0.0.1 that records every request it receives."""
    seen: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # the stdlib's name
            seen.append(self.path)
            body = b'{"type": "string"}'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", seen
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_a_remote_ref_is_never_fetched(http_server: tuple[str, list[str]]) -> None:
    url, seen = http_server
    validator = Validator({"type": "object", "properties": {"x": {"$ref": f"{url}/s.json"}}})
    with pytest.raises(ValidatorBroken, match="does not compile"):
        validator.problems({"x": 1})
    assert seen == []


def test_every_problem_is_listed_with_its_path() -> None:
    validator = Validator('{"type":"object","properties":{"tags":{"type":"array",'
                          '"items":{"type":"string"}},"n":{"type":"integer"}},'
                          '"required":["n"]}')
    assert validator.problems({"tags": ["a", 3]}) == [
        '- (arguments): "n" is a required property',
        '- tags[1]: 3 is not of type "string"',
    ]
    assert validator.problems({"n": 1}) == []


def test_the_list_is_bounded() -> None:
    schema = {"type": "object", "additionalProperties": {"type": "integer"}}
    problems = Validator(schema).problems({f"k{i}": "x" for i in range(MAX_PROBLEMS + 5)})
    assert len(problems) == MAX_PROBLEMS + 1 and problems[-1] == "- ... and 5 more problems"


def test_an_enum_lists_every_allowed_value() -> None:
    validator = Validator({"enum": ["debug", "info", "warning", "error"]})
    assert validator.problems("loud") == [
        '- (arguments): "loud" is not one of "debug", "info", "warning", "error"']


def test_regexes_are_ecma_262() -> None:
    validator = Validator({"type": "string", "pattern": "^\\p{Letter}+$"})
    assert validator.problems("héllo") == []
    # `$` is the end of the input, not "before a final newline" as in Python
    assert Validator({"pattern": "^a$"}).problems("a\n") != []


def test_integers_beyond_float_range_are_numbers() -> None:
    assert Validator({"type": "number", "minimum": 0}).problems(10**400) == []


def test_paths_read_as_a_reader_writes_them() -> None:
    assert where([]) == "(arguments)"
    assert where(["filters", "tags", 2, "name"]) == "filters.tags[2].name"
    assert where([0]) == "[0]"


def test_each_problem_is_located_at_its_json_pointer() -> None:
    validator = Validator({"type": "object", "required": ["n"], "properties": {
        "a~b/c": {"type": "array", "items": {"type": "string"}}}})
    assert validator.located({"a~b/c": ["x", 3]}) == [
        ("", '"n" is a required property'),
        ("/a~0b~1c/1", '3 is not of type "string"'),
    ]
    assert validator.located({"n": 1}) == []
    assert pointer([]) == "" and pointer(["filters", "tags", 2]) == "/filters/tags/2"
