"""The spec format as pydantic models, and its JSON Schema for editors.

- :mod:`.module`, :mod:`.tools`, :mod:`.toolsets`: the models of a spec file;
- :mod:`.keywords`: the JSON Schema vocabulary schemas are checked against;
- :mod:`.parse`: one loaded file -> :class:`ParsedModule`, with located diagnostics
  (:mod:`.errors` tells pydantic's errors in words);
- :mod:`.named`: named types (written out as published by :mod:`toolc.publish`).
"""

from __future__ import annotations

from .editor_schema import spec_json_schema
from .module import ModuleSpec
from .parse import ParsedModule, parse_module
from .tools import Annotations, ExternalToolSpec, PinnedToolSpec, ToolSpec
from .toolsets import AnyToolset, ToolsetSpec

__all__ = ["Annotations", "AnyToolset", "ExternalToolSpec", "ModuleSpec", "ParsedModule",
           "PinnedToolSpec", "ToolSpec", "ToolsetSpec", "parse_module", "spec_json_schema"]
