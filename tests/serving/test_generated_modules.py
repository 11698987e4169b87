"""One code path (toolc.serving.generated_modules): a served spec runs the module that
`import generated.<module>` gives, so a handler's own imports of the generated classes
are the classes its arguments have. Served by path, by module name and in process,
through real MCP clients; and a stale `generated/` served fresh under its real name."""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import anyio
import pytest
from forkserver_support import python_args
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from toolc import runtime as rt
from toolc.config import load_config
from toolc.serving.targets import open_target

sys.path.insert(0, str(Path(__file__).parents[1]))

from project_support import build_in_process, make_project
from serve_support import http_server

SPEC = """\
toolc: 1
module: clinic
types:
  Slot:
    description: A free appointment slot.
    type: object
    properties:
      vet: {type: string, description: The vet.}
      at: {type: string, description: When it starts.}
tools:
  book:
    description: Book a slot.
    handler: clinic_tools:book
    params:
      slot: {type: Slot, description: The slot to book.}
      reason:
        description: Why the visit.
        oneOf:
          - type: object
            description: A yearly checkup.
            properties:
              kind: {const: checkup, description: The kind of visit.}
          - type: object
            description: An injury.
            properties:
              kind: {const: injury, description: The kind of visit.}
              where: {type: string, description: Where it hurts.}
toolsets:
  main: {kind: function, tools: [book]}
export: main
"""

# What the handler sees, said by the handler itself (it runs in the serving process).
HANDLERS = """\
import json

import generated.clinic as clinic


def book(ctx, slot, reason, **more):
    branch = getattr(clinic, type(reason).__name__, None)
    return json.dumps({
        "module": type(slot).__module__,
        "slot": type(slot) is clinic.Slot and isinstance(slot, clinic.Slot),
        "reason": branch is not None and type(reason) is branch and isinstance(reason, branch),
        "params": type(reason).__module__ == clinic.BookParams.__module__,
        "more": sorted(more),
    })
"""

ARGS = {"slot": {"vet": "ng", "at": "2026-12-01T09:30"},
        "reason": {"kind": "injury", "where": "paw"}}
SEEN = {"module": "generated.clinic", "slot": True, "reason": True, "params": True,
        "more": []}

@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The clinic project, built once (in this process: the build is not what is tested)."""
    root = make_project(tmp_path_factory.mktemp("clinic"), {"clinic": SPEC},
                        output="generated", python_path=["."],
                        files={"clinic_tools.py": HANDLERS})
    run = build_in_process(root, "--write", "--no-certify")
    assert run.exit_code == 0, run.output
    return root


@pytest.fixture
def clinic(built: Path, tmp_path: Path) -> Path:
    """A copy of the built clinic of this test's own, which it may change."""
    return Path(shutil.copytree(built, tmp_path / "clinic"))


async def _seen(target: Any, args: dict[str, Any]) -> dict[str, Any]:
    async with Client(target) as client:
        result = await client.call_tool("book", args)
    assert not result.is_error, result.content
    seen: dict[str, Any] = json.loads(result.content[0].text)
    return seen


def served(project: Path, target: str, args: dict[str, Any] = ARGS) -> dict[str, Any]:
    """What the handler saw, served by `toolc serve TARGET` over stdio."""
    params = StdioServerParameters(command=sys.executable,
                                   args=python_args("-m", "toolc", "serve", target),
                                   cwd=str(project), env=dict(os.environ))
    return anyio.run(_seen, params, args)


@pytest.mark.parametrize("target", ["specs/clinic.toolc.yaml", "clinic", "generated.clinic"])
def test_a_handler_sees_the_generated_classes_however_it_is_served(clinic: Path,
                                                                    target: str) -> None:
    assert served(clinic, target) == SEEN


def test_served_stateless_over_http_the_handler_sees_the_same(clinic: Path) -> None:
    """--stateless serves each request on its own: still the one generated module."""
    with http_server(clinic, "--stateless", spec="specs/clinic.toolc.yaml") as server:
        assert anyio.run(_seen, server.url, ARGS) == SEEN


def test_in_process_the_handler_sees_the_same(clinic: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """`import generated.clinic` as an application does, served by the runtime here."""
    with imported(clinic, "generated.clinic", monkeypatch) as module:
        assert anyio.run(_seen, rt.to_mcp_server(module.toolset), ARGS) == SEEN


@contextlib.contextmanager
def imported(root: Path, name: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """Module ``name`` imported from ``root`` (its python path), as a process of the
    project's would: the modules of this process under the project's names (the
    repository's own ``generated``) set aside meanwhile, and back afterwards."""
    own = {p.stem for p in root.iterdir() if p.suffix == ".py" or p.is_dir()}
    for held in [m for m in sys.modules if m.partition(".")[0] in own]:
        monkeypatch.delitem(sys.modules, held)  # (put back when the test ends)
    monkeypatch.syspath_prepend(str(root))
    try:
        yield importlib.import_module(name)
    finally:
        for loaded in [m for m in sys.modules if m.partition(".")[0] in own]:
            del sys.modules[loaded]


def test_a_stale_module_is_served_fresh_under_its_real_name(clinic: Path) -> None:
    before = (clinic / "generated" / "clinic.py").read_text()
    spec = clinic / "specs" / "clinic.toolc.yaml"
    spec.write_text(SPEC.replace("      slot: {type: Slot", "      note: {type: string, "
                                 "description: For the vet., required: false}\n"
                                 "      slot: {type: Slot"))
    seen = served(clinic, "specs/clinic.toolc.yaml", {**ARGS, "note": "limps"})
    assert seen == {**SEEN, "more": ["note"]}  # the spec as it is now, as generated.clinic
    assert (clinic / "generated" / "clinic.py").read_text() == before  # build writes it


def test_an_open_target_sets_other_projects_modules_aside(clinic: Path) -> None:
    """In this process another `generated` (the repository's) may be imported: while the
    clinic is open, `generated` is the clinic's; afterwards the other one is back."""
    from generated import workbench  # the repository's own

    (clinic / "specs" / "clinic.toolc.yaml").write_text(SPEC.replace("Book a slot.",
                                                                     "Book a free slot."))
    config = load_config(clinic)
    with open_target(config, str(clinic / "specs" / "clinic.toolc.yaml"), None,
                     io.StringIO()) as chosen:
        assert chosen.module is sys.modules["generated.clinic"]
        assert sys.modules["generated"].__path__ == [str(clinic / "generated")]
        assert "generated.workbench" not in sys.modules
        assert chosen.module.__doc__ is None and "Book a free slot." in \
            chosen.module._tool_Book().description  # the fresh build, not the file
    assert sys.modules["generated.workbench"] is workbench
    assert "generated.clinic" not in sys.modules
    assert Path(sys.modules["generated"].__file__ or "").parent == Path(workbench.__file__
                                                                        ).parent


def test_a_traceback_shows_the_fresh_source(clinic: Path) -> None:
    import linecache

    (clinic / "specs" / "clinic.toolc.yaml").write_text(SPEC.replace("Book a slot.",
                                                                     "Book a free slot."))
    with open_target(load_config(clinic), str(clinic / "specs" / "clinic.toolc.yaml"),
                     None, io.StringIO()) as chosen:
        code = chosen.module._tool_Book.__code__
        assert "fresh build of generated.clinic" in code.co_filename
        text = "".join(linecache.getlines(code.co_filename))
        assert "Book a free slot." in text
    assert text.startswith("# Generated by toolc")
