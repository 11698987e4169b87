"""`required` in two forms."""

from __future__ import annotations

from collections.abc import Callable

H = ("toolc: 1\nmodule: m\ntools:\n  t:\n    description: T.\n    handler: x.y:t\n"
     "    params:\n      o:\n        description: O.\n        type: object\n"
     "        properties:\n")


def test_agreeing_forms_are_fine(codes: Callable[..., list[str]]) -> None:
    text = H + ("          a: {type: string, description: A., required: true}\n"
                "          b: {type: string, description: B., required: false}\n"
                "        required: [a]\n")
    assert codes(text) == []


def test_disagreement_is_at_the_property_required(check: Callable[..., list]) -> None:
    (r,) = check(H + "          a: {type: string, description: A., required: false}\n"
                 "        required: [a]\n")
    assert r[:3] == ("TC205", 12, 46)


def test_list_names_only_properties(check: Callable[..., list]) -> None:
    (r,) = check(H + "          a: {type: string, description: A.}\n        required: [a, b]\n")
    assert r[:3] == ("TC207", 13, 23)
