#!/usr/bin/env node
// pnpm release:pack: the tarball of every publishable workspace package, in release/ at the
// repository root (emptied first), exactly as `pnpm publish` would upload it. pnpm pack rewrites
// the workspace: and catalog: ranges to real versions, which npm pack would not. Each tarball is
// then checked as a user would receive it (release-pack-checks.mjs), so a missing build, a file
// left out of `files` or an undeclared dependency fails here rather than on someone's machine.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkTarball } from './release-pack-checks.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const release = join(root, 'release');

/** Publishable = not private, by the manifests themselves rather than by folder. */
function publishablePackages() {
  const listing = execFileSync('pnpm', ['-r', 'ls', '--depth', '-1', '--json'], { cwd: root, encoding: 'utf8' });
  return JSON.parse(listing).filter((pkg) => pkg.private === false);
}

rmSync(release, { recursive: true, force: true });
mkdirSync(release);

const packages = publishablePackages();
for (const pkg of packages) {
  execFileSync('pnpm', ['pack', '--pack-destination', release], { cwd: pkg.path, stdio: ['ignore', 'ignore', 'inherit'] });
}

const tarballs = readdirSync(release).filter((file) => file.endsWith('.tgz'));
if (tarballs.length !== packages.length) {
  throw new Error(`release-pack: ${packages.length} packages but ${tarballs.length} tarballs in release/`);
}

const problems = tarballs.flatMap((file) => checkTarball(join(release, file)));
for (const file of tarballs.sort()) {
  const kib = statSync(join(release, file)).size / 1024;
  console.log(`${file.padEnd(40)} ${kib.toFixed(0).padStart(6)} KiB`);
}
if (problems.length > 0) {
  console.error(`\nrelease-pack: the tarballs are not fit to publish:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(`\n${tarballs.length} tarballs in release/`);
