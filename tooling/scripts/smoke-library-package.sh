#!/usr/bin/env bash
# Uses memsvc as a library the way another agent's code does: an npm project of its own, outside
# the workspace, that installs @memsvc/core, @memsvc/embeddings and @memsvc/store-pg (and the
# @memsvc packages they depend on, no more) from the release tarballs, then runs the README's
# "Embedding memsvc in your own agent" example — taken from README.md, so the two cannot drift —
# as an .mjs file with node, and type-checks it as a .ts file with tsc against the installed
# packages' own declarations. A dependency the packed manifests forgot, or one only the workspace
# provides, fails here.
#
#   bash tooling/scripts/smoke-library-package.sh             # runs pnpm release:pack first
#   bash tooling/scripts/smoke-library-package.sh --no-pack   # uses release/ as it is
#   KEEP_SMOKE_DIR=1 bash ...                                  # leaves the project in /tmp to look at
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
smoke_name=smoke-library-package smoke_tag=library
source "$root/tooling/scripts/smoke-steps.sh"

if [ "${1:-}" != "--no-pack" ]; then
  step "pnpm release:pack"
  (cd "$root" && pnpm release:pack) || fail "pnpm release:pack failed"
fi
# The packages the README's example imports; library-tarballs.mjs adds what they need at runtime.
listing="$(node "$root/tooling/scripts/library-tarballs.mjs" "$root/release" @memsvc/core @memsvc/embeddings @memsvc/store-pg)" ||
  fail "the library's tarballs are missing or not installable (run pnpm release:pack)"
mapfile -t tarballs <<<"$listing"

work="$(mktemp -d "${TMPDIR:-/tmp}/memsvc-library.XXXXXX")"
case "$work/" in "$root"/*) fail "the scratch directory $work is inside the workspace" ;; esac
scope_registry=""
cleanup() {
  [ -z "$scope_registry" ] || kill "$scope_registry" 2>/dev/null || true
  if [ -n "${KEEP_SMOKE_DIR:-}" ]; then echo "kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
cd "$work"

step "the example from README.md (and its copy in docs/installation.md)"
node -e '
  const fs = require("node:fs");
  // The first ts block after the heading, in the file as written.
  const block = (file, heading) => {
    const text = fs.readFileSync(file, "utf8");
    const start = text.indexOf(`## ${heading}\n`);
    return start < 0 ? undefined : /```ts\n([\s\S]*?)```/.exec(text.slice(start))?.[1];
  };
  const example = block(process.argv[1], "Embedding memsvc in your own agent");
  const promised = /\/\/ (created duplicate .*)/.exec(example ?? "")?.[1];
  if (!example || !promised) throw new Error("README.md has no library example saying what it prints");
  if (block(process.argv[2], "Use the library from your project") !== example) throw new Error("the example in docs/installation.md differs from the one in README.md");
  fs.writeFileSync("example.mjs", example);
  fs.writeFileSync("example.ts", example);
  fs.writeFileSync("promised.txt", `${promised}\n`);
' "$root/README.md" "$root/docs/installation.md" || fail "README.md has no example to run, or docs/installation.md a different copy of it"
echo "it promises: $(cat promised.txt)"

step "npm install of ${#tarballs[@]} tarballs ($(basename -a "${tarballs[@]}" | paste -sd ' ')) into $work"
npm init -y >/dev/null
# What a TypeScript user's project holds besides memsvc: ES modules, and the compiler and Node's
# types (the workspace's versions) to check the example with.
typescript="$(node -p "require('$root/node_modules/typescript/package.json').version")"
node_types="$(node -p "require('$root/node_modules/@types/node/package.json').version")"
npm pkg set type=module "devDependencies.typescript=$typescript" "devDependencies[@types/node]=$node_types"
start_scope_registry
npm install --prefer-offline --no-audit --no-fund --loglevel=error --@memsvc:registry="$scope_registry_url" \
  "${tarballs[@]}" >npm-install.log 2>&1 || fail "npm install failed" npm-install.log
npm ls --all >npm-ls.log 2>&1 || fail "npm ls found missing or invalid dependencies" npm-ls.log
check_ours_from_tarballs "${#tarballs[@]}"

step "node example.mjs, and tsc --noEmit example.ts beside it"
# The two are independent; side by side they take the time of the slower (tsc).
node example.mjs >output.txt 2>example.log &
example=$!
# tsc: strict, and skipLibCheck off, so that a declaration of ours importing a package it does not
# depend on fails here instead of quietly typing as any. PGlite's own declarations name
# Emscripten's global types without depending on @types/emscripten (a devDependency of theirs):
# those errors are PGlite's, and a project with skipLibCheck on (tsc --init's default, and the
# workspace's) never sees them.
cat >tsconfig.json <<'JSON'
{
  "compilerOptions": {
    "target": "ES2022",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "types": ["node"],
    "strict": true,
    "noEmit": true,
    "skipLibCheck": false
  },
  "files": ["example.ts"]
}
JSON
node_modules/.bin/tsc -p tsconfig.json --listFiles >tsc.log 2>&1 || true
wait "$example" || fail "the example failed" example.log
diff -u promised.txt output.txt || fail "the example printed something else than it promises"
echo "node example.mjs printed: $(cat output.txt)"
grep -q '^/' tsc.log || fail "tsc did not run" tsc.log
if grep 'error TS' tsc.log | grep -v '^node_modules/@electric-sql/pglite/' >tsc-errors.log; then
  fail "tsc found errors in the example or in our declarations" tsc-errors.log
fi
# Each package's types come from its installed dist/, not from anything outside the project.
for name in core embeddings store-pg; do
  grep -q "^$work/node_modules/@memsvc/$name/dist/index.d.ts$" tsc.log || fail "tsc did not take @memsvc/$name's types from node_modules" tsc.log
done
echo "tsc $typescript: no errors; @memsvc/core, embeddings and store-pg typed from node_modules/@memsvc/*/dist"

step "passed in $(($(date +%s) - started)) s on Node $(node --version)"
