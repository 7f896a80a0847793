import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toTenantId } from '@memsvc/core';
import { LocalEmbedder } from '@memsvc/embeddings';
import { type MemsvcStore, VECTOR_SHARDS } from '@memsvc/store-pg';
import { sql } from 'kysely';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type {} from '../../../tooling/vitest/postgres-global-setup.ts';
import { createTestDatabase, type TestDatabase } from '../../../tooling/vitest/test-databases.ts';
import { openTestStore } from './support/cli-engines.js';
import { type Run, runExecutable } from './support/run-executable.js';
import { runInProcess } from './support/run-in-process.js';

const bin = fileURLToPath(new URL('../dist/memsvc-reindex.js', import.meta.url));
const workDir = mkdtempSync(join(tmpdir(), 'memsvc-reindex-'));
const createdDatabases: TestDatabase[] = [];
afterAll(async () => {
  rmSync(workDir, { recursive: true, force: true });
  for (const database of createdDatabases.splice(0)) await database.drop();
});

const environment = (databaseUrl: string, extraEnv: Record<string, string>) => ({
  DATABASE_URL: databaseUrl,
  EMBEDDING_PROVIDER: 'local',
  LOG_LEVEL: 'warn',
  ...extraEnv,
});

/** Runs a reindex in this process (stderr is no terminal, so no progress bar). */
function reindex(args: string[], databaseUrl: string, extraEnv: Record<string, string> = {}): Promise<Run> {
  return runInProcess('memsvc-reindex', args, environment(databaseUrl, extraEnv), workDir);
}

/** Runs the built executable as an operator would. */
function reindexExecutable(args: string[], databaseUrl: string): Promise<Run> {
  return runExecutable(bin, args, environment(databaseUrl, {}), workDir);
}

const alice = toTenantId('alice');
const bob = toTenantId('bob');
const MEMORIES = 16;

function openLocalModelStore(url: string): Promise<MemsvcStore> {
  return openTestStore({ database: url, vector: { model: 'memsvc-local-v1' } });
}

/** 16 memories of two users written without a vector, as when the provider was down: they need a backfill. */
async function seedWithoutVectors(url: string): Promise<void> {
  const store = await openLocalModelStore(url);
  try {
    for (let i = 0; i < MEMORIES; i++) {
      const tenant = i % 4 === 3 ? bob : alice;
      await store.memories.insertAsGiven(
        tenant,
        { tier: 'ltm', content: `fact ${i}: the deploy window number ${i} is on day ${i % 7}` },
        { id: 'test' },
      );
    }
  } finally {
    await store.close();
  }
}

