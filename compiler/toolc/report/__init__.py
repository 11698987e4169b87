"""Reports: diagnostics and classified changes, one module per format (text, json,
github, markdown)."""
