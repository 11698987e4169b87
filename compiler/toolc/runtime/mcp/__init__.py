"""The MCP client side: toolsets whose tools an MCP server provides.

`connection.py` the server addresses and the client connection (its owner task),
`listing.py` a server's `tools/list` as the JSON it sent, `toolset.py` one server as a
toolset (`MCPToolset`), `manager.py` several together (`MCPManager`), `pinned.py` the
pinned definitions stood in for a server (certification, `toolc serve --pinned`).
The mcp SDK is imported only when a connection or a listing is made; this package
imports nothing.
"""
