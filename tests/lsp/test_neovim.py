"""A real editor: headless Neovim's built-in LSP client opens a spec, shows toolc's
diagnostics and formats the buffer as ``toolc fmt`` formats the file.

Skipped, saying why, where Neovim 0.7 or later is not installed (``.ci/run`` installs
the distribution's). The Lua script starts ``toolc lsp`` with the built-in client, opens
a spec with a misspelt key in another layout, waits (bounded in minutes) for the client
to have diagnostics, formats the buffer through the server, and writes what the editor
holds to a file: each diagnostic's code, line, column and message, and the buffer's text.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from project_support import make_project

from .lsp_support import PATIENCE_S

NEEDED = (0, 7)  # vim.lsp.start_client, buf_attach_client and vim.diagnostic.get


def neovim() -> tuple[str | None, str]:
    """The ``nvim`` to drive, or None and why it cannot be."""
    found = shutil.which("nvim")
    if found is None:
        return None, ("Neovim (nvim) is not installed: .ci/run installs it with apt-get "
                      "(apt-get install neovim)")
    try:
        said = subprocess.run([found, "--version"], capture_output=True, text=True,
                              timeout=120, check=False).stdout
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"{found} --version failed ({exc}): no Neovim to drive"
    version = re.match(r"NVIM v(\d+)\.(\d+)", said)
    if version is None:
        return None, f"{found} --version does not say a Neovim version: {said[:80]!r}"
    if (int(version[1]), int(version[2])) < NEEDED:
        return None, (f"Neovim {version[1]}.{version[2]} is too old: the test needs "
                      f"{NEEDED[0]}.{NEEDED[1]} or later for its built-in LSP client")
    return found, ""


NVIM, WHY_NOT = neovim()
SCRIPT = r"""
local function run()
  vim.cmd("edit " .. vim.fn.fnameescape(_G.arg_spec))
  local config = { name = "toolc", cmd = { _G.arg_toolc, "-m", "toolc", "lsp" },
                   root_dir = _G.arg_root }
  if vim.lsp.start then  -- 0.8 and later: starts the client and attaches the buffer
    vim.lsp.start(config)
  else                   -- 0.7 (Debian 12's)
    vim.lsp.buf_attach_client(0, vim.lsp.start_client(config))
  end
  local ok = vim.wait(_G.arg_wait_ms, function() return #vim.diagnostic.get(0) > 0 end, 50)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    table.insert(found, { code = d.code, line = d.lnum, col = d.col, message = d.message })
  end
  if vim.lsp.buf.format then
    vim.lsp.buf.format({ bufnr = 0, timeout_ms = _G.arg_wait_ms })
  else
    vim.lsp.buf.formatting_sync(nil, _G.arg_wait_ms)
  end
  local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n") .. "\n"
  return { ok = ok, diagnostics = found, text = text }
end
local ok, result = pcall(run)
local f = io.open(_G.arg_out, "w")
f:write(vim.fn.json_encode(ok and result or { ok = false, error = tostring(result) }))
f:close()
vim.cmd("qa!")
"""
SPEC = """\
module: app
toolc: 1
tools:
    read:
        descripton: Read it.
        handler: 'app.tools:read'
"""


@pytest.mark.skipif(NVIM is None, reason=WHY_NOT)
def test_neovim_shows_the_diagnostics_and_formats_as_toolc_fmt(tmp_path: Path) -> None:
    spec = make_project(tmp_path, {"app": SPEC}) / "specs" / "app.toolc.yaml"
    out, script = tmp_path / "seen.json", tmp_path / "init.lua"
    values = {"arg_out": str(out), "arg_spec": str(spec), "arg_toolc": sys.executable,
              "arg_root": str(tmp_path), "arg_wait_ms": int(PATIENCE_S * 800)}
    script.write_text("".join(f"_G.{k} = {json.dumps(v)}\n" for k, v in values.items())
                      + SCRIPT, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    assert NVIM is not None
    subprocess.run([NVIM, "--headless", "--clean", "-u", str(script)], cwd=tmp_path, env=env,
                   timeout=PATIENCE_S * 2, check=False, capture_output=True)
    seen = json.loads(out.read_text(encoding="utf-8"))
    assert seen["ok"], seen
    (d,) = seen["diagnostics"]
    assert (d["code"], d["line"], d["col"]) == ("TC101", 4, 8)
    assert d["message"] == "unknown key 'descripton' in tool 'read'; did you mean 'description'?"

    # The editor did not save: the file is as written; toolc fmt now formats it.
    assert spec.read_text(encoding="utf-8") == SPEC
    subprocess.run([sys.executable, "-m", "toolc", "fmt"], cwd=tmp_path, env=env,
                   timeout=PATIENCE_S, check=True, capture_output=True)
    formatted = spec.read_bytes().decode("utf-8")
    assert formatted != SPEC and seen["text"] == formatted
