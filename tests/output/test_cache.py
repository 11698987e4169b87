"""toolc.output.cache: what the no-op cache's key covers."""

from __future__ import annotations

from pathlib import Path

import toolc
from toolc.output.cache import PACKAGE, code_digest


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
