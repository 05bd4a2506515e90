#!/bin/sh
# `nix run` (the flake's default app): the shim, as an MCP client starts it, e.g.
# "command": "nix", "args": ["run", "github:ombi-mcp/ombi-mcp", "--", "--socket", "…"].
# Started from a terminal without arguments it prints the shim's help instead of waiting for
# MCP messages. @shim@ is the shim's store path (flake.nix).
if [ $# -eq 0 ] && [ -t 0 ]; then
  @shim@ --help
  echo "stdin is a terminal: MCP clients start ombi-mcp with pipes (see docs/install-nixos.md)." >&2
  exit 0
fi
exec @shim@ "$@"