async function withStore<T>(url: string, use: (store: MemsvcStore) => Promise<T>): Promise<T> {
  const store = await openLocalModelStore(url);
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

async function memoriesWithoutVector(store: MemsvcStore): Promise<number> {
  const result = await sql<{
    count: number;
  }>`SELECT count(*)::int AS count FROM memories WHERE deleted_at IS NULL AND embedding IS NULL`.execute(store.connection.db);
  return result.rows[0]?.count ?? -1;
}

function summaryValue(stdout: string, label: string): string | undefined {
  return new RegExp(`^${label}\\s+(.+)$`, 'm').exec(stdout)?.[1];
}

describe('memsvc-reindex flags', () => {
  it('lists every flag of spec §4.4 with --help', async () => {
    const run = await reindexExecutable(['--help'], 'pglite://memory');
    expect(run.code).toBe(0);
    for (const flag of [
      '--user <user_id>',
      '--batch-size <n>',
      '--regenerate',
      '--recreate',
      '--max <n>',
      '--cursor <memory_id>',
      '--help',
      '--json',
    ]) {
      expect(run.stdout).toContain(flag);
    }
  });

  it.each([
    [['--batch-size', '0'], /--batch-size <n>' argument '0' is invalid\. It must be a whole number from 1 to 1000/],
    [['--batch-size', '1001'], /--batch-size <n>' argument '1001' is invalid/],
    [['--batch-size', 'ten'], /--batch-size <n>' argument 'ten' is invalid/],
    [['--max', '0'], /--max <n>' argument '0' is invalid/],
    [['--cursor', 'not-a-uuid'], /--cursor: cursor must be a memory id .*\[INVALID_INPUT\]/],
    [['--recreate', '--user', 'alice'], /--recreate: recreate rebuilds the whole vector index, so it needs an unscoped full run/],
  ])('refuses %j with exit 2, naming the flag, before opening the database', async (args, message) => {
    const directory = join(workDir, `never-${args.join('')}`);
    const run = await reindex(args, `pglite://${directory}`);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).toBe('');
    // Nothing was touched: the embedded database was not even created.
    expect(existsSync(directory)).toBe(false);
  });
});

const pgUrl = inject('pgvectorTestUrl');
const dialects = [
  { name: 'pglite', skip: false, url: async () => `pglite://${mkdtempSync(join(workDir, 'db-'))}` },
  {
    name: 'postgres (skipped only without a real PostgreSQL)',
    skip: !pgUrl,
    url: async () => {
      const database = await createTestDatabase(pgUrl ?? '', 'memsvc_reindex');
      createdDatabases.push(database);
      return database.url;
    },
  },
];

describe.each(dialects)('memsvc-reindex on $name', ({ skip, url: newDatabase }) => {
  it.skipIf(skip)('backfills in batches, stops at --max with a cursor, and a second run finishes from it', async () => {
    const url = await newDatabase();
    await seedWithoutVectors(url);

    const first = await reindex(['--batch-size', '7', '--max', '10'], url);
    expect(first.stderr).not.toMatch(/error|warn/i);
    expect(first.code).toBe(0);
    expect(summaryValue(first.stdout, 'processed')).toBe('10');
    expect(summaryValue(first.stdout, 'indexed')).toBe('10');
    expect(summaryValue(first.stdout, 'failed')).toBe('0');
    expect(summaryValue(first.stdout, 'rate')).toMatch(/^\d+(\.\d)? memories\/s$/);
    const cursor = summaryValue(first.stdout, 'cursor') ?? '';
    expect(cursor).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(first.stdout).toContain(`continue with: memsvc-reindex --cursor ${cursor} --batch-size 7 --max 10`);
    // Not a terminal: one plain progress line per batch (7, then the 3 left under --max).
    expect(first.stderr.match(/^reindex: processed \d+ .*$/gm)).toEqual([
      expect.stringMatching(/^reindex: processed 7 \([\d.]+\/s\), indexed 7, skipped 0, failed 0$/),
      expect.stringMatching(/^reindex: processed 10 \([\d.]+\/s\), indexed 10, skipped 0, failed 0$/),
    ]);
    expect(await withStore(url, memoriesWithoutVector)).toBe(MEMORIES - 10);

    const second = await reindex(['--batch-size', '7', '--cursor', cursor, '--json'], url);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual({
      processed: MEMORIES - 10,
      indexed: MEMORIES - 10,
      skipped: 0,
      failed: 0,
      cursor: null,
      stoppedBy: 'end',
      elapsedSeconds: expect.any(Number),
      ratePerSecond: expect.any(Number),
      continueWith: null,
    });
    expect(await withStore(url, memoriesWithoutVector)).toBe(0);

    // Everything has a vector by the current model now: a plain run reuses them all.
    const again = await reindex([], url);
    expect(again.code).toBe(0);
    expect(summaryValue(again.stdout, 'skipped')).toBe(String(MEMORIES));
    expect(summaryValue(again.stdout, 'cursor')).toBe('none (reached the end)');
  });

  it.skipIf(skip)(
    '--recreate --regenerate rebuilds the HNSW index with every vector, and nearest-neighbour search still works',
    async () => {
      const url = await newDatabase();
      await seedWithoutVectors(url);

      const run = await reindex(['--recreate', '--regenerate', '--batch-size', '5'], url);
      expect(run.code).toBe(0);
      expect(summaryValue(run.stdout, 'processed')).toBe(String(MEMORIES));
      expect(summaryValue(run.stdout, 'indexed')).toBe(String(MEMORIES));
      expect(run.stdout).not.toContain('continue with');

      await withStore(url, async (store) => {
        const indexes = await sql<{ indexdef: string }>`
        SELECT indexdef FROM pg_indexes WHERE tablename = 'memories' AND indexname LIKE 'memories_embedding_hnsw_s%'`.execute(
          store.connection.db,
        );
        expect(indexes.rows).toHaveLength(VECTOR_SHARDS);
        for (const row of indexes.rows) expect(row.indexdef).toMatch(/USING hnsw/i);
        expect(await memoriesWithoutVector(store)).toBe(0);
        const query = new LocalEmbedder().vectorOf('the deploy window number 5');
        const nearest = await store.memories.nearest(alice, query, 3);
        expect(nearest).toHaveLength(3);
        expect(nearest[0]?.memory.content).toBe('fact 5: the deploy window number 5 is on day 5');
      });
    },
  );

  it.skipIf(skip)('scopes a run to one user with --user', async () => {
    const url = await newDatabase();
    await seedWithoutVectors(url);
    const run = await reindex(['--user', 'bob', '--json'], url);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ processed: MEMORIES / 4, indexed: MEMORIES / 4, cursor: null });
    expect(await withStore(url, memoriesWithoutVector)).toBe(MEMORIES - MEMORIES / 4);
  });
});

describe('memsvc-reindex failures', () => {
  it('exits 1 and says so when the provider gave some memories no vector', async () => {
    const url = `pglite://${mkdtempSync(join(workDir, 'db-'))}`;
    await seedWithoutVectors(url);
    // An Ollama nobody listens on, at the size the database already has.
    const down = { EMBEDDING_PROVIDER: 'ollama', OLLAMA_URL: 'http://127.0.0.1:1', VECTOR_DIMENSIONS: '384', LOG_LEVEL: 'error' };
    const run = await reindex(['--json'], url, down);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ processed: MEMORIES, indexed: 0, failed: MEMORIES, cursor: null });
    expect(run.stderr).toContain(`memsvc-reindex: ${MEMORIES} memories got no vector`);
    expect(await withStore(url, memoriesWithoutVector)).toBe(MEMORIES);
  });

  it("leaves a new database's vector size open when the provider gave no vector, so the right run afterwards succeeds", async () => {
    const url = `pglite://${mkdtempSync(join(workDir, 'db-'))}`;
    const unpinned = async <T>(use: (store: MemsvcStore) => Promise<T>): Promise<T> => {
      const store = await openTestStore({ database: url });
      try {
        return await use(store);
      } finally {
        await store.close();
      }
    };
    await unpinned(async (store) => {
      for (let i = 0; i < MEMORIES; i++) await store.memories.insertAsGiven(alice, { tier: 'ltm', content: `fact ${i}` }, { id: 'test' });
    });
    // The default provider (Ollama, nomic-embed-text: 768 dimensions), with nobody listening.
    const down = await reindex(['--json'], url, { EMBEDDING_PROVIDER: 'ollama', OLLAMA_URL: 'http://127.0.0.1:1', LOG_LEVEL: 'error' });
    expect(down.code).toBe(1);
    expect(JSON.parse(down.stdout)).toMatchObject({ indexed: 0, failed: MEMORIES });
    expect(await unpinned((store) => store.vectorSpace.describe())).toBeUndefined();

    const local = await reindex(['--json'], url);
    expect(local.code).toBe(0);
    expect(JSON.parse(local.stdout)).toMatchObject({ indexed: MEMORIES, failed: 0 });
    expect(await unpinned((store) => store.vectorSpace.describe())).toMatchObject({ dimensions: 384, model: 'memsvc-local-v1' });
  });

  it('after a dimension change refuses a plain run and migrates the vectors with --recreate --regenerate', async () => {
    const url = `pglite://${mkdtempSync(join(workDir, 'db-'))}`;
    await seedWithoutVectors(url);
    expect((await reindex([], url)).code).toBe(0);
    const resized = { VECTOR_DIMENSIONS: '256' };

    const plain = await reindex([], url, resized);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(
      /^memsvc-reindex: this database's vectors were made with memsvc-local-v1, 384 dimensions.*start with EMBEDDING_PROVIDER=local VECTOR_DIMENSIONS=384\..*--recreate --regenerate.*\[DIMENSION_MISMATCH\]$/m,
    );
    expect(plain.stderr).not.toMatch(/\n\s+at /);

    const recreate = await reindex(['--recreate', '--regenerate', '--json'], url, resized);
    expect(recreate.code).toBe(0);
    expect(JSON.parse(recreate.stdout)).toMatchObject({ processed: MEMORIES, indexed: MEMORIES, failed: 0, cursor: null });
    const store = await openTestStore({ database: url, vector: { dimensions: 256 } });
    try {
      expect(await store.vectorSpace.describe()).toMatchObject({ dimensions: 256 });
      expect(await memoriesWithoutVector(store)).toBe(0);
      const nearest = await store.memories.nearest(alice, new LocalEmbedder(256).vectorOf('deploy window number 2'), 1);
      expect(nearest[0]?.memory.content).toBe('fact 2: the deploy window number 2 is on day 2');
    } finally {
      await store.close();
    }
  });

  it('exits 1 with the error and no stack trace when the database cannot be reached', async () => {
    const run = await reindexExecutable([], 'postgres://memsvc:topsecret@127.0.0.1:1/memsvc');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^memsvc-reindex: cannot reach PostgreSQL at .*\[DATABASE_UNREACHABLE\]$/m);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stderr).not.toContain('topsecret');
  });
});
