"""Reuse: what a writing build takes from the last clean one, in a wing above the stages.

The no-op answer (``noop.py``, ``.toolc-cache/build.json``), the per-module record of code
and certification verdicts (``modules.py``, ``modules.json``) and the per-component
take-over of the analysis (``components.py``, ``components.json``). No stage imports this
package (``tests/test_imports.py``)."""
