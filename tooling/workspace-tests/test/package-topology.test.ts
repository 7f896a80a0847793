import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');

interface Manifest {
  name: string;
  private?: boolean;
  publishConfig?: { access?: string };
  type?: string;
  sideEffects?: boolean;
  files?: string[];
  license?: string;
  exports?: Record<string, unknown>;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
}

function manifest(directory: string): Manifest {
  return JSON.parse(readFileSync(join(root, directory, 'package.json'), 'utf8')) as Manifest;
}

/** Publishable packages, their export keys, and the sibling packages each may depend on. */
const PUBLISHABLE = {
  'packages/core': { name: '@memsvc/core', exports: ['.', './package.json', './testing'], mayUse: [] },
  // Who may do what (keys, organizations, sessions, identities, rate limits, request origins) sits
  // on the kernel and below every adapter: nothing of the memory kernel needs it (issue 52).
  'packages/access': { name: '@memsvc/access', exports: ['.', './package.json'], mayUse: ['@memsvc/core'] },
  // The configuration checks database URLs, secrets, rate limits and trusted proxies with access's rules.
  'packages/config': { name: '@memsvc/config', exports: ['.', './package.json'], mayUse: ['@memsvc/core', '@memsvc/access'] },
  'packages/import-export': { name: '@memsvc/import-export', exports: ['.', './package.json'], mayUse: ['@memsvc/core'] },
  // store-pg implements access's store ports (keys, sessions, OAuth, organizations, identities, rate limits) as it does core's.
  'packages/store-pg': { name: '@memsvc/store-pg', exports: ['.', './package.json'], mayUse: ['@memsvc/core', '@memsvc/access'] },
  'packages/embeddings': { name: '@memsvc/embeddings', exports: ['.', './package.json'], mayUse: ['@memsvc/core'] },
  // Credentials and protocols over access's rules and stores.
  'packages/auth': { name: '@memsvc/auth', exports: ['.', './package.json', './testing'], mayUse: ['@memsvc/core', '@memsvc/access'] },
  // The admin tools compare adminToken with @memsvc/auth's constant-time check (DESIGN §1: auth sits below mcp-tools);
  // the tool catalogue is the vocabulary of MCP_TOOLS, so it lives with the configuration.
  'packages/mcp-tools': {
    name: '@memsvc/mcp-tools',
    exports: ['.', './package.json'],
    mayUse: ['@memsvc/core', '@memsvc/access', '@memsvc/auth', '@memsvc/config', '@memsvc/import-export'],
  },
} as const;

const APPS = { 'apps/server': '@memsvc/server', 'apps/worker': '@memsvc/worker', 'apps/cli': '@memsvc/cli' } as const;

describe('workspace layout (DESIGN.md §1)', () => {
  it.each(Object.entries(PUBLISHABLE))('%s is a publishable ESM package with a pinned name and exports', (directory, expected) => {
    const pkg = manifest(directory);
    expect(pkg.name).toBe(expected.name);
    expect(pkg.private).toBeUndefined();
    expect(pkg).toMatchObject({ type: 'module', sideEffects: false, files: ['dist'], license: 'Apache-2.0' });
    expect(Object.keys(pkg.exports ?? {}).sort()).toEqual([...expected.exports].sort());
    for (const [key, target] of Object.entries(pkg.exports ?? {})) {
      if (key === './package.json') continue;
      // `types` must come first or TypeScript's resolver may pick the JavaScript file.
      expect(Object.keys(target as object)[0], `${expected.name} ${key}`).toBe('types');
    }
    expect(existsSync(join(root, directory, 'README.md')), `${directory}/README.md`).toBe(true);
  });

  it.each(Object.entries(PUBLISHABLE))('%s depends only on the packages below it', (directory, expected) => {
    const ours = Object.keys(manifest(directory).dependencies ?? {}).filter((name) => name.startsWith('@memsvc/'));
    expect(ours.sort()).toEqual([...expected.mayUse].sort());
  });

  // Apps are published so the unscoped memsvc package can depend on them (docs/installation.md).
  it.each(Object.entries(APPS))('%s is an app named %s, published, with a README', (directory, name) => {
    const pkg = manifest(directory);
    expect(pkg).toMatchObject({ name, type: 'module', publishConfig: { access: 'public' } });
    expect(pkg.private).toBeUndefined();
    expect(existsSync(join(root, directory, 'README.md'))).toBe(true);
  });

  it('gathers every executable in the unscoped memsvc package, which depends on the apps alone', () => {
    const pkg = manifest('distribution/memsvc');
    expect(pkg).toMatchObject({ name: 'memsvc', type: 'module', files: ['bin'], publishConfig: { access: 'public' } });
    expect(Object.keys(pkg.bin ?? {}).sort()).toEqual(['memsvc', 'memsvc-dashboard', 'memsvc-reindex', 'memsvc-server', 'memsvc-worker']);
    expect(Object.keys(pkg.dependencies ?? {}).sort()).toEqual([
      '@memsvc/cli',
      '@memsvc/dashboard-app',
      '@memsvc/server',
      '@memsvc/worker',
    ]);
  });

  it('leaves the commands to the memsvc package: the apps export their entry modules and link no binaries of their own', () => {
    // A bin in an app would be linked twice under one name, and pnpm would try to link it before
    // the app's dist exists on a fresh clone.
    for (const directory of Object.keys(APPS)) expect(manifest(directory).bin, directory).toBeUndefined();
    expect(Object.keys(manifest('apps/cli').exports ?? {})).toEqual(expect.arrayContaining(['./memsvc', './memsvc-reindex']));
    expect(Object.keys(manifest('apps/worker').exports ?? {})).toEqual(expect.arrayContaining(['./memsvc-worker']));
    expect(Object.keys(manifest('apps/server').exports ?? {})).toEqual(expect.arrayContaining(['./memsvc-server']));
  });

  it('composes every app from @memsvc/runtime, and no app depends on another', () => {
    const uses = (directory: string) => Object.keys(manifest(directory).dependencies ?? {}).filter((name) => name.startsWith('@memsvc/'));
    const appNames: string[] = Object.values(APPS);
    for (const directory of Object.keys(APPS)) {
      expect(uses(directory), directory).toContain('@memsvc/runtime');
      expect(
        uses(directory).filter((name) => appNames.includes(name)),
        directory,
      ).toEqual([]);
    }
    expect(manifest('packages/runtime')).toMatchObject({ name: '@memsvc/runtime', type: 'module', publishConfig: { access: 'public' } });
    // The runtime composes the adapters (auth's key authenticator among them), never mcp-tools or an app.
    expect(uses('packages/runtime').sort()).toEqual([
      '@memsvc/access',
      '@memsvc/auth',
      '@memsvc/config',
      '@memsvc/core',
      '@memsvc/embeddings',
      '@memsvc/import-export',
      '@memsvc/store-pg',
    ]);
  });

  it('pins the package manager and the Node version for turbo and users', () => {
    const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      packageManager: string;
      engines: { node: string };
    };
    expect(rootManifest.packageManager).toMatch(/^pnpm@10\.34\./);
    expect(rootManifest.engines.node).toBe('>=20.11');
    // The image and CI install that same pnpm: the image's install runs offline and could not
    // fetch another one.
    const installed = (file: string) => [...readFileSync(join(root, file), 'utf8').matchAll(/npm i -g (pnpm@[\w.-]+)/g)].map((m) => m[1]);
    expect(installed('docker/Dockerfile')).toEqual([rootManifest.packageManager]);
    expect(installed('.ci/run')).toEqual([rootManifest.packageManager]);
  });
});
