#!/usr/bin/env bash
# Builds memsvc's image from docker/Dockerfile and uses it as a user of `docker run` does: the
# server answers /health, runs as the unprivileged `node` user, stores a memory through MCP in
# the /data volume, stops cleanly on SIGTERM, and finds the memory again after a restart.
#
#   bash tooling/scripts/smoke-docker-image.sh
#
# It builds with Podman (daemonless, from Debian's packages: installed when missing and run as
# root; otherwise the check is skipped with a warning, as .ci/run does for Chromium).
#
# NODE_IMAGE names the base image, passed to the Dockerfile's build argument. Unset, the check
# makes a stand-in for node:20-bookworm-slim, for machines that reach Debian's packages and the
# npm registry but no registry of images: Debian bookworm (debootstrap, from the mirror of this
# machine's apt sources) with this machine's Node 20 and npm, the `node` user (uid 1000) and,
# when NODE_EXTRA_CA_CERTS is set here, the same certificates, so npm inside the build trusts
# what it trusts here.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
smoke_name=smoke-docker-image smoke_tag=image
source "$root/tooling/scripts/smoke-steps.sh"
skip() {
  printf '\nWARNING: smoke-docker-image SKIPPED: %s\n' "$1" >&2
  exit 0
}

step "podman"
if ! command -v podman >/dev/null 2>&1 || ! command -v runc >/dev/null 2>&1 || { [ -z "${NODE_IMAGE:-}" ] && ! command -v debootstrap >/dev/null 2>&1; }; then
  [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 || skip "podman, runc and debootstrap are missing and cannot be installed here (not root on Debian)"
  install_podman() { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends podman runc debootstrap >/dev/null; }
  install_podman 2>/dev/null || { apt-get update -qq && install_podman; } || skip "podman could not be installed from Debian's packages"
fi
podman --version

work="$(mktemp -d "${TMPDIR:-/tmp}/memsvc-image.XXXXXX")"
tag="localhost/memsvc-smoke:$$"
container="memsvc-smoke-$$"
volume="memsvc-smoke-data-$$"
cleanup() {
  podman rm -f "$container" >/dev/null 2>&1 || true
  podman volume rm -f "$volume" >/dev/null 2>&1 || true
  podman rmi -f "$tag" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

base="${NODE_IMAGE:-}"
if [ -z "$base" ]; then
  base="localhost/memsvc-node-base:20"
  if podman image exists "$base"; then
    step "base image $base (made earlier)"
  else
    step "base image $base: Debian bookworm and this machine's Node"
    [ "$(node -p 'process.versions.node.split(".")[0]')" = 20 ] || fail "the stand-in base image takes this machine's Node, which must be 20 (got $(node --version))"
    # The mirror this machine's apt already uses (deb822 sources or a sources.list line).
    mirror="$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -v security | head -n 1)"
    [ -n "$mirror" ] || mirror="$(grep -hs '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list | awk '{print $2}' | grep -v security | head -n 1)"
    [ -n "$mirror" ] || fail "no Debian mirror in this machine's apt sources"
    rootfs="$work/rootfs"
    debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 || fail "debootstrap failed" "$work/debootstrap.log"
    npm_dir="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"
    cp "$(command -v node)" "$rootfs/usr/local/bin/node"
    mkdir -p "$rootfs/usr/local/lib/node_modules"
    cp -a "$npm_dir" "$rootfs/usr/local/lib/node_modules/npm"
    ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
    ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
    chroot "$rootfs" groupadd --gid 1000 node
    chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
    changes=(--change 'CMD ["node"]')
    if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
      mkdir -p "$rootfs/etc/memsvc-image"
      cp "$NODE_EXTRA_CA_CERTS" "$rootfs/etc/memsvc-image/extra-ca-certs.pem"
      changes+=(--change 'ENV NODE_EXTRA_CA_CERTS=/etc/memsvc-image/extra-ca-certs.pem')
    fi
    rm -rf "$rootfs/var/cache/apt/archives/"*.deb "$rootfs/var/lib/apt/lists/"*
    tar -C "$rootfs" -c . | podman import "${changes[@]}" - "$base" >/dev/null || fail "podman import of the base image failed"
    rm -rf "$rootfs"
  fi
fi

step "podman build -f docker/Dockerfile (base $base)"
# The build context is the repository's files as git sees them (what a fresh clone holds), so
# nothing built or installed here can stand in for a step the Dockerfile forgot.
context="$work/context"
mkdir -p "$context"
(cd "$root" && git ls-files -z --cached --others --exclude-standard | xargs -0 -r tar -c) | tar -x -C "$context"
# Chroot isolation and the host's network: this machine gives containers no cgroup controllers or
# bridge; the image is the same one a daemon would build.
podman build --format docker --isolation=chroot --network=host --build-arg "NODE_IMAGE=$base" \
  -f "$context/docker/Dockerfile" -t "$tag" "$context" >"$work/build.log" 2>&1 || fail "podman build failed" "$work/build.log"
tail -n 1 "$work/build.log"

port="$(node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')"
base_url="http://127.0.0.1:${port}"
run_container() {
  podman run --runtime runc --cgroup-manager cgroupfs --network=host \
    --ulimit "nofile=$(ulimit -n):$(ulimit -Hn)" --ulimit nproc=4096:4096 \
    --health-interval disable -d --name "$container" -v "$volume:/data" \
    -e PORT="$port" -e HOST=127.0.0.1 -e EMBEDDING_PROVIDER=local -e MEMSVC_DEFAULT_USER_ID=image-smoke \
    "$tag" >/dev/null 2>>"$work/podman.log" || fail "podman run failed" "$work/podman.log"
}
wait_healthy() {
  for _ in $(seq 1 120); do
    if curl -sf "$base_url/health" >"$work/health.json" 2>/dev/null; then return 0; fi
    [ "$(podman inspect -f '{{.State.Running}}' "$container")" = true ] || { podman logs "$container" >"$work/container.log" 2>&1; fail "the container exited" "$work/container.log"; }
    sleep 0.5
  done
  podman logs "$container" >"$work/container.log" 2>&1
  fail "no answer from $base_url/health in 60 s" "$work/container.log"
}
call_tool() {
  curl -sf -X POST "$base_url/mcp" -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' \
    -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"$1\",\"arguments\":$2}}"
}

step "podman run: /health, the user, a memory in /data"
podman volume create "$volume" >/dev/null
run_container
wait_healthy
grep -q '"status":"ok"' "$work/health.json" || fail "/health: $(cat "$work/health.json")"
grep -q '"engine":"pglite"' "$work/health.json" || fail "/health names no embedded database: $(cat "$work/health.json")"
[ "$(podman exec "$container" id -un)" = node ] || fail "the server does not run as the node user"
# The image's HEALTHCHECK, run once (its timer is off: this machine has no systemd to run it).
podman healthcheck run "$container" >/dev/null || fail "the image's HEALTHCHECK reports the server unhealthy"
created="$(call_tool create_memory '{"content":"The container keeps its memories in the data volume","type":"long-term"}')" || fail "create_memory failed"
# result_field PATH: the field at PATH (dot-separated) of a tool's structured result read from stdin; empty when absent.
result_field() {
  node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
    const result = JSON.parse(s).result;
    console.log(result?.isError ? "" : process.argv[1].split(".").reduce((at, key) => at?.[key], result?.structuredContent) ?? "");
  })' "$1"
}
memory_id="$(printf '%s' "$created" | result_field memory.id)"
[ -n "$memory_id" ] || fail "create_memory returned no memory: $created"

step "SIGTERM, restart on the same volume, recall"
podman stop -t 30 "$container" >/dev/null 2>>"$work/podman.log"
[ "$(podman inspect -f '{{.State.ExitCode}}' "$container")" = 0 ] || { podman logs "$container" >"$work/container.log" 2>&1; fail "the server did not exit 0 on SIGTERM" "$work/container.log"; }
podman start "$container" >/dev/null 2>>"$work/podman.log" || fail "podman start failed" "$work/podman.log"
wait_healthy
recalled="$(call_tool recall '{"query":"where does the container keep memories","limit":3}')" || fail "recall failed"
first="$(printf '%s' "$recalled" | result_field results.0.id)"
[ "$first" = "$memory_id" ] || fail "recall after the restart did not find memory $memory_id first: $recalled"

step "done: the image builds, serves, keeps its data across a restart and stops cleanly"
