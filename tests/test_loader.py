"""The loader: spans, YAML 1.2 scalars, duplicate keys, tags and every safety limit."""

from __future__ import annotations

import math
import os
from pathlib import Path

import pytest
from toolc.diagnostics import SpecError
from toolc.loader import (
    MAX_BYTES,
    MAX_DEPTH,
    MAX_NODES,
    YList,
    YMap,
    load_bytes,
    load_file,
    load_text,
    spans_at,
)


def codes(exc: pytest.ExceptionInfo[SpecError]) -> list[tuple[str, int, int]]:
    return [(d.code, d.span.line, d.span.col) for d in exc.value.diagnostics if d.span]


def test_values_keep_spans_of_keys_and_values() -> None:
    f = load_text("tools:\n  readLog:\n    description: Read.\n    params: [a, b]\n", "s.yaml")
    tool = f.data["tools"]["readLog"]
    assert isinstance(tool, YMap) and isinstance(tool["params"], YList)
    key, value = spans_at(f.data, ("tools", "readLog", "description"))
    assert (key.line, key.col, key.length) == (3, 5, 11)
    assert (value.line, value.col) == (3, 18)
    assert tool["params"].item_spans[1].col == 17


def test_spans_at_missing_path_points_at_nearest_parent() -> None:
    f = load_text("a:\n  b: 1\n", "s.yaml")
    key, _ = spans_at(f.data, ("a", "nope", "deeper"))
    assert (key.line, key.col) == (1, 1)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("yes", "yes"), ("no", "no"), ("on", "on"), ("off", "off"), ("Yes", "Yes"),
        ("true", True), ("False", False), ("TRUE", True),
        ("null", None), ("~", None), ("", None),
        ("12", 12), ("-3", -3), ("0o17", 15), ("0x1F", 31), ("012", 12),
        ("1.5", 1.5), ("1e3", 1000.0), (".inf", math.inf), ("-.Inf", -math.inf),
        ("'true'", "true"), ('"12"', "12"), ("!!str 12", "12"), ("!!int '7'", 7),
        ("1_000", "1_000"), ("0b101", "0b101"), ("2001-12-14", "2001-12-14"),
    ],
)
def test_scalars_have_yaml_1_2_core_meaning(text: str, expected: object) -> None:
    value = load_text(f"v: {text}\n", "s.yaml").data["v"]
    assert value == expected and type(value) is type(expected)


def test_nan_is_a_float() -> None:
    assert math.isnan(load_text("v: .nan\n", "s.yaml").data["v"])


def test_enum_of_yes_no_stays_strings() -> None:
    assert load_text("enum: [yes, no, on, off]\n", "s.yaml").data["enum"] == [
        "yes", "no", "on", "off"]


def test_duplicate_key_reported_at_second_key_and_first_kept() -> None:
    f = load_text("a: 1\nb:\n  c: 2\n  c: 3\n", "s.yaml")
    assert f.data["b"]["c"] == 2
    [d] = f.diagnostics
    assert (d.code, d.span.line, d.span.col) == ("TC006", 4, 3)
    assert "line 3" in d.message


def test_non_string_key_is_reported() -> None:
    f = load_text("1: a\nnull: b\n", "s.yaml")
    assert [(d.code, d.span.line) for d in f.diagnostics] == [("TC009", 1), ("TC009", 2)]


def test_anchors_and_aliases_are_allowed() -> None:
    f = load_text("base: &b {type: string}\nx: *b\n", "s.yaml")
    assert f.data["x"] == {"type": "string"}


@pytest.mark.parametrize("tag", ["!!python/object:os.system", "!custom", "!!binary"])
def test_tags_are_refused(tag: str) -> None:
    with pytest.raises(SpecError) as exc:
        load_text(f"a: {tag} x\n", "s.yaml")
    assert codes(exc) == [("TC007", 1, 4)]


def test_second_document_is_refused() -> None:
    with pytest.raises(SpecError) as exc:
        load_text("a: 1\n---\nb: 2\n", "s.yaml")
    assert codes(exc)[0][0] == "TC008"


