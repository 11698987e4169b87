"""``toolc import``: third-party MCP servers pinned into specs and checked for drift.

- :mod:`.listing`: list a live server as the JSON it sends (``list_live``, ``list_raw``),
  or read a saved ``tools/list`` result (``read_saved``); ``ImportFailure`` for the user;
- :mod:`.clientconfig`: ``{"mcpServers": ...}`` client configurations (``read_config``);
- :mod:`.pinning`: MCP tools -> pinned tools -> the spec (``server_spec``, ``manager_spec``);
- :mod:`.yamlout`: the spec as YAML that reads back as the same JSON (``dump``);
- :mod:`.run`: one import, from the request to the checked spec (``import_servers``;
  the command, ``toolc.commands.import_specs``, only hands it the options);
- the pinned definitions that stand in for live servers (certification, serve) are the
  runtime's, ``toolc.runtime.mcp.pinned``; ``toolc serve --pinned`` is
  ``toolc.serving.run.serve(pinned=True)`` over them;
- :mod:`.drift`: ``toolc diff --live`` and ``toolc build --live``.

See docs/import.md. Nothing here imports the mcp SDK until a server is listed or served.
"""
