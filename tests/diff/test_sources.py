"""Loading tool sets from folders and, through a real git repository, from refs."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from toolc.diff import (
    DiffInputError,
    ToolSet,
    diff_tools,
    golden_text,
    line_of,
    load_folder,
    load_git,
    pointer_lines,
)


def write_tool(root: Path, relative: str, tool: dict[str, Any]) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(golden_text(tool), encoding="utf-8")


def tool(name: str, **props: Any) -> dict[str, Any]:
    return {"name": name, "description": f"{name}.",
            "inputSchema": {"type": "object", "properties": props, "additionalProperties": False}}


# -- folders ---------------------------------------------------------------------------

def test_folder_loads_every_json_at_any_depth_by_folder_and_name(tmp_path: Path) -> None:
    write_tool(tmp_path, "a/one.json", tool("first"))
    write_tool(tmp_path, "b/c/d/two.json", tool("second"))
    write_tool(tmp_path, "top.json", tool("third"))
    write_tool(tmp_path, ".cache/skip.json", tool("hidden"))
    write_tool(tmp_path, "a/.dot.json", tool(".dot"))  # a file is read whatever its name
    (tmp_path / "notes.txt").write_text("not a tool")
    tools = load_folder(tmp_path)
    assert sorted(tools) == ["a/.dot", "a/first", "b/c/d/second", "third"]
    assert tools.paths == {"a/first": "a/one.json", "b/c/d/second": "b/c/d/two.json",
                           "third": "top.json", "a/.dot": "a/.dot.json"}
    assert tools.texts["a/first"] == golden_text(tool("first"))
    assert tools["a/first"]["name"] == "first"  # the published tool itself is unchanged


def test_two_modules_may_each_export_a_tool_of_one_name(tmp_path: Path) -> None:
    write_tool(tmp_path, "workbench/readLog.json", tool("readLog"))
    write_tool(tmp_path, "showcase/readLog.json", tool("readLog", extra={"type": "string"}))
    tools = load_folder(tmp_path)
    assert sorted(tools) == ["showcase/readLog", "workbench/readLog"]
    assert tools["showcase/readLog"] != tools["workbench/readLog"]
    assert tools.paths["showcase/readLog"] == "showcase/readLog.json"


@pytest.mark.parametrize(("text", "message"), [
    ('{"name": "x",,}', r"bad\.json:1:14: not valid JSON: Expecting property name"),
    ("[1, 2]", r"bad\.json: a tool file holds one JSON object, found list"),
    ('{"description": "no name"}', r"bad\.json: no \"name\" field"),
    ('{"name": "x", "n": NaN}', r"bad\.json: not valid JSON: NaN is not a JSON value"),
])
def test_bad_tool_files_are_named_in_the_error(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "bad.json").write_text(text, encoding="utf-8")
    with pytest.raises(DiffInputError, match=message):
        load_folder(tmp_path)


def test_two_files_for_one_tool_and_missing_folders_are_errors(tmp_path: Path) -> None:
    write_tool(tmp_path, "a/x.json", tool("same"))
    write_tool(tmp_path, "a/y.json", tool("same"))
    with pytest.raises(DiffInputError,
                       match=r"a/y\.json: tool 'a/same' is already defined by a/x\.json"):
        load_folder(tmp_path)
    (tmp_path / "a" / "y.json").unlink()
    write_tool(tmp_path, "b/x.json", tool("same"))  # another module: another tool
    assert sorted(load_folder(tmp_path)) == ["a/same", "b/same"]
    with pytest.raises(DiffInputError, match="no such folder"):
        load_folder(tmp_path / "missing")
    with pytest.raises(DiffInputError, match="not a folder"):
        load_folder(tmp_path / "a" / "x.json")
    (tmp_path / "b" / "x.json").unlink()
    (tmp_path / "latin.json").write_bytes(b'{"name": "\xe9"}')
    with pytest.raises(DiffInputError, match=r"latin\.json: not UTF-8 text"):
        load_folder(tmp_path)


def _written(root: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text, encoding="utf-8")
    return root


# -- git -------------------------------------------------------------------------------

GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
           "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                   env={**os.environ, **GIT_ENV})


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """v1 (tagged) has readLog and oldTool; HEAD drops oldTool and a property, adds newTool;
    the working tree then changes again without committing."""
    git(tmp_path, "init", "-q", "-b", "main")
    golden = tmp_path / "generated" / "schemas"
    level = {"type": "string", "description": "Level."}
    write_tool(golden, "workbench/readLog.json", tool("readLog", level=level, lines=level))
    write_tool(golden, "workbench/oldTool.json", tool("oldTool"))
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "v1")
    git(tmp_path, "tag", "v1")
    write_tool(golden, "workbench/readLog.json", tool("readLog", lines=level))
    (golden / "workbench" / "oldTool.json").unlink()
    write_tool(golden, "other/newTool.json", tool("newTool"))
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "v2")
    write_tool(golden, "workbench/readLog.json", tool("readLog"))  # uncommitted
    return tmp_path


def test_git_reads_golden_files_of_any_ref_without_checkout(repo: Path) -> None:
    v1 = load_git("v1", repo=repo)
    head = load_git("HEAD", repo=repo)
    assert sorted(v1) == ["workbench/oldTool", "workbench/readLog"]
    assert sorted(head) == ["other/newTool", "workbench/readLog"]
    assert load_git("HEAD~1", repo=repo) == v1
    assert head.paths["other/newTool"] == "other/newTool.json"
    assert head.texts["other/newTool"] == golden_text(tool("newTool"))
    assert "level" not in head["workbench/readLog"]["inputSchema"]["properties"]
    # not the working tree:
    assert "lines" in head["workbench/readLog"]["inputSchema"]["properties"]
    changes = diff_tools(v1, head)
    assert [(c.tool, c.rule, c.pointer) for c in changes] == [
        ("other/newTool", "TOOL_ADDED", ""), ("workbench/oldTool", "TOOL_REMOVED", ""),
        ("workbench/readLog", "PROPERTY_REMOVED", "/inputSchema/properties/level")]
    working = load_folder(repo / "generated" / "schemas")
    assert [c.pointer for c in diff_tools(head, working)] == ["/inputSchema/properties/lines"]


def test_git_folder_is_relative_to_repo_and_must_exist(repo: Path) -> None:
    # Keys are relative to the folder loaded: in a module's own folder, bare names.
    assert sorted(load_git("v1", folder="generated/schemas/workbench/", repo=repo)) == [
        "oldTool", "readLog"]
    assert sorted(load_git("HEAD", folder=".", repo=repo)) == [
        "generated/schemas/other/newTool", "generated/schemas/workbench/readLog"]
    # Never an empty set: every tool would be new and a removal would pass unseen.
    with pytest.raises(DiffInputError, match=r"cannot compare: HEAD has no nowhere$"):
        load_git("HEAD", folder="nowhere", repo=repo)
    with pytest.raises(DiffInputError, match=r"cannot compare: HEAD:generated/schemas/other/"
                                             r"newTool\.json is not a folder"):
        load_git("HEAD", folder="generated/schemas/other/newTool.json", repo=repo)
    assert sorted(load_git("v1", folder="schemas", repo=repo / "generated")) == [
        "workbench/oldTool", "workbench/readLog"]


def test_git_errors_are_clear(repo: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    with pytest.raises(DiffInputError, match="unknown git ref 'no-such-branch'"):
        load_git("no-such-branch", repo=repo)
    with pytest.raises(DiffInputError, match="is not a git ref"):
        load_git("--output=/tmp/x", repo=repo)
    with pytest.raises(DiffInputError, match="not inside a git repository"):
        load_git("HEAD", repo=tmp_path_factory.mktemp("plain"))
    bad = repo / "generated" / "schemas" / "broken.json"
    bad.write_text("{")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "broken")
    with pytest.raises(DiffInputError, match=r"HEAD:generated/schemas/broken\.json:1:2: not valid"):
        load_git("HEAD", repo=repo)


def test_git_golden_files_are_read_only_within_their_bounds(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A committed golden file is read into memory, and HEAD's come from the pull request:
    each is bounded as a file on disk is, and all of a ref's together (the sizes are
    asked of git before any blob is read)."""
    from toolc.diff import sources

    size = len(golden_text(tool("readLog", lines={"type": "string", "description": "Level."})))
    monkeypatch.setattr(sources, "FILE_BYTES", size - 1)
    with pytest.raises(DiffInputError, match=r"HEAD:generated/schemas/workbench/readLog\.json: "
                                             r"is larger than"):
        load_git("HEAD", repo=repo)
    monkeypatch.setattr(sources, "FILE_BYTES", size)
    monkeypatch.setattr(sources, "GIT_TOTAL_BYTES", size)
    with pytest.raises(DiffInputError, match=r"larger than .* together; they are not read"):
        load_git("HEAD", repo=repo)
    monkeypatch.setattr(sources, "GIT_TOTAL_BYTES", 10 * size)
    assert sorted(load_git("HEAD", repo=repo)) == ["other/newTool", "workbench/readLog"]


