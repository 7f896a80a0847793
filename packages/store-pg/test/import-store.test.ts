import { type CallContext, createMemoryEngine, type TenantId, toTenantId } from '@memsvc/core';
import { ManualClock, StaticEmbedder } from '@memsvc/core/testing';
import { type ExportRequest, importMemsvcFile, readExportPage } from '@memsvc/import-export';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type MemsvcStore, UuidV7Generator } from '../src/index.js';
import { describeEachEngine } from './support/each-engine.js';
import { openTestStore } from './support/open-test-store.js';

const START = '2026-04-01T09:00:00.000Z';
const VECTORS: Record<string, number[]> = {
  'The deploy target is eu-west-1': [1, 0, 0],
  'The deploy target is us-east-1': [0.9, Math.sqrt(1 - 0.81), 0],
  'Alice prefers tea': [0, 0, 1],
  'Alice prefers green tea': [0, Math.sqrt(1 - 0.81), 0.9],
  // Far apart as vectors: the change is found from the words.
  'Nora sits at desk 4B': [Math.SQRT1_2, 0, Math.SQRT1_2],
  'Nora moved to desk 7A': [-Math.SQRT1_2, 0, Math.SQRT1_2],
};
/** Memories seeded in bulk beside the few written through the engine: "a few thousand". */
const BULK = 2500;
const context = (tenant: string): CallContext => ({ tenant: toTenantId(tenant), actor: { id: `user:${tenant}` } });
const alice = context('alice');
const everything: ExportRequest = {
  includeDeleted: true,
  includeSuperseded: true,
  includeHistory: true,
  includeAudit: true,
  includeVectors: true,
  limit: 2000,
};

/** A whole export of one tenant, as the file `memsvc export` writes. */
async function exportFile(store: MemsvcStore, tenant: TenantId, now: Date, request: ExportRequest = everything): Promise<string> {
  const lines: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await readExportPage(store.exports, tenant, { ...request, cursor }, now);
    lines.push(...page.lines);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return `${lines.join('\n')}\n`;
}

/** The file without the header's time and owner: what must survive a round trip byte for byte. */
function withoutHeaderTimeAndOwner(file: string): string {
  const [header = '', ...rest] = file.split('\n');
  const { exportedAt: _time, userId: _owner, ...kept } = JSON.parse(header) as Record<string, unknown>;
  return [JSON.stringify(kept), ...rest].join('\n');
}

