"""What the ``toolc serve`` command adds around the runtime's MCP server
(``toolc.runtime.mcp_server``, which is all a user serving a toolset from Python needs).

- ``targets.py``: what to serve: a spec (its project found from its path, compiled in
  memory) or a generated module, and the toolset picked from it;
- ``run.py``: the server made and run over stdio or streamable HTTP until the client
  leaves or a signal comes, with the session deps ``--deps`` names;
- ``reload.py``: ``--reload``, the toolset swapped in after each save;
- ``http.py``, ``http_limits.py``: the HTTP app and its options (``HttpOptions``, the
  CLI's defaults): the bind rule, Host/Origin checks, read deadlines, the session cap.
"""
