#!/usr/bin/env bash
# Try ombi-mcp end to end: build, start the bundled sample Ombi (unless OMBI_URL
# is set: then your own Ombi and OMBI_AUTH_MODE/credentials are used), start
# ombi-mcpd on a temporary socket, and drive it through the ombi-mcp shim the
# way an MCP client does: initialize, tools/list, and a few read calls.
#
#   tests/try-it.sh                 # against the sample Ombi
#   OMBI_URL=http://ombi.lan:5000 OMBI_AUTH_MODE=api_key OMBI_API_KEY_FILE=~/.ombi-key tests/try-it.sh
#   OMBI_BUNDLES=core,moderation,administration tests/try-it.sh
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"

echo "== building (cargo build --features sample)" >&2
cargo build --quiet --features sample --bins

work="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

if [ -z "${OMBI_URL:-}" ]; then
  "$target/debug/ombi-sample" --listen 127.0.0.1:0 >"$work/sample.out" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do [ -s "$work/sample.out" ] && break; sleep 0.05; done
  OMBI_URL="$(head -n1 "$work/sample.out")"
  key="$(sed -n 's/.*API key: *\([^ ]*\).*/\1/p' "$work/sample.out")"
  printf '%s\n' "$key" >"$work/api-key"
  chmod 600 "$work/api-key"
  export OMBI_URL OMBI_AUTH_MODE=api_key OMBI_API_KEY_FILE="$work/api-key"
  echo "== sample Ombi at $OMBI_URL (api_key mode)" >&2
fi
export OMBI_BUNDLES="${OMBI_BUNDLES:-core,moderation,administration}"

"$target/debug/ombi-mcpd" --check-config
"$target/debug/ombi-mcpd" --socket "$work/mcp.sock" 2>"$work/daemon.log" &
pids+=($!)
for _ in $(seq 200); do [ -S "$work/mcp.sock" ] && break; sleep 0.05; done
echo "== ombi-mcpd listening on $work/mcp.sock; talking MCP through ombi-mcp" >&2

call() { # id tool args-json
  printf '{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"%s","arguments":%s}}\n' "$1" "$2" "$3"
}
{
  printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"try-it","version":"1"}}}'
  printf '%s\n' '{"jsonrpc":"2.0","method":"notifications/initialized"}'
  printf '%s\n' '{"jsonrpc":"2.0","id":2,"method":"tools/list"}'
  call 3 read_server '{"action":"status"}'
  call 4 read_search '{"query":"matrix"}'
  call 5 read_requests '{"action":"list","media":"movie","page":{"limit":3}}'
  call 6 read_search '{"query":""}'
  sleep 3
} | "$target/debug/ombi-mcp" --socket "$work/mcp.sock" | python3 -c "$(cat <<'PY'
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    mid, res, err = msg.get("id"), msg.get("result"), msg.get("error")
    if err:
        print("#%s JSON-RPC error %s: %s" % (mid, err["code"], err["message"]))
    elif "serverInfo" in res:
        info = res["serverInfo"]
        print("#%s initialize: %s %s, protocol %s" % (mid, info["name"], info["version"], res["protocolVersion"]))
    elif "tools" in res:
        names = [t["name"] for t in res["tools"]]
        print("#%s tools/list: %d tools: %s" % (mid, len(names), ", ".join(names)))
    else:
        sc = res.get("structuredContent", {})
        body = json.dumps(sc.get("data") if sc.get("ok") else sc.get("error"))
        more = "..." if len(body) > 400 else ""
        print("#%s %s: ok=%s isError=%s %s%s" % (mid, sc.get("operation"), sc.get("ok"), res.get("isError"), body[:400], more))
PY
)"
echo "== daemon log:" >&2
cat "$work/daemon.log" >&2