# -- lines of pointers -----------------------------------------------------------------

def test_pointer_lines_in_a_golden_file() -> None:
    text = golden_text({"name": "t", "inputSchema": {"properties": {"a/b": {"enum": [1, 2]}},
                                                     "type": "object"}})
    lines = text.splitlines()
    found = pointer_lines(text)
    assert lines[found["/inputSchema/properties/a~1b"] - 1].strip() == '"a/b": {'
    assert lines[found["/inputSchema/properties/a~1b/enum/1"] - 1].strip() == "2"
    assert found[""] == 1 and found["/name"] == len(lines) - 1
    assert line_of(text, "/inputSchema/properties/gone/description") \
        == found["/inputSchema/properties"]
    assert line_of(text, "/nothing") == 1


def test_pointer_lines_of_any_layout() -> None:
    text = '{"a": [\n  {"b": "x\\"}"},\n\n  true], "c": {}}'
    assert pointer_lines(text) == {"": 1, "/a": 1, "/a/0": 2, "/a/0/b": 2, "/a/1": 4, "/c": 4}
    assert pointer_lines('{"a": [1,') == {"": 1, "/a": 1, "/a/0": 1}
    assert json.loads(text)  # the sample is real JSON


def test_a_set_from_texts_not_written_yet(tmp_path: Path) -> None:
    files = {"m/a.json": golden_text(tool("a")), "n/b.json": golden_text(tool("b"))}
    built = ToolSet.from_texts(files)
    assert built == {"m/a": tool("a"), "n/b": tool("b")}
    assert built.paths == {"m/a": "m/a.json", "n/b": "n/b.json"}
    assert built.texts["m/a"] == files["m/a.json"]
    assert built == load_folder(_written(tmp_path, files))  # keyed like the files on disk
    with pytest.raises(DiffInputError, match=r"^build:m/c\.json: no \"name\" field"):
        ToolSet.from_texts({"m/c.json": "{}"}, label="build:")


