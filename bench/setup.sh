#!/usr/bin/env bash
# The benchmark environment: bench/.venv (gitignored) with toolc installed editable and
# the peers it is measured against. The peers are never dependencies of toolc: they
# live here only.
#
#   bash bench/setup.sh            # create or update bench/.venv
#   bench/.venv/bin/python bench/run_all.py
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
python="${PYTHON:-python3.11}"
command -v "$python" >/dev/null || python=python3

if [ ! -x "$here/.venv/bin/python" ]; then
    "$python" -m venv "$here/.venv"
fi
"$here/.venv/bin/python" -m pip install --quiet --upgrade pip
# toolc itself, editable, as users install it (with the language server's extra, for
# bench/lsp.py); then the peers and a profiler.
"$here/.venv/bin/python" -m pip install --quiet -e "$root[lsp]"
"$here/.venv/bin/python" -m pip install --quiet \
    "datamodel-code-generator==0.89.0" \
    "pydantic-ai-slim==2.68.0" \
    "pyinstrument"
# toolc's own bytecode, as a wheel's install compiles it: with PYTHONDONTWRITEBYTECODE set
# (as in some shells) an editable install would compile its ~100 modules on every run
# (~50 ms of a build). Rerun this line after editing toolc before measuring.
"$here/.venv/bin/python" -m compileall -q "$root/compiler" >/dev/null
"$here/.venv/bin/python" - <<'PY'
from importlib.metadata import version
for name in ("toolc", "mcp", "pydantic", "datamodel-code-generator", "pydantic-ai-slim",
             "pyinstrument"):
    print(f"{name} {version(name)}")
PY
