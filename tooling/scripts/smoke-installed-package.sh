#!/usr/bin/env bash
# Installs memsvc the way a user does — npm, from the release tarballs, in an empty directory
# outside the workspace — and uses it: the server on the embedded database over HTTP, one MCP
# round trip (create a memory, recall it), the other executables, then the CLI on the data the
# server left. Anything the packages forgot to ship or to declare fails here.
#
#   bash tooling/scripts/smoke-installed-package.sh             # runs pnpm release:pack first
#   bash tooling/scripts/smoke-installed-package.sh --no-pack   # uses release/ as it is
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
smoke_name=smoke-installed-package smoke_tag=smoke
source "$root/tooling/scripts/smoke-steps.sh"

if [ "${1:-}" != "--no-pack" ]; then
  step "pnpm release:pack"
  (cd "$root" && pnpm release:pack) || fail "pnpm release:pack failed"
fi
shopt -s nullglob
tarballs=("$root"/release/*.tgz)
[ ${#tarballs[@]} -gt 0 ] || fail "no tarballs in $root/release (run pnpm release:pack)"

work="$(mktemp -d "${TMPDIR:-/tmp}/memsvc-smoke.XXXXXX")"
case "$work/" in "$root"/*) fail "the scratch directory $work is inside the workspace" ;; esac
server_group=""
scope_registry=""
stop_server() {
  [ -n "$server_group" ] || return 0
  kill -TERM -- "-$server_group" 2>/dev/null || true
  # The server drains requests and closes PGlite; give it the 10 s grace and a little more.
  for _ in $(seq 1 150); do kill -0 -- "-$server_group" 2>/dev/null || break; sleep 0.1; done
  kill -KILL -- "-$server_group" 2>/dev/null || true
  server_group=""
}
cleanup() {
  stop_server
  [ -z "$scope_registry" ] || kill "$scope_registry" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work"

step "npm install of ${#tarballs[@]} tarballs into $work"
npm init -y >/dev/null
start_scope_registry
npm install --prefer-offline --no-audit --no-fund --loglevel=error --@memsvc:registry="$scope_registry_url" \
  "${tarballs[@]}" >npm-install.log 2>&1 || fail "npm install failed" npm-install.log
npm ls --all >npm-ls.log 2>&1 || fail "npm ls found missing or invalid dependencies" npm-ls.log
check_ours_from_tarballs "${#tarballs[@]}"

step "the executables answer"
# The links npm made in node_modules/.bin, which is what npx runs (npx itself is used for the
# server and the CLI below; each npx call costs 2–5 s of resolving the tree).
bin="$work/node_modules/.bin"
"$bin/memsvc" --help >cli-help.log 2>&1 || fail "memsvc --help failed" cli-help.log
grep -q 'Usage: memsvc' cli-help.log || fail "memsvc --help printed no usage" cli-help.log
"$bin/memsvc-reindex" --help >reindex-help.log 2>&1 || fail "memsvc-reindex --help failed" reindex-help.log
grep -q -- '--regenerate' reindex-help.log || fail "memsvc-reindex --help printed no flags" reindex-help.log
"$bin/memsvc-worker" --help >worker-help.log 2>&1 || fail "memsvc-worker --help failed" worker-help.log
grep -q 'Usage: memsvc-worker' worker-help.log || fail "memsvc-worker --help printed no usage" worker-help.log
# The dashboard has no --help: without DATABASE_URL it must load, refuse the configuration and exit 2.
status=0
env -u DATABASE_URL "$bin/memsvc-dashboard" >dashboard.log 2>&1 || status=$?
[ "$status" = 2 ] && grep -q DATABASE_URL dashboard.log || fail "memsvc-dashboard did not refuse a missing DATABASE_URL (exit $status)" dashboard.log

step "npx memsvc-server on pglite://$work/data over HTTP"
port="$(node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });')"
base="http://127.0.0.1:$port"
# setsid: the server (npx and its node child) is a process group of its own, stopped as one.
DATABASE_URL="pglite://$work/data" DEPLOYMENT_PROFILE=lite MCP_TRANSPORT=streamable-http HOST=127.0.0.1 PORT="$port" \
  EMBEDDING_PROVIDER=local MEMSVC_DEFAULT_USER_ID=smoke setsid npx --yes=false memsvc-server >server.log 2>&1 &
server_group=$!
for _ in $(seq 1 600); do
  curl -fsS "$base/health/ready" >health.json 2>/dev/null && break
  kill -0 "$server_group" 2>/dev/null || fail "memsvc-server exited before it was ready" server.log
  sleep 0.1
done
grep -q '"status":"ok"' health.json 2>/dev/null || fail "$base/health/ready did not report ok within 60 s" server.log
echo "healthy: $(cat health.json)"

# MCP over streamable HTTP (stateless, JSON responses): initialize, create_memory, recall.
mcp() {
  curl -fsS "$base/mcp" -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
    -H 'MCP-Protocol-Version: 2025-06-18' -d "$1"
}
mcp '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"smoke","version":"1"}}}' \
  >initialize.json || fail "MCP initialize failed" server.log
grep -q '"serverInfo"' initialize.json || fail "MCP initialize returned no serverInfo: $(cat initialize.json)"
mcp '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"create_memory","arguments":{"content":"The smoke test prefers tea over coffee.","type":"long-term"}}}' \
  >create.json || fail "MCP create_memory failed" server.log
mcp '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"recall","arguments":{"query":"what does the smoke test drink"}}}' \
  >recall.json || fail "MCP recall failed" server.log
node -e '
  const fs = require("node:fs");
  const result = (file) => {
    const reply = JSON.parse(fs.readFileSync(file, "utf8"));
    if (reply.error || reply.result?.isError) throw new Error(`${file}: ${JSON.stringify(reply.error ?? reply.result)}`);
    return reply.result.structuredContent ?? JSON.parse(reply.result.content[0].text);
  };
  const created = result("create.json");
  const recalled = result("recall.json");
  const found = recalled.results.some((hit) => hit.id === created.memory.id);
  if (!found) throw new Error(`recall did not return memory ${created.memory.id}: ${JSON.stringify(recalled)}`);
  console.log(`create_memory stored ${created.memory.id} (${created.outcome}); recall returned it among ${recalled.count}`);
' || fail "the MCP round trip did not return the memory it stored"

step "stop the server"
stop_server
grep -q '"msg":"stopped"' server.log || fail "memsvc-server did not shut down cleanly on SIGTERM" server.log

step "memsvc status on the data the server left"
DATABASE_URL="pglite://$work/data" EMBEDDING_PROVIDER=local npx --yes=false memsvc status --json >status.json 2>status.log ||
  fail "memsvc status failed" status.log
node -e '
  const status = JSON.parse(require("node:fs").readFileSync("status.json", "utf8"));
  if (!status.healthy || status.memories.ltm.live !== 1 || status.memories.ltm.withoutVector !== 0) {
    throw new Error(`expected a healthy database with one embedded long-term memory: ${JSON.stringify(status)}`);
  }
  console.log(`status: ${status.engine}, pgvector ${status.pgvector}, ${status.vectorSpace?.dimensions} dimensions, ltm ${status.memories.ltm.live}`);
' || fail "memsvc status did not see the memory"

step "passed in $(($(date +%s) - started)) s"
