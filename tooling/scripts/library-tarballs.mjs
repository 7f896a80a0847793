#!/usr/bin/env node
// node tooling/scripts/library-tarballs.mjs <release dir> <package>...: prints the paths of the
// tarballs an npm project needs to use the named @memsvc packages — theirs and those of every
// @memsvc package they depend on at runtime, read from the packed manifests (what npm will read),
// not from the workspace's. Fails when one of those has no tarball (a private package, or one
// release:pack skipped) or keeps a range only the workspace understands: a user could not install it.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const RUNTIME_FIELDS = ['dependencies', 'optionalDependencies', 'peerDependencies'];
const WORKSPACE_RANGE = /^(workspace|catalog|link|file):/;

const [releaseDir, ...wanted] = process.argv.slice(2);
if (releaseDir === undefined || wanted.length === 0) {
  console.error('usage: library-tarballs.mjs <release dir> <package>...');
  process.exit(2);
}

/** Package name → { tarball, manifest }, for every tarball in the release directory. */
const packed = new Map(
  readdirSync(releaseDir)
    .filter((file) => file.endsWith('.tgz'))
    .map((file) => {
      const tarball = join(releaseDir, file);
      const manifest = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));
      return [manifest.name, { tarball, manifest }];
    }),
);

const problems = [];
const needed = new Set();
const pending = [...wanted];
while (pending.length > 0) {
  const name = pending.pop();
  if (needed.has(name)) continue;
  const entry = packed.get(name);
  if (entry === undefined) {
    problems.push(`${name} is needed but has no tarball in ${releaseDir}`);
    continue;
  }
  needed.add(name);
  for (const field of RUNTIME_FIELDS) {
    for (const [dependency, range] of Object.entries(entry.manifest[field] ?? {})) {
      if (WORKSPACE_RANGE.test(range)) problems.push(`${name}: ${field}.${dependency} is "${range}", which only the workspace resolves`);
      if (dependency.startsWith('@memsvc/') || dependency === 'memsvc') pending.push(dependency);
    }
  }
}

if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
for (const name of [...needed].sort()) console.log(packed.get(name).tarball);
