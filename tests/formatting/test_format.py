"""format_text: the canonical layout, comments where they were, scalars that mean what
they meant, and the located error of a spec that does not parse."""

from __future__ import annotations

import math
from typing import Any

import pytest
from toolc.diagnostics import DiagnosticBag, SpecError
from toolc.formatting import FormatBug, format_text
from toolc.formatting.meaning import check_formatted
from toolc.frontend import analyse
from toolc.loader import load_text


def data(text: str) -> Any:
    return load_text(text, "spec.toolc.yaml").data


def fmt(text: str) -> str:
    once = format_text(text)
    assert format_text(once) == once  # every case here is idempotent too
    return once


# -- key order ---------------------------------------------------------------------------

def test_keys_the_format_names_come_in_canonical_order_and_data_keeps_its_own() -> None:
    text = """\
export: main
tools:
  b:
    params:
      second: {type: string, description: Comes first as written.}
      first: {description: Kept second., type: string}
    handler: app:b
    description: Tool b.
    title: B
  a: {description: Tool a., handler: app:a}
toolsets:
  main: {tools: [b, a], kind: function}
  web: {http: {headers: {X: y}, url: "http://h"}, tool_cache_ttl_ms: 5, kind: mcp}
module: demo
toolc: 1
"""
    out = fmt(text)
    assert [line.split(":")[0] for line in out.splitlines() if line and line[0] != " "] == [
        "toolc", "module", "tools", "toolsets", "export"]
    assert out.index("title: B") < out.index("description: Tool b.") < out.index(
        "handler: app:b") < out.index("params:")
    # parameters and a schema's keywords are published in the order written
    assert out.index("second:") < out.index("first:")
    assert "first: {description: Kept second., type: string}" in out
    assert "main: {kind: function, tools: [b, a]}" in out
    assert "web:\n    kind: mcp\n    http: {url: http://h, headers: {X: y}}\n" \
           "    tool_cache_ttl_ms: 5\n" in out
    # a tool is a block even when it would fit on a line
    assert "  a:\n    description: Tool a.\n    handler: app:a\n" in out


def test_unknown_keys_follow_the_known_ones_in_the_order_written() -> None:
    out = fmt("tools:\n  t:\n    zeta: 1\n    handler: x:y\n    alpha: 2\n"
              "    description: D.\ntoolc: 1\n")
    assert out == ("toolc: 1\n\ntools:\n  t:\n    description: D.\n    handler: x:y\n"
                   "    zeta: 1\n    alpha: 2\n")


def test_a_reorder_that_would_put_an_alias_before_its_anchor_keeps_the_order() -> None:
    text = "tools:\n  t: &t {description: T.}\ntypes:\n  T: *t\ntoolc: 1\n"
    out = fmt(text)
    assert out.index("tools:") < out.index("types:")
    assert data(out) == data(text)


# -- layout ------------------------------------------------------------------------------

def test_flow_or_block_by_length_the_limit_is_the_hundredth_column() -> None:
    fits = "x" * (100 - len("      p: {type: string, description: }"))
    text = f"tools:\n  t:\n    params:\n      p: {{type: string, description: {fits}}}\n"
    assert max(len(line) for line in fmt(text).splitlines()) == 100
    longer = text.replace(fits, fits + "y")
    assert "      p:\n        type: string\n        description: " in fmt(longer)
    block = "tools:\n  t:\n    params:\n      p:\n        type: string\n" \
            f"        description: {fits}\n"
    assert fmt(block) == fmt(text)


def test_lists_are_indented_under_their_key_and_lists_of_mappings_are_compact() -> None:
    note = "a third key makes this one long enough to stay a block of three lines"
    text = ("certify:\n  contexts:\n  - deps: a:b\n    name: x\n  -   name: y\n"
            f"      deps: a:c\n      note: {note}\n")
    assert fmt(text) == (
        "certify:\n  contexts:\n    - {name: x, deps: a:b}\n    - name: y\n      deps: a:c\n"
        f"      note: {note}\n")


