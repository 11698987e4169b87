"""A real editor: headless Neovim's built-in LSP client opens a spec and shows toolc's
diagnostics (skipped where Neovim is not installed; ``.ci/run`` installs it).

The Lua script starts ``toolc lsp`` with the built-in client, opens a spec with
a misspelt key, waits (bounded in minutes) for the client to have diagnostics, and
writes what the editor holds to a file: the code, the line and column, the message.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

NVIM = shutil.which("nvim")
SCRIPT = r"""
-- Neovim 0.7 and later: vim.lsp.start_client and buf_attach_client (vim.lsp.start is 0.8).
local function run()
  vim.cmd("edit " .. vim.fn.fnameescape(_G.arg_spec))
  local id = vim.lsp.start_client({ name = "toolc", cmd = { _G.arg_toolc, "-m", "toolc", "lsp" },
                                    root_dir = _G.arg_root })
  vim.lsp.buf_attach_client(0, id)
  local ok = vim.wait(240000, function() return #vim.diagnostic.get(0) > 0 end, 50)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    table.insert(found, { code = d.code, line = d.lnum, col = d.col, message = d.message })
  end
  return { ok = ok, diagnostics = found }
end
local ok, result = pcall(run)
local f = io.open(_G.arg_out, "w")
f:write(vim.fn.json_encode(ok and result or { ok = false, error = tostring(result) }))
f:close()
vim.cmd("qa!")
"""


@pytest.mark.skipif(NVIM is None, reason="Neovim (nvim) is not installed; .ci/run installs it")
def test_neovim_shows_the_diagnostics_of_a_spec(tmp_path: Path) -> None:
    specs = tmp_path / "specs"
    specs.mkdir()
    (tmp_path / "pyproject.toml").write_text('[tool.toolc]\nspecs = "specs"\n')
    spec = specs / "app.toolc.yaml"
    spec.write_text("toolc: 1\nmodule: app\ntools:\n  read:\n    descripton: Read it.\n"
                    "    handler: app.tools:read\n", encoding="utf-8")
    out, script = tmp_path / "seen.json", tmp_path / "init.lua"
    values = {"arg_out": str(out), "arg_spec": str(spec), "arg_toolc": sys.executable,
              "arg_root": str(tmp_path)}
    script.write_text("".join(f"_G.{k} = {json.dumps(v)}\n" for k, v in values.items())
                      + SCRIPT, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    assert NVIM is not None
    subprocess.run([NVIM, "--headless", "--clean", "-u", str(script)], cwd=tmp_path, env=env,
                   timeout=300, check=False, capture_output=True)
    seen = json.loads(out.read_text(encoding="utf-8"))
    assert seen["ok"], seen
    (d,) = seen["diagnostics"]
    assert (d["code"], d["line"], d["col"]) == ("TC101", 4, 4)
    assert d["message"] == "unknown key 'descripton' in tool 'read'; did you mean 'description'?"
