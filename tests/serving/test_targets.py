"""What `toolc serve` serves (toolc.serving.targets): a spec or a generated module, the
toolset picked from it, and the errors that list what could be served instead; through
the real `toolc serve` subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

sys.path.insert(0, str(Path(__file__).parents[1]))

from serve_support import SPEC, make_project, toolc_cmd


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path)


def test_bad_targets_are_clear_errors(project: Path) -> None:
    missing = subprocess.run(toolc_cmd("serve", "specs/nope.toolc.yaml"), cwd=project,
                             capture_output=True, text=True, timeout=300, check=False)
    assert missing.returncode == 2 and "no such spec" in missing.stderr
    wrong = subprocess.run(toolc_cmd("serve", "specs/desk.toolc.yaml", "--toolset", "nope"),
                           cwd=project, capture_output=True, text=True, timeout=300, check=False)
    assert wrong.returncode == 2 and "has no toolset 'nope'" in wrong.stderr
    typo = SPEC.replace("description: Always", "descripton: Always")
    (project / "specs" / "desk.toolc.yaml").write_text(typo)
    broken = subprocess.run(toolc_cmd("serve", "specs/desk.toolc.yaml"), cwd=project,
                            capture_output=True, text=True, timeout=300, check=False)
    assert broken.returncode == 1
    assert "error[TC101]" in broken.stderr
    assert broken.stderr.splitlines()[-1] == "error: the specs have errors"
    assert "Traceback" not in broken.stderr


DESK_SPEC = """\
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


@pytest.fixture
def desk(tmp_path: Path) -> Path:
    """A project whose handler package has the spec module's name, built."""
    root = tmp_path / "desk"
    (root / "specs").mkdir(parents=True)
    (root / "pyproject.toml").write_text(
        '[tool.toolc]\nspecs = "specs"\noutput = "generated"\npython-path = ["."]\n')
    (root / "specs" / "support_desk.toolc.yaml").write_text(DESK_SPEC)
    (root / "support_desk").mkdir()
    (root / "support_desk" / "__init__.py").write_text("")
    (root / "support_desk" / "tools.py").write_text(
        "def lookup(ctx, ticket):\n    return ticket\n\n"
        "def assign(ctx, ticket):\n    return ticket\n")
    built = subprocess.run(toolc_cmd("build", "--no-certify"), cwd=root, capture_output=True,
                           text=True, timeout=120, check=False,
                           env={k: v for k, v in os.environ.items() if k != "CI"})
    assert built.returncode == 0, built.stdout + built.stderr
    return root


def listed(cwd: Path, *args: str) -> list[str]:
    async def names() -> list[str]:
        params = StdioServerParameters(command=sys.executable,
                                       args=["-m", "toolc", "serve", *args],
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
        proc = subprocess.run(toolc_cmd("serve", *args), cwd=desk, capture_output=True,
                              text=True, timeout=60, check=False)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
        return proc.stderr

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
    helped = subprocess.run(toolc_cmd("serve", "--help"), capture_output=True, text=True,
                            timeout=60, check=False)
    assert "SPEC_OR_MODULE is one of" in helped.stdout
    assert "generated.x" in helped.stdout and "before any package named x" in helped.stdout
