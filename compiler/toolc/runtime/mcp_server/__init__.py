"""The MCP server any toolset becomes: served to MCP clients through the SDK's low-level
`Server` (`toolc.runtime.to_mcp_server`, what a user serving a toolset from Python
calls, what a generated module's toolset is served by, and what `toolc serve` runs).

`toolset_server.py` makes the server and holds its handlers; `paging.py` gives
`tools/list` in pages; `approval.py` asks the user about approval-required calls
(elicitation), `approval_state.py` signs the `requestState` of a question;
`served_client.py` is a served handler's `RunContext.client`. Its modules import the
mcp SDK at their top: they are imported only when a server is made. This package
imports nothing. What the `toolc serve` command adds around a server (finding its
target, reloading it, the HTTP app and its limits) is the compiler's `toolc.serving`.
"""
