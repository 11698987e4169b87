"""Every fix a diagnostic suggests, applied through an editor's code action, makes the
diagnostic go away (the cases of ``tests/suggestion_support.py``, each a project of its
own, in one ``toolc lsp`` session driven by a real client).

Per case: the specs are opened unsaved; the first diagnostic that carries a fix is sent
back in a ``textDocument/codeAction`` request, as an editor does when the user asks for
the quick fixes at it; the action's edit is made to the buffer (a ``didChange``), and the
diagnostics published for the new version no longer hold that code.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types as lsp
from project_support import make_project
from suggestion_support import CASES

from .lsp_support import (
    applied,
    change,
    diagnostics_of,
    doc,
    open_spec,
    session,
    switch,
    uri,
)


def project_of(case: str, into: Path) -> dict[Path, str]:
    texts = CASES[case] if isinstance(CASES[case], dict) else {"m.toolc.yaml": CASES[case]}
    assert isinstance(texts, dict)
    root = make_project(into / case.replace(" ", "-"), specs_dir=".", files=texts)
    return {root / name: text for name, text in sorted(texts.items())}


@pytest.mark.asyncio
async def test_each_code_action_makes_its_diagnostic_go_away(tmp_path: Path) -> None:
    projects = {case: project_of(case, tmp_path) for case in sorted(CASES)}
    first = next(iter(projects[min(CASES)])).parent
    async with session(first) as client:
        previous = first
        for case, specs in projects.items():
            root = next(iter(specs)).parent
            if root != previous:
                switch(client, previous, root)
                previous = root
            found: list[tuple[Path, lsp.Diagnostic]] = []
            for path, text in specs.items():
                open_spec(client, path, text)
            for path in specs:
                found += [(path, d) for d in await diagnostics_of(client, path, version=1)
                          if isinstance(d.data, dict) and d.data.get("fixes")]
            assert found, case
            path, target = found[0]
            actions = await client.text_document_code_action_async(lsp.CodeActionParams(
                doc(path), target.range, lsp.CodeActionContext([target])))
            fixes = [a for a in actions or [] if isinstance(a, lsp.CodeAction)]
            assert fixes, case
            edit = fixes[0].edit
            assert edit is not None and edit.changes is not None, case
            assert set(edit.changes) == {uri(path)}, case
            fixed = applied(specs[path], list(edit.changes[uri(path)]))
            assert fixed != specs[path], case
            change(client, path, fixed, 2)
            after = await diagnostics_of(client, path, version=2)
            assert target.code not in [d.code for d in after], (case, fixed, after)
