"""Certification: generated modules served through a real MCP server, listed by a real
MCP client and compared with the golden schemas, in a forked process when possible."""
