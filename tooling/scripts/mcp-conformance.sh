#!/usr/bin/env bash
# The MCP project's own conformance suite (@modelcontextprotocol/conformance, server scenarios)
# against memsvc-server as the README's quick start runs it: lite profile, embedded database,
# streamable HTTP bound to loopback. Runs on Node 22 (the suite needs it) and fails when any
# scenario listed here fails. The suite's other server scenarios test fixture tools, prompts and
# resources of its reference server ("test_image_content", "test://static-text", sampling,
# elicitation), which memsvc does not have; docs/testing.md lists what is run and why.
#
#   bash tooling/scripts/mcp-conformance.sh          # after pnpm build
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
suite="@modelcontextprotocol/conformance@0.1.16"
scenarios=(server-initialize ping tools-list tools-call-error dns-rebinding-protection)

work="$(mktemp -d "${TMPDIR:-/tmp}/memsvc-conformance.XXXXXX")"
server_pid=""
cleanup() {
  [ -z "$server_pid" ] || kill -TERM "$server_pid" 2>/dev/null || true
  [ -z "$server_pid" ] || wait "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# PORT=0: the kernel picks a free port; the server's first log line says which.
DATABASE_URL=pglite://memory DEPLOYMENT_PROFILE=lite MCP_TRANSPORT=streamable-http HOST=127.0.0.1 PORT=0 \
  EMBEDDING_PROVIDER=local LOG_LEVEL=info node "$root/apps/server/dist/memsvc-server.js" 2>"$work/server.log" &
server_pid=$!
url=""
for _ in $(seq 1 300); do
  url="$(grep -o '"mcp":"http://[^"]*"' "$work/server.log" | head -n 1 | cut -d'"' -f4 || true)"
  [ -n "$url" ] && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; echo "memsvc-server exited before listening" >&2; exit 1; }
  sleep 0.1
done
[ -n "$url" ] || { cat "$work/server.log" >&2; echo "memsvc-server did not start within 30 s" >&2; exit 1; }
# The suite's DNS-rebinding scenario needs a localhost URL, as a user's client would use.
url="${url/127.0.0.1/localhost}"
echo "memsvc-server at $url"

failed=()
cd "$work"
for scenario in "${scenarios[@]}"; do
  if npx -y -p node@22 -p "$suite" -- conformance server --url "$url" --scenario "$scenario" >"$work/$scenario.log" 2>&1 &&
    grep -q ' 0 failed' "$work/$scenario.log"; then
    echo "passed: $scenario"
  else
    failed+=("$scenario")
    echo "FAILED: $scenario" >&2
    cat "$work/$scenario.log" >&2
  fi
done
[ ${#failed[@]} -eq 0 ] || { echo "conformance scenarios failed: ${failed[*]}" >&2; exit 1; }
echo "all ${#scenarios[@]} conformance scenarios passed"