def test_syntax_error_is_located() -> None:
    with pytest.raises(SpecError) as exc:
        load_text("a: [1\nb: 2\n", "s.yaml")
    assert codes(exc) == [("TC003", 1, 4)]  # the `[` left open, not where YAML noticed it


def test_unknown_alias_is_a_syntax_error() -> None:
    with pytest.raises(SpecError) as exc:
        load_text("a: *nope\n", "s.yaml")
    assert codes(exc)[0][0] == "TC003"


def billion_laughs(levels: int = 9) -> str:
    lines = ['a0: &a0 "lol"']
    for i in range(1, levels + 1):
        refs = ", ".join([f"*a{i - 1}"] * 10)
        lines.append(f"a{i}: &a{i} [{refs}]")
    return "\n".join(lines) + "\n"


def test_alias_bomb_is_refused_as_it_is_read() -> None:
    # Refused at the alias that passes the limit (line 6 of 10, column 45: a5's eighth
    # *a4), before the larger levels are even read: nothing is ever expanded, so it is
    # quick anywhere (expanding it would mean a billion nodes).
    with pytest.raises(SpecError) as exc:
        load_text(billion_laughs(), "bomb.yaml")
    assert codes(exc)[0] == ("TC005", 6, 45)


def test_moderate_aliasing_is_fine() -> None:
    load_text(billion_laughs(3), "ok.yaml")


def test_a_long_file_without_aliases_is_not_an_alias_bomb() -> None:
    # Entries of three nodes each (four with the key), a tenth more nodes than the alias
    # limit, no alias.
    entries = MAX_NODES * 11 // 10 // 3
    text = "".join(f"k{i}: [{i}, x]\n" for i in range(entries))
    data = load_text(text, "long.yaml").data
    assert len(data) == entries and data[f"k{entries - 1}"] == [entries - 1, "x"]


def test_aliases_count_what_they_repeat() -> None:
    # Each alias repeats 1,001 nodes; 100 of them pass the limit at the hundredth.
    items = ", ".join(["0"] * 1000)
    text = f"base: &b [{items}]\n" + "".join(f"r{i}: *b\n" for i in range(100))
    with pytest.raises(SpecError) as exc:
        load_text(text, "many.yaml")
    assert codes(exc)[0][0] == "TC005"


@pytest.mark.parametrize("style", ["flow", "block"])
def test_deep_nesting_is_refused(style: str) -> None:
    depth = 5000 if style == "flow" else 1500  # block indentation grows quadratically
    if style == "flow":
        text = "a: " + "[" * depth + "]" * depth + "\n"
    else:
        text = "".join("  " * i + "k:\n" for i in range(depth)) + "  " * depth + "k: 1\n"
    with pytest.raises(SpecError) as exc:
        load_text(text, "deep.yaml")
    assert codes(exc)[0][0] == "TC004"


def test_nesting_at_the_limit_is_fine() -> None:
    depth = MAX_DEPTH - 1
    load_text("[" * depth + "]" * depth + "\n", "ok.yaml")


def test_huge_file_is_refused_before_parsing() -> None:
    with pytest.raises(SpecError) as exc:
        load_bytes(b"a: " + b"x" * MAX_BYTES + b"\n", "big.yaml")
    assert codes(exc) == [("TC002", 1, 1)]


def test_invalid_utf8_is_located() -> None:
    with pytest.raises(SpecError) as exc:
        load_bytes("a: é\nb: ".encode() + b"\xff\xfe\n", "bad.yaml")
    assert codes(exc) == [("TC001", 2, 4)]


def test_binary_input_is_refused() -> None:
    with pytest.raises(SpecError) as exc:
        load_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "image.toolc.yaml")
    assert codes(exc)[0][0] == "TC001"
    assert "binary" in exc.value.diagnostics[0].message


def test_bom_is_accepted() -> None:
    assert load_bytes(b"\xef\xbb\xbfa: 1\n", "bom.yaml").data == {"a": 1}


def test_control_characters_are_a_syntax_error() -> None:
    with pytest.raises(SpecError) as exc:
        load_text("a: \x07\n", "ctl.yaml")
    assert codes(exc)[0][0] == "TC003"


