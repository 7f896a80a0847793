import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');

/** The embedded directory every snippet a person copies names: one memory for the quick start, the clients, the CLI and the dashboard. */
const DEFAULT_DIRECTORY = 'pglite://~/.memsvc';

/** Where a person meets a ready-to-run embedded URL: the README, the user guides, the programs' help and their error hint. */
const SNIPPET_SOURCES = [
  'README.md',
  'distribution/memsvc/README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  'apps/server/src/server-help.ts',
  'apps/dashboard/src/dashboard-help.ts',
  'apps/cli/src/memsvc-program.ts',
  'apps/cli/src/memsvc-reindex-program.ts',
  'packages/config/src/load-config.ts',
];

/**
 * The embedded URLs that are not a directory someone runs on: the in-memory database, the
 * placeholder `<dir>`, and the table of URL forms in operations.md, which shows what a URL may be.
 */
const NOT_A_SNIPPET = /^pglite:\/\/(memory|<dir>|<directory>|)$/;

function embeddedUrlsIn(path: string): string[] {
  const text = readFileSync(join(root, path), 'utf8');
  return [...text.matchAll(/pglite:\/\/[^\s"'`)|,;]*/g)].map((match) => match[0]).filter((url) => !NOT_A_SNIPPET.test(url));
}

describe('one data directory everywhere', () => {
  it(`names ${DEFAULT_DIRECTORY} in every snippet, help text and hint (a relative directory makes a new, empty memory per folder)`, () => {
    const others = SNIPPET_SOURCES.filter((path) => path !== 'docs/operations.md')
      .flatMap((path) => embeddedUrlsIn(path).map((url) => `${path}: ${url}`))
      .filter((entry) => !entry.endsWith(`: ${DEFAULT_DIRECTORY}`));
    expect(others).toEqual([]);
    // And it is used: the README's quick start, its clients and its dashboard command.
    expect(embeddedUrlsIn('README.md').length).toBeGreaterThanOrEqual(4);
  });
});
