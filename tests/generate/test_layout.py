"""Expression trees: one line when they fit, exploded when not, unions written tidily."""

from __future__ import annotations

import ast

from toolc.generate.layout import (
    ANY,
    FLOAT,
    INT,
    NONE,
    Call,
    Lit,
    Raw,
    Sub,
    Union,
    annotated,
    field_call,
    literal,
    plain,
    render,
    union,
)


def test_short_expressions_stay_on_one_line() -> None:
    node = Sub("list", (Sub("Literal", (Lit("a"), Lit(1))),))
    assert render(node, 4, 80) == 'list[Literal["a", 1]]'


def test_long_expressions_explode_one_item_per_line() -> None:
    node = Sub("Literal", tuple(Lit(f"value{i}") for i in range(12)))
    text = render(node, 4, 60)
    assert text.splitlines()[0] == "Literal["
    assert text.splitlines()[1] == '        "value0",'
    assert text.splitlines()[-1] == "    ]"
    assert ast.parse("x: " + text)


def test_a_call_with_a_long_string_wraps_the_string() -> None:
    call = field_call({"description": "word " * 30}, positional=NONE)
    text = render(call, 4, 60)
    assert text.startswith("Field(\n        None,\n        description=(\n")
    value = ast.literal_eval(ast.parse(text).body[0].value.keywords[0].value)  # type: ignore[attr-defined]
    assert value == "word " * 30


def test_unions_are_flat_distinct_and_none_last() -> None:
    assert union(NONE, INT, union(INT, Raw("str"))) == Union((INT, Raw("str"), NONE))
    assert union(INT, ANY, NONE) == ANY
    # a model keeps int | float (3 stays 3, 10**400 has no float); a handler sees float
    assert union(INT, FLOAT) == Union((INT, FLOAT))
    assert plain(union(INT, FLOAT)) == FLOAT
    merged = union(Sub("Literal", (Lit("a"),)), Sub("Literal", (Lit("b"),)), NONE)
    assert merged.flat() == 'Literal["a", "b"] | None'


def test_literal_moves_none_out_and_drops_repeats() -> None:
    assert literal(Lit("a"), Lit(None), Lit("a")).flat() == 'Literal["a"] | None'
    assert literal(Lit(None)) == NONE


def test_plain_drops_constraints_but_keeps_types() -> None:
    constrained = annotated(INT, {"ge": 1})
    assert constrained.flat() == "Annotated[int, Field(ge=1)]"
    node = Sub("list", (union(constrained, NONE),))
    assert plain(node).flat() == "list[int | None]"
    assert annotated(INT, {}) == INT
    assert Call("f", ((None, Raw("x")), ("k", Lit(2)))).flat() == "f(x, k=2)"


def test_literal_and_union_drop_repeats_in_order_in_linear_time() -> None:
    from toolc.generate.layout import Lit, literal, union

    node = literal(Lit("b"), Lit("a"), Lit("b"), Lit(None), Lit("a"))
    assert node == union(literal(Lit("b"), Lit("a")), NONE)
    # An enum of 100,000 values: a list's `in` for each made this quadratic (an enum of
    # 20,000 took 50 s to generate); no clock here, a quadratic run would not finish.
    values = [Lit(f"v{i}") for i in range(100_000)]
    big = literal(*values, *values)
    assert isinstance(big, Sub) and big.args == tuple(values)


def test_a_union_of_many_literals_folds_them_in_linear_time() -> None:
    from toolc.generate.layout import Lit, literal, union

    # anyOf of 20,000 consts took 90 s: each part was looked up in a fresh copy of the
    # list of literals to fold.
    parts = [literal(Lit(f"v{i}")) for i in range(100_000)]
    folded = union(*parts)
    assert isinstance(folded, Sub) and len(folded.args) == 100_000
