# The progress and failure lines of the smoke scripts, and the npm steps those that install the
# release tarballs share, sourced by them after setting smoke_name (the script, in a failure line)
# and smoke_tag (the prefix of a step line).
# shellcheck shell=bash
started=$(date +%s)
step() { printf '\n--- %s: %s (%ss)\n' "$smoke_tag" "$1" "$(($(date +%s) - started))"; }
# fail MESSAGE [LOG]: says what failed, shows the end of LOG when there is one, and exits 1.
fail() {
  printf '\n%s: FAILED: %s\n' "$smoke_name" "$1" >&2
  [ -n "${2:-}" ] && [ -f "$2" ] && { echo "--- last lines of $2:" >&2; tail -n 40 "$2" >&2; }
  exit 1
}

# start_scope_registry: a stand-in npm registry on loopback that answers 404 to every request, for
# the @memsvc scope (npm install --@memsvc:registry="$scope_registry_url"), as the public one may
# not know our packages: whatever npm installs of ours must then come from the tarballs. (npm does
# ask it about a few of our names while it resolves the tarballs' own dependencies; the requests
# are kept in scope-registry.log, in the current directory.) Sets scope_registry (its pid, for the
# caller's cleanup) and scope_registry_url.
start_scope_registry() {
  node -e '
    const server = require("node:http").createServer((request, response) => {
      console.error(request.url);
      response.writeHead(404, { "content-type": "application/json" }).end("{\"error\":\"Not found\"}");
    });
    server.listen(0, "127.0.0.1", () => console.log(server.address().port));
  ' >scope-registry.port 2>scope-registry.log &
  scope_registry=$!
  for _ in $(seq 1 50); do [ -s scope-registry.port ] && break; sleep 0.1; done
  [ -s scope-registry.port ] || fail "the stand-in registry did not start"
  scope_registry_url="http://127.0.0.1:$(cat scope-registry.port)/"
}

# check_ours_from_tarballs COUNT: the npm project in the current directory holds exactly COUNT
# packages of ours, each once, at the top, resolved from its tarball (no copy from a registry).
check_ours_from_tarballs() {
  node -e '
    const lock = require("./package-lock.json");
    const ours = Object.entries(lock.packages).filter(([path]) => /(^|\/)node_modules\/(memsvc|@memsvc\/[^/]+)$/.test(path));
    const wrong = ours.filter(([path, entry]) => path.split("node_modules/").length !== 2 || !String(entry.resolved).startsWith("file:"));
    for (const [path, entry] of wrong) console.error(`${path} resolved from ${entry.resolved}`);
    if (wrong.length > 0 || ours.length !== Number(process.argv[1])) {
      console.error(`expected ${process.argv[1]} packages of ours, each once and from a tarball; found ${ours.length}`);
      process.exit(1);
    }
    console.log(`${ours.length} memsvc packages, each installed once, from its tarball`);
  ' "$1" || fail "npm did not resolve the memsvc packages to the tarballs"
  echo "npm asked the stand-in @memsvc registry (404 to all) for: $(sort -u scope-registry.log | tr '\n' ' ')"
}