def test_a_golden_file_linked_out_of_its_folder_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    write_tool(outside, "secret.json", tool("secret"))
    write_tool(tmp_path / "schemas", "m/fine.json", tool("fine"))
    (tmp_path / "schemas" / "m" / "leak.json").symlink_to(outside / "secret.json")
    with pytest.raises(DiffInputError, match="outside"):
        load_folder(tmp_path / "schemas")


def test_a_file_with_a_known_text_takes_the_known_tool(tmp_path: Path) -> None:
    """A build's new golden files are parsed once: the file on disk with the same text
    shares the parsed tool; one with another text is parsed (and compared) as it is."""
    write_tool(tmp_path / "schemas", "m/same.json", tool("same"))
    edited = {**tool("edited"), "description": "Changed by hand."}
    write_tool(tmp_path / "schemas", "m/edited.json", edited)
    known = ToolSet.from_texts({
        "m/same.json": (tmp_path / "schemas" / "m" / "same.json").read_text(),
        "m/edited.json": json.dumps(tool("edited"))})
    found = load_folder(tmp_path / "schemas", known)
    assert found["m/same"] is known["m/same"]
    assert found["m/edited"] is not known["m/edited"]
    assert found["m/edited"] == edited
    assert found == load_folder(tmp_path / "schemas")



def test_a_file_read_a_moment_ago_is_not_read_again_while_it_is_the_same_file(
        tmp_path: Path) -> None:
    write_tool(tmp_path / "schemas", "m/t.json", tool("t"))
    path = tmp_path / "schemas" / "m" / "t.json"
    st = path.stat()
    identity = [st.st_ino, st.st_mtime_ns, st.st_size]
    # What the caller read then (told apart from the file by its description).
    then = json.dumps({**tool("t"), "description": "As read then."})
    assert load_folder(tmp_path / "schemas", read={"m/t.json": (identity, then)})[
        "m/t"]["description"] == "As read then."
    write_tool(tmp_path / "schemas", "m/t.json", {**tool("t"), "description": "Edited since."})
    assert load_folder(tmp_path / "schemas", read={"m/t.json": (identity, then)})[
        "m/t"]["description"] == "Edited since."
