"""What `toolc serve` serves (toolc.serving.targets): a spec or a generated module, the
toolset picked from it, and the errors that list what could be served instead; through
the real `toolc serve` subprocess."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import anyio
import pytest
from click.testing import CliRunner
from forkserver_support import python_args
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from toolc.cli import main

sys.path.insert(0, str(Path(__file__).parents[1]))

from project_support import DESK_SPEC, build_in_process, desk_project, make_project
from serve_support import refused_start


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return desk_project(tmp_path)


def test_bad_targets_are_clear_errors(project: Path) -> None:
    code, err = refused_start(project, "specs/nope.toolc.yaml")
    assert code == 2 and "no such spec" in err
    code, err = refused_start(project, "specs/desk.toolc.yaml", "--toolset", "nope")
    assert code == 2 and "has no toolset 'nope'" in err
    typo = DESK_SPEC.replace("description: Always", "descripton: Always")
    (project / "specs" / "desk.toolc.yaml").write_text(typo)
    code, err = refused_start(project, "specs/desk.toolc.yaml")
    assert code == 1
    assert "error[TC101]" in err
    assert err.splitlines()[-1] == "error: the specs have errors"
    assert "Traceback" not in err


SUPPORT_DESK_SPEC = """\
toolc: 1
module: support_desk
tools:
  lookup:
    description: Look a ticket up.
    handler: support_desk.tools:lookup
    params:
      ticket: {type: string, description: The ticket's id.}
  assign:
    description: Assign a ticket.
    handler: support_desk.tools:assign
    params:
      ticket: {type: string, description: The ticket's id.}
toolsets:
  readOnly: {kind: function, tools: [lookup]}
  everything: {kind: function, tools: [lookup, assign]}
export: everything
"""


@pytest.fixture(scope="module")
def desk(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project whose handler package has the spec module's name, built (in this
    process: the build is not what is tested). The tests only serve it, from wherever;
    none changes it."""
    root = make_project(tmp_path_factory.mktemp("desk"), {"support_desk": SUPPORT_DESK_SPEC},
                        output="generated", python_path=["."], files={
                            "support_desk/__init__.py": "",
                            "support_desk/tools.py": "def lookup(ctx, ticket):\n    return "
                            "ticket\n\ndef assign(ctx, ticket):\n    return ticket\n"})
    run = build_in_process(root, "--write", "--no-certify")
    assert run.exit_code == 0, run.output
    return root


def listed(cwd: Path, *args: str) -> list[str]:
    async def names() -> list[str]:
        params = StdioServerParameters(command=sys.executable,
                                       args=python_args("-m", "toolc", "serve", *args),
                                       cwd=str(cwd), env=dict(os.environ))
        async with Client(params) as client:
            return [t.name for t in (await client.list_tools()).tools]
    return anyio.run(names)


def test_a_bare_module_name_is_the_generated_module_not_the_handler_package(
        desk: Path) -> None:
    assert listed(desk, "support_desk") == ["lookup", "assign"]
    assert listed(desk, "generated.support_desk", "--toolset", "readOnly") == ["lookup"]


def test_a_spec_is_served_from_another_folder_with_any_declared_toolset(
        desk: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    spec = str(desk / "specs" / "support_desk.toolc.yaml")
    assert listed(elsewhere, spec, "--toolset", "readOnly") == ["lookup"]
    assert listed(desk, "support_desk", "--toolset", "readOnly") == ["lookup"]


def test_serve_errors_list_what_is_available(desk: Path) -> None:
    def fails(*args: str) -> str:
        code, err = refused_start(desk, *args)
        assert code == 2 and "Traceback" not in err, err
        return err

    err = fails("support_desk", "--toolset", "nope")
    assert "has no toolset 'nope' (toolsets: everything, readOnly)" in err
    err = fails("specs/support_desk.toolc.yaml", "--toolset", "nope")
    assert "(toolsets: everything, readOnly)" in err
    err = fails("support_desks")
    assert "cannot import support_desks" in err
    assert "specs: specs/support_desk.toolc.yaml" in err
    assert "generated modules: generated.support_desk" in err
    err = fails("support_desk.tools")
    assert "no exported toolset (it is not a module toolc generated)" in err
    assert "generated modules: generated.support_desk" in err
    helped = CliRunner().invoke(main, ["serve", "--help"], catch_exceptions=False)
    assert helped.exit_code == 0
    assert "SPEC_OR_MODULE is one of" in helped.stdout
    assert "generated.x" in helped.stdout and "before any package named x" in helped.stdout
