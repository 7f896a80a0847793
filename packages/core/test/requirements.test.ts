/// <reference types="node" />
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { REQUIREMENTS } from './requirements.js';

/** Every test file of every package and app: a rule may be proven wherever its code lives. */
const workspace = join(import.meta.dirname, '..', '..', '..');
function testFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const path = join(directory, entry);
    if (entry === 'node_modules' || entry === 'dist') return [];
    if (statSync(path).isDirectory()) return testFiles(path);
    return entry.endsWith('.test.ts') && entry !== 'requirements.test.ts' ? [path] : [];
  });
}
const testSources = ['packages', 'apps']
  .flatMap((group) => readdirSync(join(workspace, group)).map((name) => join(workspace, group, name, 'test')))
  .filter((directory) => statSync(directory, { throwIfNoEntry: false })?.isDirectory())
  .flatMap(testFiles)
  .map((file) => readFileSync(file, 'utf8'))
  .join('\n');
// Only a test title counts, not a mention in a comment: `it(verifies('ID', …))` (or
// `it.skipIf(…)(verifies(…))`, whose title says when it skips), or a title that
// starts with the ids it proves, `it('ID: …')` / `it('ID-1, ID-2: …')`.
const viaHelper = [...testSources.matchAll(/\bit(?:\.(?:skipIf|runIf)\([^)]*\))?\(\s*verifies\(\s*'([A-Z0-9-]+)'/g)].map(
  (match) => match[1] ?? '',
);
const viaTitle = [...testSources.matchAll(/\bit\(\s*'([A-Z][A-Z0-9]*-[A-Z0-9-]+(?:, [A-Z][A-Z0-9]*-[A-Z0-9-]+)*): /g)].flatMap((match) =>
  (match[1] ?? '').split(', '),
);
const named = new Set([...viaHelper, ...viaTitle]);

it('every rule in requirements.ts is verified by at least one test, in any package', () => {
  const unverified = Object.keys(REQUIREMENTS).filter((id) => !named.has(id));
  expect(unverified).toEqual([]);
});

it('every rule a test names is listed in requirements.ts', () => {
  const unknown = [...named].filter((id) => !(id in REQUIREMENTS));
  expect(unknown).toEqual([]);
});

it('finds the rules proven outside core (the scan reaches every package)', () => {
  for (const id of ['R-DUP-RACE', 'R-MERGE-3', 'R-JOB-1']) expect(named.has(id), id).toBe(true);
});
