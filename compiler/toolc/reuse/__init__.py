"""Reuse: what a build takes from the last clean one, in a wing above the stages.

The no-op answer (``noop.py``, ``.toolc-cache/build.json``), the per-component take-over
of the analysis (``components.py``, ``components.json``) and the per-module record of
code and certification verdicts (``modules.py``, ``modules.json``), which a writing build
consults at its turns between the stages (``last_build.py``); the records as files, read
back as untrusted input (``records.py``), and what their keys hash (``inputs.py``); what
a warm process keeps between its builds (``memory.py``). The stages are handed what they
reuse as plain data (``handed.py``) and never import this package
(``tests/test_imports.py``)."""
