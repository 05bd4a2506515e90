"""Confirmations with the official MCP Python SDK (PyPI `mcp` 2.x).

Starts the real `ombi-mcp` shim, initializes (declaring the elicitation
capability unless ANSWER is `none`), and calls the tools named on the command
line; every `elicitation/create` the daemon sends is answered as ANSWER says:
  accept       accept with confirm: true (and REASON, when given, as `reason`)
  accept_no    accept with confirm: false
  decline      decline
  cancel       cancel
  slow         answer accept after SLOW_SECONDS (longer than the daemon waits)
  error        answer with a JSON-RPC error
  none         declare no elicitation capability (no callback)

Usage: confirm_client.py SHIM SOCKET ANSWER REASON [TOOL JSON_ARGS]...
(REASON "-" for none). Prints one JSON document:
{"questions": [{"message": ..., "schema": ...}], "calls": [envelope, ...]}.
"""

import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client

SLOW_SECONDS = 4


async def main() -> None:
    shim, socket, answer, reason, rest = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
    calls = list(zip(rest[0::2], rest[1::2]))
    questions = []

    async def on_elicit(context, params):
        questions.append({"message": params.message, "schema": params.requested_schema})
        if answer == "accept":
            content = {"confirm": True}
            if reason != "-":
                content["reason"] = reason
            return types.ElicitResult(action="accept", content=content)
        if answer == "accept_no":
            return types.ElicitResult(action="accept", content={"confirm": False})
        if answer in ("decline", "cancel"):
            return types.ElicitResult(action=answer)
        if answer == "slow":
            await asyncio.sleep(SLOW_SECONDS)
            return types.ElicitResult(action="accept", content={"confirm": True})
        return types.ErrorData(code=types.INTERNAL_ERROR, message="the form could not be shown")

    callback = None if answer == "none" else on_elicit
    params = StdioServerParameters(command=shim, args=["--socket", socket])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, elicitation_callback=callback) as session:
            await session.initialize()
            out = {"questions": questions, "calls": []}
            for name, args in calls:
                result = await session.call_tool(name, json.loads(args))
                await session.validate_tool_result(name, result)
                out["calls"].append(result.structured_content)
            print(json.dumps(out))


if __name__ == "__main__":
    asyncio.run(main())
