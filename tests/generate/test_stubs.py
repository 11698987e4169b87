"""Handler stubs read off the generated Protocols, and the module text they are added to."""

from __future__ import annotations

import ast

import pytest
from generate_support import analyse_case, analyse_text
from toolc.generate.stubs import handler_stubs, with_stubs
from toolc.ir import ProjectIR


@pytest.fixture(scope="module")
def workbench() -> ProjectIR:
    return analyse_case("workbench")


def stubs_of(project: ProjectIR, module: str, *tools: str) -> list:  # type: ignore[type-arg]
    return handler_stubs(project.modules[module], project, list(tools), "generated")


def test_a_stub_has_the_protocol_s_parameters_and_the_tool_s_result(workbench: ProjectIR
                                                                    ) -> None:
    text = with_stubs(None, stubs_of(workbench, "workbench", "readLog", "saveNote"), "w.yaml")
    tree = ast.parse(text)
    functions = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    read = functions["read_log"]
    assert [a.arg for a in read.args.args] == ["ctx"]
    assert [(a.arg, ast.unparse(a.annotation)) for a in read.args.kwonlyargs
            if a.annotation is not None] == [("lines", "int"), ("level", "Severity | None")]
    assert read.returns is not None and ast.unparse(read.returns) == "str"
    assert ast.get_docstring(read) == "Return the newest lines of the server log."
    save = functions["save_note"]
    assert save.returns is not None and ast.unparse(save.returns) == "SaveNoteResult"
    assert "    from generated.workbench import SaveNoteResult, Severity\n" in text
    namespace: dict[str, object] = {}
    # run as a module would be: it imports nothing at run time but TYPE_CHECKING
    exec(compile(text, "stubs.py", "exec"), namespace)  # noqa: S102
    with pytest.raises(NotImplementedError, match="tool 'readLog' of spec module"):
        namespace["read_log"](None, lines=1, level=None)  # type: ignore[operator]


@pytest.mark.parametrize(("existing", "head"), [
    ("", ""),
    ('"""Only a docstring."""\n', '"""Only a docstring."""\n'),
    ("from __future__ import annotations\n\nimport os\n\nX = 1\n",
     "from __future__ import annotations\n\nimport os\n"),
])
def test_imports_go_after_the_module_s_own_and_the_stubs_at_its_end(
        workbench: ProjectIR, existing: str, head: str) -> None:
    text = with_stubs(existing, stubs_of(workbench, "workbench", "readLog"), "w.yaml")
    assert text.startswith(head)
    assert text.rstrip().endswith(")")  # the stub's raise closes the module
    assert text.index("if TYPE_CHECKING:") < text.index("def read_log(")
    ast.parse(text)
    quoted = "from __future__ import annotations" not in existing
    assert ('ctx: "RunContext[Any]"' in text) is quoted


def test_names_imported_already_are_not_imported_again(workbench: ProjectIR) -> None:
    existing = ("from __future__ import annotations\n\nfrom typing import TYPE_CHECKING, Any\n"
                "\nfrom toolc.runtime import RunContext\n")
    text = with_stubs(existing, stubs_of(workbench, "workbench", "readLog"), "w.yaml")
    assert text.count("import TYPE_CHECKING") == 1 and text.count("RunContext\n") == 1
    assert "if TYPE_CHECKING:\n    from generated.workbench import Severity\n" in text


def test_a_tool_with_a_ctx_parameter_gets_a_stub_that_takes_both() -> None:
    """The spec's `ctx` is the handler's keyword `ctx` (issue 25, item 6): the stub's context
    takes the Protocol's other name, positional only, and the stub is valid Python."""
    project = analyse_text("toolc: 1\nmodule: n\ntools:\n  t:\n    description: T.\n"
                           "    handler: n_app:t\n    params:\n"
                           "      ctx: {type: string, description: The ctx.}\n"
                           "      model_dump_x: {type: string, description: X.}\n")
    text = with_stubs(None, stubs_of(project, "n", "t"), "n.yaml")
    [function] = [f for f in ast.parse(text).body if isinstance(f, ast.FunctionDef)]
    assert [a.arg for a in function.args.posonlyargs] == ["_ctx"]
    assert [a.arg for a in function.args.kwonlyargs] == ["ctx", "model_dump_x"]
    namespace: dict[str, object] = {}
    exec(compile(text, "stubs.py", "exec"), namespace)  # noqa: S102
    with pytest.raises(NotImplementedError, match="tool 't' of spec module 'n'"):
        namespace["t"](None, ctx="c", model_dump_x="x")  # type: ignore[operator]