def test_blank_lines_are_kept_once_and_put_around_top_level_blocks() -> None:
    text = "toolc: 1\n\n\n\nmodule: m\ntools:\n  a:\n    description: A.\n\n\n  b:\n" \
           "    description: B.\nexport: a\n"
    assert fmt(text) == ("toolc: 1\n\nmodule: m\n\ntools:\n  a:\n    description: A.\n\n"
                         "  b:\n    description: B.\n\nexport: a\n")


# -- comments ----------------------------------------------------------------------------

COMMENTED = """\
# yaml-language-server: $schema=../docs/spec.schema.json
module: demo  # the module's name
toolc: 1
tools:
  # open is documented elsewhere
  open:  # toolc: ignore[TC201]
    params:
      path: {type: strin, description: Where.}  # toolc: ignore[TC305]
    handler: app:open
    # handler: app:open_v2
  close:
    description: Close it.   # what the model reads
    handler: app:close
toolsets:
  main:
    kind: function
    tools:
      - open
      # close is not exported yet
# the end
"""


def test_every_comment_stays_with_what_it_belongs_to() -> None:
    out = fmt(COMMENTED)
    assert out == """\
# yaml-language-server: $schema=../docs/spec.schema.json
toolc: 1
module: demo  # the module's name

tools:
  # open is documented elsewhere
  open:  # toolc: ignore[TC201]
    handler: app:open
    params:
      path: {type: strin, description: Where.}  # toolc: ignore[TC305]
    # handler: app:open_v2
  close:
    description: Close it.  # what the model reads
    handler: app:close

toolsets:
  main:
    kind: function
    tools:
      - open
      # close is not exported yet
# the end
"""


def diagnostics(text: str) -> list[tuple[str, str]]:
    bag = DiagnosticBag()
    analyse([load_text(text, "spec.toolc.yaml")], bag)
    return sorted((d.code, d.message) for d in bag)


def test_suppressions_still_suppress_what_they_did_and_nothing_else() -> None:
    """The analysed spec reports the same diagnostics before and after: the ignore
    comments still stand on the lines their diagnostics point at (and an unused one is
    still unused)."""
    before = diagnostics(COMMENTED)
    after = diagnostics(fmt(COMMENTED))
    assert before == after
    codes = {code for code, _ in before}
    assert "TC201" not in codes and "TC022" not in codes  # both suppressions are used


def test_a_one_line_flow_collection_with_a_comment_stays_as_written() -> None:
    long = "x" * 90
    text = f"tools:\n  t:\n    params:\n      p: {{description: {long}}}  # toolc: ignore[TC1]\n"
    assert f"      p: {{description: {long}}}  # toolc: ignore[TC1]\n" in fmt(text)


def test_a_collection_holding_a_comment_is_a_block() -> None:
    text = "toolsets:\n  main: {kind: function,  # why\n    tools: [a]}\n"
    assert fmt(text) == "toolsets:\n  main:\n    kind: function  # why\n    tools: [a]\n"


def test_a_comment_on_a_key_line_keeps_its_value_a_block() -> None:
    text = "tools:\n  t:  # toolc: ignore[TC201]\n    handler: a:b\n"
    assert fmt(text) == text


# -- scalars -----------------------------------------------------------------------------

def test_yaml_1_1_and_1_2_scalars_keep_their_meaning() -> None:
    text = ("values: [no, on, yes, off, y, n, 1e3, 0o17, 0x1F, .inf, -.inf, 1_000, 12:30, "
            "2024-01-01, ~, null, true, '1e3', \"0o17\", '2024-01-01', 'no', -y]\n")
    out = fmt(text)
    before, after = data(text)["values"], data(out)["values"]
    assert [type(v) for v in before] == [type(v) for v in after]
    assert [str(v) for v in before] == [str(v) for v in after]
    assert before[6] == 1000.0 and isinstance(before[6], float) and before[7] == 15
    assert math.isinf(after[9])
    # numbers keep their spelling; strings YAML 1.1 reads as something else are quoted
    items = [line.removeprefix("  - ") for line in out.splitlines()[1:]]
    assert items == ['"no"', '"on"', '"yes"', '"off"', "y", "n", "1e3", "0o17", "0x1F", ".inf",
                     "-.inf", '"1_000"', '"12:30"', '"2024-01-01"', "~", "null", "true",
                     '"1e3"', '"0o17"', '"2024-01-01"', '"no"', "-y"]


