"""What only generated modules use: ``from toolc.runtime import _generated as rtg``.

A generated module records its class statements (``ClassRecorder``, ``recorded.py``)
and makes its names at first use (``LazyModule``, ``lazy_module.py``); user code never
writes against either, so they stay out of ``toolc.runtime``'s public names. Importing
this package is cheap: it imports no pydantic.
"""

from __future__ import annotations

from toolc.runtime._generated.lazy_module import LazyModule
from toolc.runtime._generated.recorded import ClassRecorder

__all__ = ["ClassRecorder", "LazyModule"]
