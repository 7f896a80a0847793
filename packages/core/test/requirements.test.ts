/// <reference types="node" />
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { REQUIREMENTS } from './requirements.js';

const testSources = readdirSync(import.meta.dirname)
  .filter((file) => file.endsWith('.test.ts') && file !== 'requirements.test.ts')
  .map((file) => readFileSync(join(import.meta.dirname, file), 'utf8'))
  .join('\n');
// Only a test title counts: `it(verifies('ID', …))`, not a mention in a comment or a skipped test.
const named = new Set([...testSources.matchAll(/\bit\(\s*verifies\('([A-Z0-9-]+)'/g)].map((match) => match[1] ?? ''));

it('every rule in requirements.ts is verified by at least one test', () => {
  const unverified = Object.keys(REQUIREMENTS).filter((id) => !named.has(id));
  expect(unverified).toEqual([]);
});

it('every rule a test names is listed in requirements.ts', () => {
  const unknown = [...named].filter((id) => !(id in REQUIREMENTS));
  expect(unknown).toEqual([]);
});
