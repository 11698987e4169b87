"""`import toolc.adapters` imports no framework; a missing framework names its extra."""

from __future__ import annotations

import subprocess
import sys

import pytest

FRAMEWORKS = ("pydantic_ai", "agents", "langchain_core", "claude_agent_sdk")


def python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)


def test_importing_the_package_imports_no_framework() -> None:
    run = python("import sys, toolc.adapters, toolc.adapters._common\n"
                 f"print([m for m in {FRAMEWORKS!r} if m in sys.modules])")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


@pytest.mark.parametrize(("adapter", "framework", "extra"), [
    ("pydantic_ai", "pydantic_ai", "pydantic-ai"),
    ("openai_agents", "agents", "openai-agents"),
    ("langchain", "langchain_core", "langchain"),
    ("claude_agent_sdk", "claude_agent_sdk", "claude-agent-sdk"),
])
def test_a_missing_framework_names_the_extra_to_install(
    adapter: str, framework: str, extra: str
) -> None:
    # sys.modules[name] = None makes `import name` fail as if it were not installed.
    run = python(f"import sys; sys.modules[{framework!r}] = None\n"
                 f"import toolc.adapters.{adapter}")
    assert run.returncode != 0
    assert f"pip install 'toolc[{extra}]'" in run.stderr
