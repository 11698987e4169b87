"""Publishing: every schema written out as the JSON Schema MCP clients are shown, and
the golden files that hold it.

- :mod:`.writer`: a spec's schema -> the published one (named types written in place,
  ``required`` lists, ``nullable``); :mod:`.written`: what a write returns, with where
  each part of the schema is written in the spec;
- :mod:`.closing`: which objects of a tool's input are closed;
- :mod:`.schema_refs`: ``$ref`` rewritten to resolve in the published document, never
  a URL fetched; :mod:`.schema_files`: the local schema files a ``$ref`` inlines;
- :mod:`.json_documents`: loaded values made plain, JSON pointers and URI fragments;
- :mod:`.golden`: the published tools -> golden files ``schemas/<module>/<tool>.json``;
  :mod:`.views`: each provider target's view of them, lowered from the golden file
  (``schemas/<module>/<target>/<tool>.json``).

The checks judge the written schemas (the analysis writes each once:
:class:`toolc.checks.facts.WrittenSchemas`) and :mod:`toolc.resolve` puts them in the IR;
the golden files are written from the IR.
"""

from __future__ import annotations

from .golden import (
    SCHEMAS_DIR,
    golden_path,
    golden_text,
    module_files,
    publish_modules,
    publish_project,
)

__all__ = ["SCHEMAS_DIR", "golden_path", "golden_text", "module_files", "publish_modules",
           "publish_project"]
