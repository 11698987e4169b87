"""The front end end to end: every bad spec in tests/fixtures/invalid/ and its exact diagnostics.

Each folder of ``tests/fixtures/invalid/`` holds one bad spec (several files where a case
spans modules; handler modules in ``handlers/``, the case's python-path) and ``expected.txt``: the text diagnostics ``toolc`` prints for it, paths
relative to the folder, compared in full. To regenerate them after an intended change,
run ``TOOLC_REGEN=1 .venv/bin/python -m pytest tests/test_frontend.py`` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples
from toolc.diagnostics import RULES, DiagnosticBag, Severity, SpecError
from toolc.frontend import analyse
from toolc.ir import ProjectIR
from toolc.loader import LoadedFile, load_file, load_text
from toolc.report.text import diagnostics_text

INVALID = Path(__file__).parent / "fixtures" / "invalid"
CASES = sorted(p.name for p in INVALID.iterdir() if p.is_dir())
REGEN = bool(os.environ.get("TOOLC_REGEN"))


def run_case(folder: Path) -> tuple[str, DiagnosticBag, ProjectIR | None]:
    """Load and analyse every spec of ``folder`` as the build does; render what it reports."""
    bag = DiagnosticBag()
    loaded: list[LoadedFile] = []
    sources: dict[str, str] = {}
    unread: dict[str, str] = {}
    for path in sorted(folder.glob("*.toolc.yaml")):
        if not path.is_symlink():  # a link out of the folder is not to be read (TC010)
            sources[path.name] = path.read_bytes().decode("utf-8", "replace")
        try:
            loaded.append(load_file(str(path), path.name, str(folder)))
        except SpecError as exc:  # the loader refuses the whole file
            bag.extend(exc.diagnostics)
            unread[path.name] = sources.get(path.name, "")
    # a case's own handler modules, in ``handlers/``, are its python-path
    handlers = folder / "handlers"
    ir = analyse(loaded, bag, python_path=(handlers,) if handlers.is_dir() else (),
                 unread=unread)
    return diagnostics_text(bag.sorted(), sources) + "\n", bag, ir


@pytest.mark.parametrize("case", CASES)
def test_invalid_spec_reports_exactly_the_expected_diagnostics(case: str) -> None:
    folder = INVALID / case
    text, bag, ir = run_case(folder)
    expected = folder / "expected.txt"
    if REGEN:
        expected.write_text(text, encoding="utf-8")
    assert text == expected.read_text(encoding="utf-8")
    code = case.split("-")[0]
    assert code not in RULES or any(d.code == code for d in bag), f"{case} lacks {code}"
    assert all(d.span is not None and d.span.line >= 1 and d.span.col >= 1 for d in bag)
    assert (ir is None) == bag.has_errors


def test_every_front_end_rule_has_a_fixture() -> None:
    covered = {case.split("-")[0] for case in CASES}
    front_end = {code for code in RULES if code < "TC500"}
    assert front_end - covered - {"TC002"} == set()  # a 10 MiB fixture is tested in test_loader


def test_analyse_reports_loader_diagnostics_of_each_file() -> None:
    f = load_text("toolc: 1\nmodule: a\nmodule: b\n", "a.toolc.yaml")
    bag = DiagnosticBag()
    assert analyse([f], bag) is None
    assert [(d.code, d.span.line) for d in bag if d.span] == [("TC006", 3)]


def test_analyse_returns_ir_when_only_warnings() -> None:
    f = load_text("toolc: 1\nmodule: a\ntools:\n  read.log:\n    description: Read.\n"
                  "    handler: app.tools:read\n", "a.toolc.yaml")
    bag = DiagnosticBag()
    ir = analyse([f], bag)
    assert [d.code for d in bag] == ["TC302"]
    assert ir is not None and [t.name for t in ir.modules["a"].exported_tools] == ["read.log"]


def test_configured_severity_turns_an_error_into_a_warning() -> None:
    f = load_text("toolc: 1\nmodule: a\ntools:\n  t:\n    handler: app.tools:t\n", "a.toolc.yaml")
    bag = DiagnosticBag(severities={"TC201": Severity.WARNING})
    ir = analyse([f], bag)
    assert [(d.code, d.severity) for d in bag] == [("TC201", Severity.WARNING)]
    assert ir is not None


@pytest.mark.parametrize("text", ["", "[1, 2]", "42", "toolc: 1\nmodule: a\ntools: 5\n",
                                  "toolc: 1\nmodule: a\ntools: {t: [1]}\ntoolsets: {s: 3}\n",
                                  "toolc: 1\nmodule: a\ntypes: {T: 5}\ntools: {t: {params: 4}}\n"])
def test_nonsense_gives_located_errors_not_tracebacks(text: str) -> None:
    bag = DiagnosticBag()
    assert analyse([load_text(text, "x.toolc.yaml")], bag) is None
    assert bag.has_errors
    assert all(d.span is not None and d.span.line >= 1 for d in bag)


# -- never a traceback: random, structured and mutated input ----------------------------------

VALID = sorted((Path(__file__).parent / "fixtures" / "resolve").rglob("*.toolc.yaml"))
SEEDS = VALID + [p for p in sorted(INVALID.rglob("*.toolc.yaml"))
                 if not p.is_symlink() and b"\x00" not in p.read_bytes()]
VOCABULARY = [
    "toolc", "module", "description", "types", "tools", "toolsets", "export", "kind", "inner",
    "prefix", "names", "tools", "params", "returns", "handler", "type", "properties", "items",
    "required", "nullable", "default", "enum", "anyOf", "$ref", "$defs", "minimum", "function",
    "combined", "prefixed", "renamed", "external", "mcp", "mcp_manager", "stdio", "http",
    "input_schema", "servers", "conflicts", "last_wins", "object", "string", "integer", "true",
    "null", "1", "[]", "{}", "-", ":", "a.b", "x.y:z", "m.T", "Node", "yes",
]
SETTINGS = settings(max_examples=int(os.environ.get("TOOLC_FUZZ_EXAMPLES") or examples(150)),
                    deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _analyse_text(text: str) -> None:
    """Load and analyse ``text``; only the loader may refuse it, and only with a SpecError."""
    try:
        loaded = load_text(text, "fuzz.toolc.yaml")
    except SpecError:
        return
    bag = DiagnosticBag()
    ir = analyse([loaded, load_text(VALID[0].read_text(), "base.toolc.yaml")], bag)
    lines = max(1, len(text.splitlines()) + 1)
    for d in bag:
        assert d.code in RULES
        assert d.span is not None and d.span.line >= 1 and d.span.col >= 1, d
        if d.span.path == "fuzz.toolc.yaml":
            assert d.span.line <= lines, d
    assert (ir is None) == bag.has_errors


@SETTINGS
@given(st.text(alphabet=st.sampled_from(list("abc:-[]{},'\"#&*!|>\n\t 0123.")), max_size=200))
def test_random_text_never_raises(text: str) -> None:
    _analyse_text(text)


_scalars = st.one_of(st.sampled_from(VOCABULARY), st.integers(-3, 3), st.booleans(), st.none(),
                     st.floats(allow_nan=True, allow_infinity=True))
_keys = st.sampled_from(VOCABULARY)
_trees = st.recursive(_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(_keys, inner, max_size=5)), max_leaves=40)


@SETTINGS
@given(st.dictionaries(_keys, _trees, max_size=8))
def test_random_structures_never_raise(data: dict[str, object]) -> None:
    import json

    _analyse_text(json.dumps({"toolc": 1, "module": "fuzz", **data}))


@SETTINGS
@given(st.sampled_from(SEEDS), st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 3),
                                                    st.sampled_from(VOCABULARY)), min_size=1,
                                          max_size=4))
def test_mutated_specs_never_raise(path: Path, edits: list[tuple[int, int, str]]) -> None:
    lines = path.read_text(encoding="utf-8").splitlines() or [""]
    for where, how, token in edits:
        i = where % len(lines)
        if how == 0:
            del lines[i]
        elif how == 1:
            lines.insert(i, lines[i])
        elif how == 2:
            words = lines[i].split(" ")
            words[where % len(words)] = token
            lines[i] = " ".join(words)
        else:
            lines[i] = lines[i][1:] if lines[i].startswith(" ") else "  " + lines[i]
        if not lines:
            lines = [""]
    _analyse_text("\n".join(lines) + "\n")
