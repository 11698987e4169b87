"""Helpers of the generator tests (importable: conftest puts this folder on sys.path).

A case is a folder of ``tests/fixtures/valid/<case>/``: its ``*.toolc.yaml`` specs and, in
``expected/``, the files ``generate_project`` must give for them, compared in full. To
regenerate the expected files after a deliberate change of the generator:

    TOOLC_REGEN=1 .venv/bin/python -m pytest tests/generate -q
"""

from __future__ import annotations

import sys
from pathlib import Path

from toolc.diagnostics import DiagnosticBag, Severity
from toolc.frontend import analyse
from toolc.ir import ProjectIR
from toolc.loader import load_file

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
if str(TESTS) not in sys.path:  # shared helpers of the tests: schema_instances
    sys.path.insert(0, str(TESTS))
FIXTURES = TESTS / "fixtures" / "valid"
TYPING = TESTS / "typing"
CASES = sorted(p.name for p in FIXTURES.iterdir() if any(p.glob("*.toolc.yaml")))


def analyse_case(case: str) -> ProjectIR:
    """spec -> the front end -> IR, exactly as ``toolc build`` does it."""
    folder = FIXTURES / case
    files = [load_file(str(p), p.name) for p in sorted(folder.glob("*.toolc.yaml"))]
    bag = DiagnosticBag()
    project = analyse(files, bag)
    errors = [str(d) for d in bag if d.severity >= Severity.ERROR]
    assert project is not None and not errors, errors
    return project


def analyse_text(text: str, path: str = "spec.toolc.yaml") -> ProjectIR:
    """One spec given as text -> IR."""
    from toolc.loader import load_text

    bag = DiagnosticBag()
    project = analyse([load_text(text, path)], bag)
    assert project is not None, [str(d) for d in bag]
    return project


SYNTHETIC_TOOL = """toolc: 1
module: big
description: A synthetic module, as issue 6's benchmark describes its tools.
tools:
  tool0:
    description: Synthetic tool number 0.
    handler: big_app.tools:handle
    params:
      count: {type: integer, description: How many., minimum: 1, maximum: 100, default: 10}
      name: {type: string, description: A name., maxLength: 64}
      mode: {description: The mode., enum: [fast, slow, auto]}
      ratio: {type: number, description: A ratio., minimum: 0, maximum: 1, required: false}
      target:
        type: object
        description: Where to.
        properties:
          host: {type: string, description: Host name.}
          port: {type: integer, description: The port., minimum: 1, maximum: 65535}
"""


def synthetic_project(tools: int) -> ProjectIR:
    """One module of ``tools`` tools of five parameters (descriptions, an enum, bounds, a
    nested object): the front end's IR of one such tool, repeated under other names."""
    import dataclasses

    from toolc.generate.names import allocate_names
    from toolc.loader import load_text

    bag = DiagnosticBag()
    project = analyse([load_text(SYNTHETIC_TOOL, "big.toolc.yaml")], bag)
    assert project is not None, [str(d) for d in bag]
    module = project.modules["big"]
    template = module.tools["tool0"]
    many = {f"tool{i}": dataclasses.replace(template, name=f"tool{i}",
                                            description=f"Synthetic tool number {i}.")
            for i in range(tools)}
    export = dataclasses.replace(module.toolsets[module.export], tools=tuple(many))
    big = dataclasses.replace(module, tools=many, toolsets={module.export: export})
    # New tools need identifiers: allocated as resolve does for a module it resolves.
    return ProjectIR({"big": dataclasses.replace(big, python_names=allocate_names(big))})