def test_a_large_file_without_aliases_is_not_an_alias_bomb() -> None:
    # Rows of six nodes each (nine with the keys) under one key, a tenth more nodes than
    # the alias limit.
    count = MAX_NODES * 11 // 10 // 6
    rows = "".join(f"  k{i}: {{a: 1, b: [x, y, z]}}\n" for i in range(count))
    data = load_text("top:\n" + rows, "big.yaml").data
    assert len(data["top"]) == count


@pytest.mark.parametrize("text, code, col", [
    ("n: " + "9" * 5000 + "\n", "TC232", 4),               # a traceback before
    ("n: -" + "1" * 641 + "\n", "TC232", 4),
    ("n: 0x" + "f" * 600 + "\n", "TC232", 4),              # 723 decimal digits
    ("n: !!int " + "7" * 700 + "\n", "TC232", 4),
    ("n: [1, 1e400]\n", "TC232", 8),                       # not silently infinity
    ("n: !!float 1" + "0" * 400 + "\n", "TC232", 4),       # an OverflowError before
])
def test_a_number_the_output_cannot_carry_is_a_located_error(
        text: str, code: str, col: int) -> None:
    with pytest.raises(SpecError) as exc:
        load_text(text, "n.yaml")
    assert codes(exc) == [(code, 1, col)]
    assert len(exc.value.diagnostics[0].message) < 200


def test_large_integers_within_the_bound_are_kept_exact() -> None:
    big = "9" * 640
    data = load_text(f"a: {big}\nb: -{big}\nc: 0x{'f' * 100}\n", "n.yaml").data
    assert data == {"a": int(big), "b": -int(big), "c": int("f" * 100, 16)}


def test_a_link_out_of_the_project_is_not_read(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLC_TEST_SECRET", "hunter2")
    project = tmp_path / "project"
    (project / "specs").mkdir(parents=True)
    link = project / "specs" / "env.toolc.yaml"
    link.symlink_to("/proc/self/environ")
    with pytest.raises(SpecError) as exc:
        load_file(str(link), "specs/env.toolc.yaml", str(project))
    assert codes(exc) == [("TC010", 1, 1)]
    assert "hunter2" not in str(exc.value)


def test_a_link_to_a_file_inside_the_project_is_followed(tmp_path: Path) -> None:
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "real.yaml").write_text("a: 1\n")
    (tmp_path / "specs").mkdir()
    link = tmp_path / "specs" / "a.toolc.yaml"
    link.symlink_to("../shared/real.yaml")
    assert load_file(str(link), "specs/a.toolc.yaml", str(tmp_path)).data == {"a": 1}


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "f.toolc.yaml"
    os.mkfifo(fifo)
    with pytest.raises(SpecError) as exc:
        load_file(str(fifo), "f.toolc.yaml", str(tmp_path))
    assert codes(exc) == [("TC010", 1, 1)]


def test_a_control_character_is_a_located_syntax_error() -> None:
    with pytest.raises(SpecError) as exc:
        load_text("toolc: 1\nmodule: m\n# a\x0cb\n", "c.yaml")
    assert codes(exc) == [("TC003", 3, 4)]
    assert "\n" not in exc.value.diagnostics[0].message


def test_an_unquoted_colon_in_a_value_gets_a_hint_with_the_line_rewritten() -> None:
    with pytest.raises(SpecError) as info:
        load_text("toolc: 1\ndescription: Add a comment to a ticket: public\n", "x.toolc.yaml")
    [d] = info.value.diagnostics
    assert d.code == "TC003" and d.span is not None and (d.span.line, d.span.col) == (2, 39)
    hint = "a `: ` inside an unquoted value starts a mapping: quote the text or use `>`"
    assert d.notes == (hint, 'as in: description: "Add a comment to a ticket: public"')


def test_a_continued_value_is_told_as_indentation_not_rewritten() -> None:
    with pytest.raises(SpecError) as info:
        load_text("a: one\n  two: three\n", "x.toolc.yaml")
    [d] = info.value.diagnostics
    assert d.message.startswith("YAML syntax error: bad indentation: `two` is indented under")
    assert not any(note.startswith("as in:") for note in d.notes)
