"""Compiled toolsets inside the agent frameworks people use.

One module per framework, each an optional extra of the toolc package:

| module | extra | what it gives |
|---|---|---|
| `toolc.adapters.pydantic_ai` | `toolc[pydantic-ai]` | `PydanticAIToolset`, a pydantic-ai toolset |
| `toolc.adapters.openai_agents` | `toolc[openai-agents]` | `function_tools()`, `strict_problems()` |
| `toolc.adapters.langchain` | `toolc[langchain]` | `langchain_tools()`, async `BaseTool`s |
| `toolc.adapters.claude_agent_sdk` | `toolc[claude-agent-sdk]` | `sdk_mcp_server()`, an SDK MCP server |

Importing `toolc.adapters` imports no framework: each module imports its own framework
when it is imported, and says which extra to install when the framework is missing.

Every adapter hands the framework the published JSON Schema as written (the golden
file's `inputSchema`): none re-derives a schema from the generated pydantic models, and
the runtime still validates every call against the published schema itself.
"""
