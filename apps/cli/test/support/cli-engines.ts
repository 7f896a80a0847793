import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MemsvcStore, type OpenStoreOptions, openStore } from '@memsvc/store-pg';
import { afterAll, inject } from 'vitest';
import type {} from '../../../../tooling/vitest/postgres-global-setup.ts';
import { createTestDatabase, type TestDatabase } from '../../../../tooling/vitest/test-databases.ts';
import { testTemplates } from '../../../../tooling/vitest/test-templates.ts';

/** A database engine a CLI test file runs its commands against. */
export interface CliEngine {
  readonly name: 'pglite' | 'postgres';
  /** A fresh `DATABASE_URL`: a PGlite directory under the file's work directory (named by `label`), or a new PostgreSQL database. */
  url(label?: string): Promise<string>;
}

/**
 * A test file's scratch directory and its engines — PGlite always, PostgreSQL when the test run
 * has a cluster — all removed when the file ends. `prefix` names both the directory and the
 * PostgreSQL databases, so a leftover says which file made it.
 */
export function cliWorkspace(prefix: string): { readonly workDir: string; readonly engines: readonly CliEngine[] } {
  const workDir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const created: TestDatabase[] = [];
  afterAll(async () => {
    rmSync(workDir, { recursive: true, force: true });
    for (const database of created.splice(0)) await database.drop();
  });
  const pgUrl = inject('pgvectorTestUrl');
  const engines: CliEngine[] = [{ name: 'pglite', url: async (label = 'data') => `pglite://${join(workDir, label)}` }];
  if (pgUrl) {
    engines.push({
      name: 'postgres',
      url: async () => {
        const database = await createTestDatabase(pgUrl, prefix.replaceAll('-', '_'));
        created.push(database);
        return database.url;
      },
    });
  }
  return { workDir, engines };
}

/**
 * openStore as these tests use it beside the CLI: a new PGlite database starts from the test
 * run's template (MEMSVC_CACHE_DIR, set by tooling/vitest/preset.ts) instead of initdb.
 */
export function openTestStore(options: OpenStoreOptions): Promise<MemsvcStore> {
  return openStore({ ...testTemplates(), ...options });
}
