#!/usr/bin/env bash
# Look at the MCP Apps views (docs/apps.md) as a person would: build, start
# the bundled sample Ombi and ombi-mcpd on a temporary socket, and serve the
# test host (tests/apps/: the extension's AppBridge, bundled by esbuild) on
# localhost, printing its URL. Open it in a browser, pick a tool call and a
# theme, and Show: the daemon's own ui:// view renders the real result; its
# Request, Approve and Deny buttons call the daemon through the host.
#
#   tests/try-views.sh              # http://127.0.0.1:8765/
#   PORT=9000 tests/try-views.sh
# Needs node and npm (the host's packages are installed into tests/apps/ on
# first use, as .ci/run does).
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"

echo "== building (cargo build --features sample)" >&2
cargo build --quiet --features sample --bins
[ -d tests/apps/node_modules ] || npm ci --prefix tests/apps --no-audit --no-fund >&2

work="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

"$target/debug/ombi-sample" --listen 127.0.0.1:0 >"$work/sample.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -s "$work/sample.out" ] && break; sleep 0.05; done
key="$(sed -n 's/.*API key: *\([^ ]*\).*/\1/p' "$work/sample.out")"
printf '%s\n' "$key" >"$work/api-key"
chmod 600 "$work/api-key"
export OMBI_URL="$(head -n1 "$work/sample.out")" OMBI_AUTH_MODE=api_key OMBI_API_KEY_FILE="$work/api-key"
export OMBI_BUNDLES="${OMBI_BUNDLES:-core,moderation}"
echo "== sample Ombi at $OMBI_URL" >&2

"$target/debug/ombi-mcpd" --socket "$work/mcp.sock" 2>"$work/daemon.log" &
pids+=($!)
for _ in $(seq 200); do [ -S "$work/mcp.sock" ] && break; sleep 0.05; done
echo "== ombi-mcpd on $work/mcp.sock (bundles $OMBI_BUNDLES); Ctrl-C stops everything" >&2

node tests/apps/run.mjs serve --socket "$work/mcp.sock" --port "${PORT:-8765}" &
pids+=($!)
wait "${pids[-1]}"
