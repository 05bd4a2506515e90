"""Drives the official MCP Python SDK's high-level `Client` (PyPI `mcp` 2.3)
in one protocol era through the real `ombi-mcp` shim, one command at a time,
so a Rust test can act on the fake Ombi between steps.

Usage: eras_driver.py MODE SHIM SOCKET
MODE is the SDK's `mode=`: `auto` (its default: probe server/discover, fall
back to initialize), `2026-07-28` (no handshake at all) or `legacy`
(initialize only). Reads one JSON command per stdin line, writes one JSON
answer per stdout line:
  {"op": "init"}                                  -> protocol, server, capabilities
  {"op": "answer", "answer": A, "reason": R?}     -> how the next questions are answered:
        accept | accept_no | decline | cancel | none (no elicitation callback: set before init)
  {"op": "list_tools"}                            -> names
  {"op": "call", "tool": T, "args": {..}}         -> structured content, the questions asked
  {"op": "read", "uri": U}                        -> body
  {"op": "watch", "uri": U}                       -> 2026: subscriptions/listen (honored uris);
                                                     legacy: resources/subscribe
  {"op": "unwatch", "uri": U}                     -> 2026: the listen cancelled; legacy: unsubscribe
  {"op": "wait_update", "uri": U, "timeout": S}   -> {"seconds": s} or {"timeout": true}
  {"op": "list_prompts"} / {"op": "get_prompt", "name": N, "args": {..}}
  {"op": "complete", "ref": {..}, "argument": {..}}
  {"op": "quit"}
A protocol error answers {"error": {"code": .., "message": .., "data": ..}}.
"""

import asyncio
import json
import sys
import time
import warnings

import anyio
from mcp import Client, StdioServerParameters, types
from mcp.shared.exceptions import MCPError

warnings.simplefilter("ignore")  # subscribe_resource is deprecated on purpose in legacy mode


class State:
    def __init__(self) -> None:
        self.answer = "accept"
        self.reason = None
        self.questions: list[dict] = []
        self.updates: list[tuple[str, float]] = []
        self.event = anyio.Event()
        self.marks: dict[str, float] = {}
        self.listens: dict[str, anyio.CancelScope] = {}

    def updated(self, uri: str) -> None:
        self.updates.append((uri, time.monotonic()))
        self.event.set()
        self.event = anyio.Event()

    async def wait(self, uri: str, timeout: float) -> dict:
        since = self.marks.get(uri, 0.0)
        deadline = time.monotonic() + timeout
        while True:
            for seen, at in self.updates:
                if seen == uri and at >= since:
                    self.updates = [u for u in self.updates if u[1] > at]
                    return {"seconds": at - since}
            left = deadline - time.monotonic()
            if left <= 0:
                return {"timeout": True}
            with anyio.move_on_after(left):
                await self.event.wait()


def dump(model) -> dict:
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


async def run(client: Client, state: State, tg, cmd: dict) -> dict:
    op = cmd["op"]
    if op == "init":
        return {
            "protocol": client.protocol_version,
            "server": client.server_info.name if client.server_info else None,
            "capabilities": dump(client.server_capabilities),
            "instructions": client.instructions or "",
        }
    if op == "answer":
        state.answer, state.reason = cmd["answer"], cmd.get("reason")
        return {"ok": True}
    if op == "list_tools":
        r = await client.list_tools()
        return {"names": [t.name for t in r.tools]}
    if op == "call":
        state.questions = []
        r = await client.call_tool(cmd["tool"], cmd.get("args", {}))
        return {"structured": r.structured_content, "isError": bool(r.is_error), "questions": state.questions}
    if op == "read":
        r = await client.read_resource(cmd["uri"])
        c = r.contents[0]
        return {"uri": str(c.uri), "mime": c.mime_type, "body": json.loads(c.text)}
    if op == "watch":
        uri = cmd["uri"]
        state.marks[uri] = time.monotonic()
        if client.protocol_version < "2026-07-28":
            await client.subscribe_resource(uri)
            return {"honored": [uri]}
        acked: dict = {}
        ready = anyio.Event()

        async def listen(scope: anyio.CancelScope) -> None:
            with scope:
                try:
                    async with client.listen(resource_subscriptions=[uri]) as sub:
                        acked["honored"] = list(sub.honored.resource_subscriptions or [])
                        ready.set()
                        async for event in sub:
                            state.updated(str(event.uri))
                except MCPError as e:
                    acked["error"] = {"code": e.error.code, "message": e.error.message}
                    ready.set()

        scope = anyio.CancelScope()
        state.listens[uri] = scope
        tg.start_soon(listen, scope)
        await ready.wait()
        return acked
    if op == "unwatch":
        uri = cmd["uri"]
        if client.protocol_version < "2026-07-28":
            await client.unsubscribe_resource(uri)
        else:
            state.listens.pop(uri).cancel()
        return {"ok": True}
    if op == "wait_update":
        return await state.wait(cmd["uri"], float(cmd.get("timeout", 30)))
    if op == "list_prompts":
        r = await client.list_prompts()
        return {"names": [p.name for p in r.prompts]}
    if op == "get_prompt":
        r = await client.get_prompt(cmd["name"], cmd.get("args") or None)
        return {"messages": [dump(m) for m in r.messages]}
    if op == "complete":
        ref = cmd["ref"]
        if ref["type"] == "ref/prompt":
            ref = types.PromptReference(type="ref/prompt", name=ref["name"])
        else:
            ref = types.ResourceTemplateReference(type="ref/resource", uri=ref["uri"])
        r = await client.complete(ref, cmd["argument"], cmd.get("context"))
        return {"values": r.completion.values}
    raise ValueError(f"unknown op {op}")


async def main() -> None:
    mode, shim, socket = sys.argv[1], sys.argv[2], sys.argv[3]
    state = State()
    stdin = anyio.wrap_file(sys.stdin)
    # An `answer` before `init` may say the client cannot be asked at all.
    first = json.loads(await stdin.readline())
    if first["op"] == "answer":
        state.answer, state.reason = first["answer"], first.get("reason")
        print(json.dumps({"ok": True}), flush=True)
        first = None

    async def on_elicit(context, params):
        state.questions.append({"message": params.message, "schema": params.requested_schema})
        if state.answer == "accept":
            content = {"confirm": True}
            if state.reason is not None:
                content["reason"] = state.reason
            return types.ElicitResult(action="accept", content=content)
        if state.answer == "accept_no":
            return types.ElicitResult(action="accept", content={"confirm": False})
        return types.ElicitResult(action=state.answer)

    async def on_message(message) -> None:
        if isinstance(message, types.ResourceUpdatedNotification):
            state.updated(str(message.params.uri))

    client = Client(
        StdioServerParameters(command=shim, args=["--socket", socket]),
        mode=mode,
        elicitation_callback=None if state.answer == "none" else on_elicit,
        message_handler=on_message,
    )
    async with client, anyio.create_task_group() as tg:
        pending = [first] if first else []
        while True:
            if pending:
                cmd = pending.pop()
            else:
                line = await stdin.readline()
                if not line:
                    break
                cmd = json.loads(line)
            if cmd["op"] == "quit":
                break
            try:
                out = await run(client, state, tg, cmd)
            except MCPError as e:
                out = {"error": {"code": e.error.code, "message": e.error.message, "data": e.error.data}}
            print(json.dumps(out), flush=True)
        tg.cancel_scope.cancel()


if __name__ == "__main__":
    asyncio.run(main())
