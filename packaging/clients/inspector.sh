#!/bin/sh
# The MCP Inspector's CLI against the shim (needs Node 22 or newer).
# List the tools this user may see, then call one:
set -eu
SOCKET="${OMBI_MCP_SOCKET:-/run/ombi-mcp/mcp.sock}"
npx -y @modelcontextprotocol/inspector --cli ombi-mcp --socket "$SOCKET" --method tools/list
npx -y @modelcontextprotocol/inspector --cli ombi-mcp --socket "$SOCKET" \
  --method tools/call --tool-name read_server --tool-arg action=status
