"""The toolset kinds, one small module each; the contract is documented once, in
`abstract.py` (`AbstractToolset`, and `DelegatingToolset` for the wrapping kinds).

The kinds a spec can declare: `function`, `combined`, `prefixed`, `renamed`,
`filtered`, `prepared`, `approval` (`approval_required`), `external` and `wrapper`. The
MCP kinds are the client side's (`toolc.runtime.mcp`). User code imports them all from
`toolc.runtime`; this package imports nothing, so importing one kind costs only that one.
"""
