"""Properties of the formatter over the bundled specs, the valid fixtures and generated
variations: fmt of fmt is fmt, the layout depends only on the data (and the comments),
and what a spec means never changes (``format_text`` reads its result back and raises
``FormatBug`` otherwise; here the data is compared again, independently)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

sys.path.insert(0, str(Path(__file__).parent))

from toolc.formatting import format_text
from toolc.formatting.comments import comment_texts
from toolc.formatting.meaning import first_difference
from toolc.formatting.order import reordered
from toolc.importer.yamlout import dump
from toolc.loader import load_text
from variations import DATA, written

ROOT = Path(__file__).resolve().parents[2]
SPECS = sorted([*ROOT.glob("specs/*.toolc.yaml"),
                *ROOT.glob("tests/fixtures/valid/*/*.toolc.yaml")])
assert len(SPECS) >= 9


def data_of(text: str) -> Any:
    loaded = load_text(text, "spec.toolc.yaml")
    assert not loaded.diagnostics
    return loaded.data


def plain(data: Any) -> Any:
    """Loaded data as plain dicts and lists (what yamlout and the variations take)."""
    if isinstance(data, dict):
        return {k: plain(v) for k, v in data.items()}
    if isinstance(data, list):
        return [plain(v) for v in data]
    return data


@pytest.mark.parametrize("path", SPECS, ids=lambda p: str(p.relative_to(ROOT)))
def test_formatting_a_spec_twice_changes_nothing_more(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    once = format_text(text)
    assert format_text(once) == once
    assert first_difference(reordered(data_of(text)), data_of(once)) is None
    assert sorted(comment_texts(once)) == sorted(comment_texts(text))


@pytest.mark.parametrize("path", SPECS, ids=lambda p: str(p.relative_to(ROOT)))
@settings(max_examples=examples(15))
@given(data=st.data())
def test_any_layout_of_a_spec_formats_to_the_same_text(path: Path, data: st.DataObject
                                                      ) -> None:
    """Written in any layout without comments, a spec formats to one text: the layout is
    canonical (a block scalar is the only style kept, and the variations write text with
    line breaks as a block or quoted, as the formatter itself would)."""
    spec = plain(data_of(path.read_text(encoding="utf-8")))
    canonical = format_text(dump(spec))
    variation = data.draw(written(spec, comments=False))
    assert first_difference(spec, data_of(variation)) is None  # the variation is the spec
    assert format_text(variation) == canonical


@pytest.mark.parametrize("path", SPECS, ids=lambda p: str(p.relative_to(ROOT)))
@settings(max_examples=examples(15))
@given(data=st.data())
def test_a_spec_with_comments_anywhere_formats_idempotently(path: Path,
                                                           data: st.DataObject) -> None:
    spec = plain(data_of(path.read_text(encoding="utf-8")))
    variation = data.draw(written(spec))
    check_formatting(variation)


@settings(max_examples=examples(300))
@given(data=st.data(), document=DATA)
def test_any_data_in_any_layout_formats_idempotently_and_keeps_its_meaning(
        data: st.DataObject, document: dict[str, Any]) -> None:
    variation = data.draw(written(document))
    assert first_difference(document, data_of(variation)) is None
    check_formatting(variation)


@settings(max_examples=examples(200))
@given(data=st.data(), document=DATA)
def test_any_data_formats_to_one_text_whatever_its_layout(data: st.DataObject,
                                                          document: dict[str, Any]) -> None:
    first = data.draw(written(document, comments=False))
    second = data.draw(written(document, comments=False))
    assert format_text(first) == format_text(second)


def check_formatting(text: str) -> None:
    once = format_text(text)
    assert format_text(once) == once
    assert first_difference(reordered(data_of(text)), data_of(once)) is None
    assert sorted(comment_texts(once)) == sorted(comment_texts(text))