async function rowCount(store: MemsvcStore, table: 'memories' | 'memory_links' | 'memory_audit', tenant: string): Promise<number> {
  const result = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)} WHERE user_id = ${tenant}`.execute(
    store.connection.db,
  );
  return result.rows[0]?.n ?? -1;
}

describeEachEngine('import store: the memsvc JSONL round trip', (engine) => {
  const clock = new ManualClock(START);
  let source: MemsvcStore;
  let target: MemsvcStore;
  let fileA = '';

  beforeAll(async () => {
    source = await openTestStore({ database: await engine.freshDatabaseUrl(), clock, vector: { dimensions: 3 } });
    target = await openTestStore({ database: await engine.freshDatabaseUrl(), clock, vector: { dimensions: 3 } });
    const memories = (policy: 'flag' | 'supersede') =>
      createMemoryEngine({
        store: source.memories,
        embedder: new StaticEmbedder(VECTORS, 'static-test', () => [0, 1, 0]),
        clock,
        settings: {
          similarity: {
            duplicateThreshold: 0.97,
            contradictionThreshold: 0.8,
            contradictionThresholdMax: 0.97,
            contradictionPolicy: policy,
          },
          importanceHalfLifeDays: 14,
        },
        grants: source.grants,
        erasures: source.erasures,
      });
    const tick = () => clock.advance(1000);
    // Versions, pin, nested metadata, importance, search context, through the engine.
    const pinned = await memories('flag').create(alice, {
      content: 'Release checklist lives in docs/release.md',
      tier: 'ltm',
      scope: 'project:memsvc',
      tags: ['release', 'docs'],
      metadata: { z: 1, a: { y: true, b: [2, 1], ü: null } },
      importance: 0.9,
      pinned: true,
      searchContext: 'shipping procedure',
    });
    tick();
    const v2 = await memories('flag').update(alice, pinned.memory.id, { content: 'Release checklist lives in docs/RELEASE.md' }, 1);
    tick();
    await memories('flag').update(alice, pinned.memory.id, { tags: ['release'] }, v2.version);
    tick();
    // Supersession (the older one points at the newer one, later in the file) and its links.
    await memories('supersede').create(alice, { content: 'The deploy target is eu-west-1', tier: 'ltm' });
    tick();
    await memories('supersede').create(alice, { content: 'The deploy target is us-east-1', tier: 'ltm' });
    tick();
    // A changed fact: the older one is marked replaced by the newer one, later in the file.
    await memories('flag').create(alice, { content: 'Nora sits at desk 4B', tier: 'ltm' });
    tick();
    await memories('flag').create(alice, { content: 'Nora moved to desk 7A', tier: 'ltm' });
    tick();
    // Contradiction markers and links.
    await memories('flag').create(alice, { content: 'Alice prefers tea', tier: 'ltm', scope: 'personal' });
    tick();
    await memories('flag').create(alice, { content: 'Alice prefers green tea', tier: 'ltm', scope: 'personal' });
    tick();
    const deleted = await memories('flag').create(alice, { content: 'a note deleted later', tier: 'ltm', tags: ['tmp'] });
    await memories('flag').delete(alice, deleted.memory.id);
    tick();
    await memories('flag').create(alice, { content: 'short-lived', tier: 'stm', ttlSeconds: 60 });
    await memories('flag').create(alice, { content: 'still short-term', tier: 'stm', ttlSeconds: 86_400, tags: ['docs'] });
    await memories('flag').create(context('bob'), { content: "bob's own memory", tier: 'ltm' });
    clock.advance(120_000); // the 60-second short-term memory has expired: never exported

    // The bulk: every field the API cannot set directly (stale, access counts, deletion, expiry).
    const ids = new UuidV7Generator();
    const base = Date.parse(START);
    const rows = Array.from({ length: BULK }, (_, i) => {
      const at = new Date(base + i * 1000 + 7);
      const stm = i % 10 === 3;
      return {
        id: ids.next(),
        user_id: 'alice',
        tier: stm ? ('stm' as const) : ('ltm' as const),
        scope: i % 4 === 0 ? null : `project:p${i % 7}`,
        content: `bulk memory ${i}: the ${['cache', 'queue', 'index', 'deploy'][i % 4]} needs ${i % 13} workers — naïve “quotes” 🚀`,
        content_hash: `seed-${i}`,
        tags: i % 5 === 0 ? [] : [`t${i % 5}`, 'bulk'],
        metadata: JSON.stringify({ n: i, nested: { deep: { list: [i, `x${i}`] }, b: i % 2 === 0 }, a: 'first' }),
        importance: i % 3 === 0 ? null : (i % 10) / 10,
        importance_score: (i % 100) / 100,
        access_count: i % 17,
        last_accessed_at: i % 17 === 0 ? null : new Date(base + 5_000_000 + i),
        expires_at: stm ? new Date(base + 400 * 86_400_000) : null,
        pinned: i % 11 === 0,
        stale: i % 9 === 0,
        contradicted: i % 23 === 0,
        deleted_at: i % 29 === 0 ? new Date(base + 6_000_000) : null,
        version: 1 + (i % 4),
        search_context: i % 6 === 0 ? `speaker ${i % 3}` : null,
        created_at: at,
        updated_at: new Date(at.getTime() + (i % 4) * 60_000),
      };
    });
    for (let start = 0; start < rows.length; start += 500) {
      await source.connection.db
        .insertInto('memories')
        .values(rows.slice(start, start + 500))
        .execute();
    }
    fileA = await exportFile(source, alice.tenant, clock.now());
  });
  afterAll(async () => {
    await source?.close();
    await target?.close();
  });

  it('imports an export into an empty database as another tenant, and exports it back byte for byte', async () => {
    const lines = fileA.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(BULK + 6);
    const parsed = lines.slice(1).map((line) => JSON.parse(line) as Record<string, unknown>);
    // The file really exercises every field.
    expect(parsed.some((line) => line.pinned && line.version === 3 && (line.history as unknown[]).length === 3)).toBe(true);
    expect(parsed.some((line) => line.supersededBy !== null)).toBe(true);
    expect(parsed.some((line) => line.replacedBy !== null && line.content === 'Nora sits at desk 4B')).toBe(true);
    expect(parsed.some((line) => line.contradicted && (line.links as unknown[]).length > 0)).toBe(true);
    expect(parsed.some((line) => line.deletedAt !== null)).toBe(true);
    expect(parsed.some((line) => line.stale && (line.accessCount as number) > 0)).toBe(true);
    expect(parsed.some((line) => line.embedding !== null)).toBe(true);
    expect(parsed.some((line) => line.content === 'short-lived')).toBe(false);

    // A dry run first: the counts of the real run, and nothing written.
    const dry = await importMemsvcFile(target.imports, toTenantId('bea'), { path: 'alice.jsonl', content: fileA }, true);
    for (const table of ['memories', 'memory_links', 'memory_audit'] as const) expect(await rowCount(target, table, 'bea')).toBe(0);
    const summary = await importMemsvcFile(target.imports, toTenantId('bea'), { path: 'alice.jsonl', content: fileA }, false);
    expect(summary).toEqual({
      path: 'alice.jsonl',
      parsed: lines.length - 1,
      created: lines.length - 1,
      updated: 0,
      skipped: 0,
      conflicts: 0,
      removed: 0,
      secretsFound: 0,
      failed: 0,
      vectorsDropped: 0,
    });
    expect(dry).toEqual(summary);

    const fileB = await exportFile(target, toTenantId('bea'), clock.now());
    expect(withoutHeaderTimeAndOwner(fileB)).toBe(withoutHeaderTimeAndOwner(fileA));
    expect(JSON.parse(fileB.split('\n')[0] ?? '').userId).toBe('bea');
  });

  it('rebuilds the derived columns: content hash, full-text and lexical postings, as the write path keeps them', async () => {
    const db = target.connection.db;
    // The bulk rows were seeded with placeholder hashes; the import computed real ones (SHA-256, hex).
    const hashes = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM memories WHERE user_id = 'bea' AND content_hash !~ '^[0-9a-f]{64}$'`.execute(db);
    expect(hashes.rows[0]?.n).toBe(0);
    const corpus = await sql<{
      documents: number;
    }>`SELECT sum(documents)::int AS documents FROM lexical_corpus WHERE user_id = 'bea'`.execute(db);
    const live = await sql<{ n: number }>`SELECT count(*)::int AS n FROM memories WHERE user_id = 'bea' AND deleted_at IS NULL`.execute(db);
    expect(corpus.rows[0]?.documents).toBe(live.rows[0]?.n);
    const postings = await sql<{ n: number }>`SELECT count(DISTINCT memory_id)::int AS n FROM memory_terms WHERE user_id = 'bea'`.execute(
      db,
    );
    expect(postings.rows[0]?.n).toBe(live.rows[0]?.n);
    // Same content, same hash as the write path computed in the source database.
    const sourceHash = await sql<{ content_hash: string }>`
      SELECT content_hash FROM memories WHERE content = 'Alice prefers tea'`.execute(source.connection.db);
    const targetHash = await sql<{ content_hash: string }>`SELECT content_hash FROM memories WHERE content = 'Alice prefers tea'`.execute(
      db,
    );
    expect(targetHash.rows[0]?.content_hash).toBe(sourceHash.rows[0]?.content_hash);
  });

  it('skips every memory on a re-import (idempotent) and writes nothing new', async () => {
    const before = await rowCount(target, 'memory_audit', 'bea');
    const again = await importMemsvcFile(target.imports, toTenantId('bea'), { path: 'alice.jsonl', content: fileA }, false);
    expect(again).toMatchObject({ created: 0, failed: 0, skipped: again.parsed });
    expect(await rowCount(target, 'memory_audit', 'bea')).toBe(before);
  });

  it('a file with a bad line in the middle fails whole, naming the line, and writes none of its memories', async () => {
    const lines = fileA.split('\n');
    lines[1200] = '{"id": not json';
    const failed = await importMemsvcFile(target.imports, toTenantId('cleo'), { path: 'broken.jsonl', content: lines.join('\n') }, false);
    expect(failed).toMatchObject({ created: 0, skipped: 0, failed: lines.length - 2 });
    expect(failed.error).toMatchObject({ code: 'INVALID_INPUT', data: { line: 1201 } });
    expect(await rowCount(target, 'memories', 'cleo')).toBe(0);
  });

  it('an id held by another tenant fails the file with CONFLICT naming it, and nothing of the file is written', async () => {
    const fresh = JSON.parse(fileA.split('\n')[5] ?? '') as Record<string, unknown>;
    const newId = new UuidV7Generator().next();
    const mixed = [fileA.split('\n')[0], JSON.stringify({ ...fresh, id: newId, links: [] }), ...fileA.split('\n').slice(1)].join('\n');
    const result = await importMemsvcFile(target.imports, toTenantId('eve'), { path: 'mixed.jsonl', content: mixed }, false);
    expect(result.error).toMatchObject({ code: 'CONFLICT', data: { field: 'id', id: expect.any(String) } });
    expect(result.error?.message).toMatch(/already exists in another tenant/);
    expect(await rowCount(target, 'memories', 'eve')).toBe(0);
    expect(await target.connection.db.selectFrom('memories').select('id').where('id', '=', newId).execute()).toEqual([]);
  });

  it("gives a database that never held a vector the file's size and model, keeping every vector; a dry run or a refused file leaves it open", async () => {
    const empty = await openTestStore({ database: await engine.freshDatabaseUrl(), clock });
    try {
      expect(await empty.vectorSpace.describe()).toBeUndefined();
      const withVectors = fileA.split('\n').filter((line) => line.includes('"vector"')).length;
      expect(withVectors).toBeGreaterThan(0);

      const dry = await importMemsvcFile(empty.imports, toTenantId('gus'), { path: 'alice.jsonl', content: fileA }, true);
      expect(dry).toMatchObject({ vectorsDropped: 0, failed: 0 });
      const held = await empty.memories.insertAsGiven(toTenantId('hal'), { tier: 'ltm', content: 'held by hal' }, { id: 'test' });
      const line = JSON.parse(fileA.split('\n').find((text) => text.includes('"vector"')) ?? '') as Record<string, unknown>;
      const refused = [fileA.split('\n')[0], JSON.stringify({ ...line, id: held.id, links: [] })].join('\n');
      expect((await importMemsvcFile(empty.imports, toTenantId('gus'), { path: 'r.jsonl', content: refused }, false)).error?.code).toBe(
        'CONFLICT',
      );
      expect(await empty.vectorSpace.describe()).toBeUndefined();

      const summary = await importMemsvcFile(empty.imports, toTenantId('gus'), { path: 'alice.jsonl', content: fileA }, false);
      expect(summary).toMatchObject({ vectorsDropped: 0, failed: 0 });
      expect(await empty.vectorSpace.describe()).toMatchObject({ dimensions: 3, model: 'static-test' });
      const stored = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM memories WHERE user_id = 'gus' AND embedding IS NOT NULL`.execute(empty.connection.db);
      expect(stored.rows[0]?.n).toBe(withVectors);
      const back = await exportFile(empty, toTenantId('gus'), clock.now());
      expect(withoutHeaderTimeAndOwner(back)).toBe(withoutHeaderTimeAndOwner(fileA));
    } finally {
      await empty.close();
    }
  });

  it("fixes a new database's size once when imports and a first write race for it, and every vector of that size is kept", async () => {
    const empty = await openTestStore({ database: await engine.freshDatabaseUrl(), clock });
    try {
      const generator = new UuidV7Generator();
      const [header = '', ...lines] = fileA.trimEnd().split('\n');
      // The same memories under new ids and without links, for a second tenant.
      const copy = [header, ...lines.map((line) => JSON.stringify({ ...JSON.parse(line), id: generator.next(), links: [] }))].join('\n');
      const withVectors = lines.filter((line) => line.includes('"vector"')).length;
      const [first, second] = await Promise.all([
        importMemsvcFile(empty.imports, toTenantId('jo'), { path: 'a.jsonl', content: fileA }, false),
        importMemsvcFile(empty.imports, toTenantId('kim'), { path: 'b.jsonl', content: copy }, false),
        empty.vectorSpace.ensure(3, 'static-test'),
      ]);
      expect([first.failed, first.vectorsDropped, second.failed, second.vectorsDropped]).toEqual([0, 0, 0, 0]);
      expect(await empty.vectorSpace.describe()).toMatchObject({ dimensions: 3 });
      const stored = await sql<{ n: number }>`SELECT count(*)::int AS n FROM memories WHERE embedding IS NOT NULL`.execute(
        empty.connection.db,
      );
      expect(stored.rows[0]?.n).toBe(2 * withVectors);
    } finally {
      await empty.close();
    }
  });

  it('leaves a vector of another size out (a reindex fills it) and says so', async () => {
    const line = JSON.parse(fileA.split('\n').find((text) => text.includes('"vector"')) ?? '') as Record<string, unknown>;
    const file = [
      fileA.split('\n')[0],
      JSON.stringify({ ...line, id: new UuidV7Generator().next(), links: [], embedding: { vector: [1, 0, 0, 0], embeddedAt: null } }),
    ].join('\n');
    const result = await importMemsvcFile(target.imports, toTenantId('finn'), { path: 'v.jsonl', content: file }, false);
    expect(result).toMatchObject({ created: 1, vectorsDropped: 1 });
    const row = await target.connection.db
      .selectFrom('memories')
      .select(['embedding_model', sql<boolean>`embedding IS NULL`.as('no_vector')])
      .where('user_id', '=', 'finn')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ embedding_model: null, no_vector: true });
  });
});