QUOTED = r"""a: "plain text"
b: 'mod:attr'
c: {d: "mod:attr", e: 'a, b', f: "x: y"}
g: "^\\d+$"
h: "say \"hi\""
i: "it's"
j: "\u202e"
k: "'\\d'"
l: "\"x\"\t"
"""


def test_quotes_only_where_yaml_needs_them() -> None:
    assert fmt(QUOTED) == r"""a: plain text
b: mod:attr
c: {d: mod:attr, e: "a, b", f: "x: y"}
g: ^\d+$
h: say "hi"
i: it's
j: "\u202e"
k: '''\d'''
l: "\"x\"\t"
"""


BLOCK = "  first line\n    more indented\n\n  last line  \n\n"
INDICATED = "    two spaces of text first\n  then the base\n\n"


@pytest.mark.parametrize("header", ["|", "|-", "|+", ">", ">-", ">+", "|2", ">2-"])
def test_block_scalars_keep_their_style_and_meaning_at_any_new_indentation(header: str
                                                                            ) -> None:
    """Deeper in the source than canonical (a key at column 12, its text at 14): the text
    moves left, its own indentation and trailing blanks kept."""
    body = INDICATED if "2" in header else BLOCK
    moved = "".join(" " * 12 + line if line.strip() else "\n"
                    for line in body.splitlines(keepends=True))
    text = f"tools:\n  t:\n    params:\n        p:\n            description: {header}\n" \
        f"{moved}toolc: 1\n"
    out = fmt(text)
    read = data(out)["tools"]["t"]["params"]["p"]["description"]
    assert read == data(text)["tools"]["t"]["params"]["p"]["description"]
    assert f"        description: {header}\n" in out


def test_a_string_written_over_several_lines_keeps_its_line_breaks() -> None:
    text = "tools:\n  t:\n     description: A long\n       description over\n\n" \
           "       three lines.\n     title: \"quoted\n       too\"\n"
    out = fmt(text)
    assert out == ("tools:\n  t:\n    title: \"quoted\n      too\"\n    description: A long\n"
                   "      description over\n\n      three lines.\n")
    assert data(out) == data(text)


def test_text_with_line_breaks_becomes_a_literal_block() -> None:
    assert fmt('a: "one\\ntwo\\n"\n') == "a: |\n  one\n  two\n"
    assert fmt('a: "one\\n  trailing \\n"\n') == 'a: "one\\n  trailing \\n"\n'


def test_crlf_line_breaks_and_a_bom_are_read_and_written_as_plain_line_breaks() -> None:
    text = "\ufefftoolc: 1\r\nmodule: m\r\ndescription: |\r\n  a\r\n  b\r\n"
    assert fmt(text) == "toolc: 1\nmodule: m\ndescription: |\n  a\n  b\n"


def test_an_empty_spec_and_one_of_only_comments() -> None:
    assert fmt("") == ""
    assert fmt("# only\n\n# comments\n") == "# only\n\n# comments\n"


# -- errors ------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "code", "line"), [
    ("toolc: 1\ntools:\n  t: {description: [a}\n", "TC003", 3),
    ("toolc: 1\ntoolc: 1\n", "TC006", 2),
    ("toolc: 1\n1: x\n", "TC009", 2),
    ("toolc: 1\nx: !!python/object:os.system a\n", "TC007", 2),
    ("toolc: 1\na: 1e400\n", "TC232", 2),
])
def test_a_spec_that_does_not_load_raises_its_located_error(text: str, code: str,
                                                            line: int) -> None:
    with pytest.raises(SpecError) as raised:
        format_text(text, "specs/x.toolc.yaml")
    found = raised.value.diagnostics[0]
    assert found.code == code and found.span is not None
    assert found.span.path == "specs/x.toolc.yaml" and found.span.line == line


def test_the_read_back_check_refuses_a_text_that_means_something_else() -> None:
    with pytest.raises(FormatBug, match="at /a"):
        check_formatted({"a": "1"}, [], "a: 1\n", "x")
    with pytest.raises(FormatBug, match="comment"):
        check_formatted({"a": 1}, ["# kept"], "a: 1\n", "x")
    with pytest.raises(FormatBug, match="does not parse"):
        check_formatted({"a": 1}, [], "a: [\n", "x")
