"""Drives one session of the official MCP Python SDK (PyPI `mcp` 2.x) through
the real `ombi-mcp` shim, one command at a time, so a Rust test can act on the
fake Ombi between steps.

Usage: mcp_driver.py SHIM SOCKET
Reads one JSON command per stdin line, writes one JSON answer per stdout line:
  {"op": "init"}                                   -> capabilities, instructions
  {"op": "list_resources"} / {"op": "templates"}   -> uris
  {"op": "read", "uri": U}                         -> {"mime": .., "body": ..}
  {"op": "subscribe", "uri": U} / {"op": "unsubscribe", "uri": U}
  {"op": "call", "tool": T, "args": {..}}          -> structured content and link uris
  {"op": "wait_update", "uri": U, "timeout": S}    -> {"seconds": s} or {"timeout": true}
  {"op": "list_prompts"}                           -> prompts with their arguments
  {"op": "get_prompt", "name": N, "args": {..}}    -> messages
  {"op": "complete", "ref": {..}, "argument": {..}, "context": {..}} -> values
  {"op": "quit"}
A protocol error answers {"error": {"code": .., "message": .., "data": ..}}.
"""

import asyncio
import json
import sys
import time

import anyio
from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError


class Updates:
    """Every notifications/resources/updated the session received, with its time."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, float]] = []
        self.event = anyio.Event()

    async def handler(self, message) -> None:
        if isinstance(message, types.ResourceUpdatedNotification):
            self.seen.append((str(message.params.uri), time.monotonic()))
            self.event.set()
            self.event = anyio.Event()

    async def wait(self, uri: str, since: float, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            for seen_uri, at in self.seen:
                if seen_uri == uri and at >= since:
                    self.seen = [s for s in self.seen if s[1] > at]
                    return {"seconds": at - since}
            left = deadline - time.monotonic()
            if left <= 0:
                return {"timeout": True}
            with anyio.move_on_after(left):
                await self.event.wait()


def error_of(e: MCPError) -> dict:
    err = e.error
    return {"error": {"code": err.code, "message": err.message, "data": err.data}}


def block(c) -> dict:
    d = c.model_dump(mode="json", by_alias=True, exclude_none=True)
    return d


async def run(session: ClientSession, updates: Updates, cmd: dict, marks: dict) -> dict:
    op = cmd["op"]
    if op == "init":
        init = await session.initialize()
        caps = init.capabilities.model_dump(mode="json", by_alias=True, exclude_none=True)
        return {"capabilities": caps, "instructions": init.instructions or ""}
    if op == "list_resources":
        r = await session.list_resources()
        return {"uris": [str(x.uri) for x in r.resources], "resources": [block(x) for x in r.resources]}
    if op == "templates":
        r = await session.list_resource_templates()
        return {"templates": [x.uri_template for x in r.resource_templates]}
    if op == "read":
        r = await session.read_resource(cmd["uri"])
        c = r.contents[0]
        return {"uri": str(c.uri), "mime": c.mime_type, "body": json.loads(c.text)}
    if op == "subscribe":
        marks[cmd["uri"]] = time.monotonic()
        await session.subscribe_resource(cmd["uri"])
        return {"ok": True}
    if op == "unsubscribe":
        await session.unsubscribe_resource(cmd["uri"])
        return {"ok": True}
    if op == "mark":
        marks[cmd["uri"]] = time.monotonic()
        return {"ok": True}
    if op == "call":
        marks["call"] = time.monotonic()
        r = await session.call_tool(cmd["tool"], cmd.get("args", {}))
        return {
            "structured": r.structured_content,
            "content": [block(c) for c in r.content],
        }
    if op == "wait_update":
        since = marks.get(cmd["uri"], 0.0)
        return await updates.wait(cmd["uri"], since, float(cmd.get("timeout", 30)))
    if op == "list_prompts":
        r = await session.list_prompts()
        return {"prompts": [block(p) for p in r.prompts]}
    if op == "get_prompt":
        r = await session.get_prompt(cmd["name"], cmd.get("args") or None)
        return {"description": r.description, "messages": [block(m) for m in r.messages]}
    if op == "complete":
        ref = cmd["ref"]
        if ref["type"] == "ref/prompt":
            ref = types.PromptReference(type="ref/prompt", name=ref["name"])
        else:
            ref = types.ResourceTemplateReference(type="ref/resource", uri=ref["uri"])
        started = time.monotonic()
        r = await session.complete(ref, cmd["argument"], cmd.get("context"))
        c = r.completion
        return {
            "values": c.values,
            "total": c.total,
            "hasMore": c.has_more,
            "seconds": time.monotonic() - started,
        }
    raise ValueError(f"unknown op {op}")


async def main() -> None:
    shim, socket = sys.argv[1], sys.argv[2]
    params = StdioServerParameters(command=shim, args=["--socket", socket])
    updates = Updates()
    marks: dict = {}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, message_handler=updates.handler) as session:
            stdin = anyio.wrap_file(sys.stdin)
            async for line in stdin:
                cmd = json.loads(line)
                if cmd["op"] == "quit":
                    break
                try:
                    out = await run(session, updates, cmd, marks)
                except MCPError as e:
                    out = error_of(e)
                print(json.dumps(out), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
