"""One MCP session through a stdio command, as an MCP client runs it: `initialize`,
`notifications/initialized`, then one `tools/call`. Prints the call's JSON-RPC reply on stdout.
Used by the NixOS VM test (vm.nix); tests/it/clients/nixos_vm_parts.rs runs it too.

    mcp-call.py TOOL ARGUMENTS_JSON COMMAND [ARG...]

Exits with the command's status when it ends before replying (the shim's 69, 74 or 77).
"""

import json
import subprocess
import sys


def main():
    tool, arguments, command = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3:]
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def send(message):
        proc.stdin.write((json.dumps({"jsonrpc": "2.0", **message}) + "\n").encode())
        proc.stdin.flush()

    def reply(request_id):
        for line in proc.stdout:
            message = json.loads(line)
            if message.get("id") == request_id:
                return message
        status = proc.wait()
        if status != 0:
            sys.exit(status)
        sys.exit(f"mcp-call: {command[0]} closed the session before answering {request_id}")

    send(
        {
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "mcp-call", "version": "1"},
            },
        }
    )
    init = reply(1)
    if "result" not in init:
        sys.exit(f"mcp-call: initialize failed: {json.dumps(init)}")
    send({"method": "notifications/initialized"})
    send({"id": 2, "method": "tools/call", "params": {"name": tool, "arguments": arguments}})
    result = reply(2)
    proc.stdin.close()
    proc.wait(timeout=30)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
