"""The toolset kinds, one small module each; the contract is documented once, in
`abstract.py` (`AbstractToolset`, and `DelegatingToolset` for the wrapping kinds).

The kinds a spec declares: `function`, `combined`, `prefixed`, `renamed`, `filtered`,
`prepared`, `approval_required` (`approval.py`), `external` and `wrapper`; its MCP kinds
(`mcp`, `mcp_manager`) are the client side's, `toolc.runtime.mcp`. User code imports
them all from `toolc.runtime`; this package imports nothing, so importing one kind costs
only that one.
"""
