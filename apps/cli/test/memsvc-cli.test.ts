import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HNSW_SHARD_INDEX_NAMES, KNOWN_MIGRATIONS, migrateUpTo, openDatabase, VECTOR_SHARDS } from '@memsvc/store-pg';
import { sql } from 'kysely';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { verifies } from '../../../packages/core/test/requirements.js';
import type {} from '../../../tooling/vitest/postgres-global-setup.ts';
import { createTestDatabase, type TestDatabase } from '../../../tooling/vitest/test-databases.ts';
import { type Run, runExecutable } from './support/run-executable.js';

const cli = fileURLToPath(new URL('../dist/memsvc.js', import.meta.url));
const workDir = mkdtempSync(join(tmpdir(), 'memsvc-cli-'));
const createdDatabases: TestDatabase[] = [];
afterAll(async () => {
  rmSync(workDir, { recursive: true, force: true });
  for (const database of createdDatabases.splice(0)) await database.drop();
});

/** Runs the built CLI as an operator would, with only the given environment. */
function memsvc(args: string[], env: Record<string, string>): Promise<Run> {
  return runExecutable(cli, args, env, workDir);
}

describe('memsvc CLI', () => {
  it('lists its commands with --help', async () => {
    const run = await memsvc(['--help'], {});
    expect(run.code).toBe(0);
    for (const command of ['migrate', 'status', 'config', 'keys', 'orgs']) expect(run.stdout).toContain(command);
  });

  it('reports an embedded directory without a database as such, and creates nothing there', async () => {
    const directory = join(workDir, 'not-yet');
    // The commands that read or change what is there; `migrate`, `keys create`, `orgs create` and `import` create it.
    const commands = [
      ['status'],
      ['status', '--json'],
      ['keys', 'list'],
      ['keys', 'revoke', '--user', 'me'],
      ['orgs', 'list'],
      ['sessions', 'list', '--user', 'me'],
      ['identities', 'list'],
      ['identities', 'block', 'github:1'],
      ['export', '--user', 'me'],
      ['export', '--user', 'me', '--format', 'markdown', '--out', join(workDir, 'notes')],
    ];
    for (const args of commands) {
      const run = await memsvc(args, { DATABASE_URL: `pglite://${directory}` });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(`no embedded database in ${directory} yet (memsvc migrate or memsvc-server creates one there)`);
    }
    expect(existsSync(directory)).toBe(false);
  });

  it('reports pending migrations without applying them', async () => {
    // A database an older version left: migrated up to its third migration.
    const url = `pglite://${join(workDir, 'older')}`;
    const older = await openDatabase(url);
    await migrateUpTo(older.db as never, KNOWN_MIGRATIONS[2]);
    await older.close();

    const env = { DATABASE_URL: url };
    const pending = KNOWN_MIGRATIONS.slice(3);
    expect(pending[0]).toBe('0004-search-context');
    const status = await memsvc(['status', '--json'], env);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout).pendingMigrations).toEqual(pending);
    // Still the same: status applies nothing.
    expect(JSON.parse((await memsvc(['status', '--json'], env)).stdout).pendingMigrations).toEqual(pending);
    expect((await memsvc(['status'], env)).stdout).toContain(`schema     ${pending.length} pending migration(s): run memsvc migrate`);
  });

  it('creates, migrates and reports an embedded database in a new directory', async () => {
    const directory = join(workDir, 'data');
    const env = { DATABASE_URL: `pglite://${directory}`, EMBEDDING_PROVIDER: 'local' };
    const migrate = await memsvc(['migrate'], env);
    expect(migrate.stderr).toBe('');
    expect(migrate.stdout).toMatch(/applied 0001-initial-schema/);
    expect((await memsvc(['migrate'], env)).stdout).toMatch(/schema is up to date/);

    const status = await memsvc(['status', '--json'], env);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toEqual({
      database: `pglite://${directory}`,
      engine: 'pglite',
      healthy: true,
      pgvector: expect.stringMatching(/^0\.\d+\.\d+$/),
      pendingMigrations: [],
      // status only reads: it never fixes the dimensionality from the shell's environment
      vectorSpace: null,
      hnswIndexes: null,
      memories: { stm: { live: 0, withoutVector: 0 }, ltm: { live: 0, withoutVector: 0 } },
    });
    expect(existsSync(join(directory, 'memsvc.lock'))).toBe(false);
  });

  it(
    verifies('R-PGLITE-SHARED', 'status and keys create work on a directory another process is serving, which sees the new key'),
    async () => {
      const directory = join(workDir, 'served');
      const env = { DATABASE_URL: `pglite://${directory}`, EMBEDDING_PROVIDER: 'local' };
      expect((await memsvc(['migrate'], env)).code).toBe(0);
      const host = await openDatabase(`pglite://${directory}`);
      try {
        expect(host.hosting?.()).toBe(true);
        const status = await memsvc(['status', '--json'], env);
        expect(status.code, status.stderr).toBe(0);
        expect(JSON.parse(status.stdout)).toMatchObject({ healthy: true, pendingMigrations: [] });
        const created = await memsvc(['keys', 'create', '--user', 'alice', '--name', 'while served'], env);
        expect(created.code, created.stderr).toBe(0);
        const keys = await sql<{ n: number }>`SELECT count(*)::int AS n FROM api_keys WHERE name = 'while served'`.execute(host.db);
        expect(keys.rows[0]?.n).toBe(1);
      } finally {
        await host.close();
      }
    },
  );

  it('says when shards have lost their HNSW index (an interrupted reindex) and how to get it back', async () => {
    const directory = join(workDir, 'shards');
    const env = { DATABASE_URL: `pglite://${directory}`, EMBEDDING_PROVIDER: 'local' };
    const importFile = join(workDir, 'one-note.md');
    writeFileSync(importFile, '# Note\n\nThe build runs on Tuesdays.\n');
    expect((await memsvc(['import', '--source', 'markdown', '--path', importFile, '--user', 'me'], env)).code).toBe(0);
    const full = JSON.parse((await memsvc(['status', '--json'], env)).stdout);
    expect(full.hnswIndexes).toEqual({ usable: VECTOR_SHARDS, shards: VECTOR_SHARDS });
    expect((await memsvc(['status'], env)).stdout).toContain(`HNSW index on all ${VECTOR_SHARDS} shards`);

    // What a reindex killed between taking indexes off and building them leaves behind.
    const connection = await openDatabase(`pglite://${directory}`);
    for (const name of HNSW_SHARD_INDEX_NAMES.slice(0, 2)) await sql`DROP INDEX ${sql.id(name)}`.execute(connection.db);
    await connection.close();
    expect(JSON.parse((await memsvc(['status', '--json'], env)).stdout).hnswIndexes).toEqual({
      usable: VECTOR_SHARDS - 2,
      shards: VECTOR_SHARDS,
    });
    expect((await memsvc(['status'], env)).stdout).toMatch(
      new RegExp(`HNSW index on ${VECTOR_SHARDS - 2} of ${VECTOR_SHARDS} shards: the others are searched exactly .* memsvc-reindex`),
    );
  });

  it('keeps a new embedded database’s template in MEMSVC_CACHE_DIR (default ~/.cache/memsvc; none with off)', async () => {
    const create = (database: string, cacheDir: string) =>
      memsvc(['keys', 'create', '--user', 'alice', '--name', 'template check'], {
        DATABASE_URL: `pglite://${join(workDir, database)}`,
        MEMSVC_CACHE_DIR: cacheDir,
      });
    const cache = join(workDir, 'template-cache');
    const first = await create('template-first', cache);
    expect([first.code, first.stderr]).toEqual([0, '']);
    const [template, ...others] = readdirSync(cache);
    expect([template, others]).toEqual([expect.stringMatching(/^pglite-[0-9a-f]{16}\.tar\.gz$/), []]);
    const written = statSync(join(cache, template ?? '')).mtimeMs;
    // The second new database loads it: a database made by initdb would be saved again.
    const second = await create('template-second', cache);
    expect([second.code, second.stderr]).toEqual([0, '']);
    expect(statSync(join(cache, template ?? '')).mtimeMs).toBe(written);

    // Where the others point, as the commands read it (each new database here would be an initdb):
    // empty is unset, the default under HOME (the work directory here); `off` is none at all.
    const templatesOf = async (cacheDir: string) => {
      const check = await memsvc(['config', 'check', '--json'], { DATABASE_URL: 'pglite://memory', MEMSVC_CACHE_DIR: cacheDir });
      expect(check.code).toBe(0);
      return (JSON.parse(check.stdout) as { database: { embeddedTemplates?: unknown } }).database.embeddedTemplates ?? 'none';
    };
    expect(await templatesOf('')).toEqual({ directory: join(workDir, '.cache', 'memsvc') });
    expect(await templatesOf('off')).toBe('none');
  });

  it('exits 2 with every configuration problem named, and no stack trace', async () => {
    const run = await memsvc(['status'], { DEPLOYMENT_PROFILE: 'memory', OLLAMA_URL: 'localhost' });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/DEPLOYMENT_PROFILE: the "memory" profile was removed/);
    expect(run.stderr).toMatch(/DATABASE_URL: is required/);
    expect(run.stderr).toMatch(/OLLAMA_URL: must be a URL/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 1 with a clear message when the database cannot be reached, without the password', async () => {
    const run = await memsvc(['migrate'], { DATABASE_URL: 'postgres://memsvc:topsecret@127.0.0.1:1/memsvc' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /cannot reach PostgreSQL at postgres:\/\/memsvc:\*\*\*\*\*@127\.0\.0\.1:1\/memsvc.*\[DATABASE_UNREACHABLE\]/,
    );
    expect(run.stderr).not.toContain('topsecret');
  });

  it('applies the server boot gate in config check', async () => {
    const run = await memsvc(['config', 'check'], { DATABASE_URL: 'pglite://memory', MCP_TRANSPORT: 'streamable-http' });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/AUTH_REQUIRED: the standard \(multi-tenant\) profile will not serve MCP over streamable-http/);
  });

  it('prints the configuration with secrets redacted', async () => {
    const run = await memsvc(['config', 'check', '--json'], {
      DATABASE_URL: 'pglite://memory',
      MCP_ADMIN_TOKEN: 'very-secret-admin-token',
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).auth.adminToken).toBe('[REDACTED]');
    expect(run.stdout).not.toContain('very-secret-admin-token');
  });

  const pgUrl = inject('pgvectorTestUrl');
  it.skipIf(!pgUrl)('migrates a real PostgreSQL from two processes at once (skipped only without a real PostgreSQL)', async () => {
    const database = await createTestDatabase(pgUrl ?? '', 'memsvc_cli');
    createdDatabases.push(database);
    const url = database.url;
    const [first, second] = await Promise.all([memsvc(['migrate'], { DATABASE_URL: url }), memsvc(['migrate'], { DATABASE_URL: url })]);
    expect([first.code, second.code]).toEqual([0, 0]);
    const outputs = [first.stdout, second.stdout].sort();
    expect(outputs[0]).toMatch(/applied 0001-initial-schema/);
    expect(outputs[1]).toMatch(/schema is up to date/);
  });
});
