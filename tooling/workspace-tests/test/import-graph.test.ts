import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCircles, lineCount, readModules, sourceFiles } from './import-graph.js';

const root = join(import.meta.dirname, '..', '..', '..');
const PACKAGES = ['auth', 'config', 'core', 'dashboard', 'embeddings', 'import-export', 'mcp-tools', 'runtime', 'store-pg'];
const APPS = ['cli', 'dashboard', 'server', 'worker'];
const APP_PACKAGES = ['@memsvc/cli', '@memsvc/dashboard-app', '@memsvc/server', '@memsvc/worker'];
const sourcesOf = (directory: string) => join(root, directory, 'src');

// The shape docs/architecture.md describes: arrows point down, and nothing leads back to where it came from.
describe('the import graph (docs/architecture.md)', () => {
  it.each([
    ...PACKAGES.map((name) => `packages/${name}`),
    ...APPS.map((name) => `apps/${name}`),
  ])('%s has no import circle', (directory) => {
    expect(importCircles(readModules(sourcesOf(directory)), root)).toEqual([]);
  });

  it('core, the kernel, imports no other package of the workspace: configuration and formats sit above it', () => {
    const outward = readModules(sourcesOf('packages/core')).flatMap((module) =>
      module.packageImports.filter((name) => name.startsWith('@memsvc/')).map((name) => `${relative(root, module.file)} → ${name}`),
    );
    expect(outward).toEqual([]);
  });

  it("core's domain imports only the domain and the error type: no port, no engine, no test double", () => {
    const domain = join(sourcesOf('packages/core'), 'domain');
    const allowed = [domain, join(sourcesOf('packages/core'), 'errors')];
    const arrows = readModules(domain).flatMap((module) =>
      module.localImports
        .filter((target) => !allowed.some((directory) => target.startsWith(`${directory}/`)))
        .map((target) => `${relative(root, module.file)} → ${relative(root, target)}`),
    );
    expect(arrows).toEqual([]);
  });

  it('no app imports another app, by name or by path', () => {
    const arrows = APPS.flatMap((app) =>
      readModules(sourcesOf(`apps/${app}`)).flatMap((module) => [
        ...module.packageImports.filter((name) => APP_PACKAGES.some((other) => name === other || name.startsWith(`${other}/`))),
        ...module.localImports
          .filter((target) => !target.startsWith(`${join(root, 'apps', app)}/`))
          .map((target) => relative(root, target)),
      ]),
    );
    expect(arrows).toEqual([]);
  });

  it('a package over 6,000 lines has its reason in docs/architecture.md', () => {
    const architecture = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
    const oversized = PACKAGES.filter((name) => lineCount(sourceFiles(sourcesOf(`packages/${name}`))) > 6_000);
    const unexplained = oversized.filter(
      (name) => !new RegExp(`^- \`@memsvc/${name}\`.*\\bis over 6,000 lines\\b`, 'm').test(architecture),
    );
    expect(unexplained).toEqual([]);
  });
});
