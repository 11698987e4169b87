"""What only generated modules use: ``from toolc.runtime import _generated as rtg``.

A generated module records its class statements (``ClassRecorder``) and makes its
names at first use (``LazyModule``); user code never writes against either, so they
stay out of ``toolc.runtime``'s public names. Importing this module is cheap: it
imports no pydantic.
"""

from __future__ import annotations

from toolc.runtime.generated_support import LazyModule
from toolc.runtime.recorded import ClassRecorder

__all__ = ["ClassRecorder", "LazyModule"]
