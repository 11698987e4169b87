"""A spec that pins one tool of a third-party MCP server, as `toolc import` writes it:
what the tests of pinned tools (their targets, their texts, their changes) start from."""


def pinned_spec(description: str, path: str, *, head: str = "") -> str:
    """Module ``fs``, toolset ``files`` pinning ``read_file``; ``description`` and the
    flow mapping of its one parameter ``path`` as YAML text; ``head``: lines after
    ``module:`` (``targets: [...]``)."""
    return f"""\
toolc: 1
module: fs
{head}toolsets:
  files:
    kind: mcp
    stdio: {{command: fs-server}}
    tools:
      read_file:
        description: {description}
        input_schema:
          type: object
          properties:
            path: {path}
          required: [path]
          additionalProperties: false
export: files
"""
