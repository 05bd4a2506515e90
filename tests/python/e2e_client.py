"""End-to-end check with the official MCP Python SDK (PyPI `mcp` 2.x).

Starts the real `ombi-mcp` shim as a stdio server (as Claude Desktop would),
initializes, lists tools and calls the tools named on the command line. The
SDK validates every `structuredContent` against the tool's `outputSchema`.

Usage: e2e_client.py SHIM SOCKET [TOOL JSON_ARGS]...
A string argument "$revision(SECTION)" is replaced by the `revision` read_settings
returns for SECTION just before the call (a settings patch needs a fresh one), and
"$user(NAME)" (also inside a list) by the id read_users lists for user NAME.
Prints one JSON document: {"protocol": ..., "server": ..., "tools": [...], "calls": [...]}.
"""

import asyncio
import json
import re
import sys
import time

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


REVISION = re.compile(r"^\$revision\((.+)\)$")
USER = re.compile(r"^\$user\((.+)\)$")


async def resolve_value(session: ClientSession, value):
    """One argument value with its placeholders filled."""
    if isinstance(value, list):
        return [await resolve_value(session, v) for v in value]
    if not isinstance(value, str):
        return value
    m = REVISION.match(value)
    if m:
        read = await session.call_tool("read_settings", {"section": m.group(1)})
        return read.structured_content["data"]["revision"]
    m = USER.match(value)
    if m:
        read = await session.call_tool("read_users", {"action": "list", "page": {"limit": 100}})
        for user in read.structured_content["data"]["items"]:
            if user.get("user_name") == m.group(1):
                return user["id"]
        raise SystemExit(f"no user {m.group(1)} in read_users list")
    return value


async def resolve(session: ClientSession, args: dict) -> dict:
    """Fills "$revision(SECTION)" and "$user(NAME)" placeholders."""
    return {key: await resolve_value(session, value) for key, value in args.items()}


async def main() -> None:
    shim, socket, rest = sys.argv[1], sys.argv[2], sys.argv[3:]
    calls = list(zip(rest[0::2], rest[1::2]))
    params = StdioServerParameters(command=shim, args=["--socket", socket])
    started = time.monotonic()
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            init_seconds = time.monotonic() - started
            listed = await session.list_tools()
            out = {
                "protocol": str(init.protocol_version),
                "server": init.server_info.name,
                "version": init.server_info.version,
                "init_seconds": init_seconds,
                "tools": [t.name for t in listed.tools],
                "calls": [],
            }
            for name, args in calls:
                result = await session.call_tool(name, await resolve(session, json.loads(args)))
                # The SDK validates successful results itself; hold error
                # results (the envelope with ok:false) to the same schema.
                await session.validate_tool_result(name, result)
                out["calls"].append(
                    {
                        "tool": name,
                        "isError": bool(result.is_error),
                        "structured": result.structured_content,
                        "text": [c.text for c in result.content if getattr(c, "type", "") == "text"],
                    }
                )
    print(json.dumps(out))


if __name__ == "__main__":
    asyncio.run(main())
