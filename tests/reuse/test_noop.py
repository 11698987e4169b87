"""toolc.reuse.noop: when the no-op cache answers "up to date"."""

from __future__ import annotations

from pathlib import Path


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
