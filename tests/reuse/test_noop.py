"""toolc.reuse.noop: what the no-op cache's key covers."""

from __future__ import annotations

from pathlib import Path

import toolc
from toolc.reuse.noop import PACKAGE, code_digest


def test_the_code_digest_covers_the_whole_package() -> None:
    # Once the cache moved into output/, the digest covered only that folder, and a
    # change to a template was answered "up to date" with the old output.
    assert Path(toolc.__file__).resolve().parent == PACKAGE
    assert (PACKAGE / "templates" / "module.py.jinja").is_file()


def test_the_code_digest_changes_with_any_module_or_template(tmp_path: Path) -> None:
    (tmp_path / "templates").mkdir()
    (tmp_path / "sub").mkdir()
    (tmp_path / "cli.py").write_text("a = 1\n")
    (tmp_path / "sub" / "deep.py").write_text("b = 1\n")
    (tmp_path / "templates" / "module.py.jinja").write_text("{{ x }}\n")
    (tmp_path / "notes.txt").write_text("not code\n")
    first = code_digest(tmp_path)
    seen = {first}
    for name in ("cli.py", "sub/deep.py", "templates/module.py.jinja"):
        (tmp_path / name).write_text((tmp_path / name).read_text() + "# edited\n")
        seen.add(code_digest(tmp_path))
    assert len(seen) == 4
    (tmp_path / "notes.txt").write_text("still not code\n")
    assert code_digest(tmp_path) in seen


def test_a_handler_module_edited_is_no_up_to_date_answer(tmp_path: Path) -> None:
    """The handler check reads the modules on the python-path (TC340-TC342): what it
    found is an input of the build, as the specs are."""
    from toolc.config import load_config
    from toolc.pipeline import build

    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolc]\nspecs = "specs"\npython-path = ["src"]\n')
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "m.toolc.yaml").write_text(
        "toolc: 1\nmodule: m\ndescription: M.\ntools:\n  t:\n    description: T.\n"
        "    handler: app:handle\n")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text("async def handle(ctx):\n    return 1\n")
    assert build(load_config(tmp_path), certify=False).ok
    assert build(load_config(tmp_path), certify=False).up_to_date
    (tmp_path / "src" / "app.py").write_text("async def other(ctx):\n    return 1\n")
    result = build(load_config(tmp_path), certify=False)
    assert not result.up_to_date and not result.ok
    assert [d.code for d in result.compiled.bag] == ["TC341"]
