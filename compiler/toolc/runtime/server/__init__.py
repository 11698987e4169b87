"""The MCP server side: any toolset served to MCP clients through the SDK's low-level
`Server` (`toolc.runtime.to_mcp_server`, what a user serving a toolset from Python
calls, and what `toolc serve` runs).

`toolset_server.py` makes the server and holds its handlers; `approval.py` asks the
user about approval-required calls (elicitation). Its modules import the mcp SDK at
their top: they are imported only when a server is made. This package imports nothing. What the `toolc serve` command adds around a server (finding its
target, reloading it, the HTTP app and its limits) is the compiler's `toolc.serving`.
"""
