import { type ImportedMemory, isMemsvcError, type TenantId, toTenantId } from '@memsvc/core';
import { ManualClock, updateMemory } from '@memsvc/core/testing';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type MemsvcDatabase, type MemsvcStore, UuidV7Generator } from '../src/index.js';
import { describeEachEngine } from './support/each-engine.js';
import { importedMemory } from './support/imported-memory.js';
import { openTestStore } from './support/open-test-store.js';

const START = '2026-06-01T09:00:00.000Z';
const SYSTEM = { id: 'system:test' };
const WORDS = ['harbour', 'sunrise', 'deploy', 'staging', 'cache', 'queue', 'painted', 'garden', 'water', 'port', 'release', 'checklist'];
const ids = new UuidV7Generator();

/**
 * Memory texts that exercise every part of the lexical index: repeated words (frequency > 1),
 * a search context (its own frequencies and length), stop words only (no term: no document),
 * a blob token longer than 100 characters (left out), and different lengths (the average moves).
 */
function contentOf(i: number): { content: string; searchContext: string | null } {
  if (i % 17 === 5) return { content: 'the and of it was', searchContext: null };
  const words = Array.from({ length: 3 + (i % 9) }, (_, k) => WORDS[(i * 7 + k * k) % WORDS.length]);
  const blob = i % 23 === 0 ? ` ${'x'.repeat(120)}` : '';
  return {
    content: `${words.join(' ')} number${i % 5}${blob}`,
    searchContext: i % 4 === 0 ? `in reply to ${WORDS[i % WORDS.length]} about ${WORDS[(i + 3) % WORDS.length]}` : null,
  };
}

/** Imported memories in file order; every `deletedEvery`-th one deleted. */
function importedMemories(count: number, options: { deletedEvery?: number } = {}): ImportedMemory[] {
  const base = Date.parse(START);
  return Array.from({ length: count }, (_, i) => {
    const at = new Date(base + i * 1000);
    return importedMemory({
      id: ids.next(),
      ...contentOf(i),
      at,
      deletedAt: options.deletedEvery !== undefined && i % options.deletedEvery === 3 ? at : null,
    });
  });
}

interface Posting {
  readonly memory: number;
  readonly term: string;
  readonly contentFrequency: number;
  readonly contextFrequency: number;
  readonly contentLength: number;
  readonly contextLength: number;
  readonly impact: number;
}

/** A tenant's postings with each memory named by its position in `order` (ids differ between tenants). */
async function postingsOf(db: Kysely<MemsvcDatabase>, tenant: string, order: readonly string[]): Promise<Posting[]> {
  const positions = new Map(order.map((id, index) => [id, index]));
  const rows = await db.selectFrom('memory_terms').selectAll().where('user_id', '=', tenant).execute();
  return rows
    .filter((row) => positions.has(row.memory_id))
    .map((row) => ({
      memory: positions.get(row.memory_id) ?? -1,
      term: row.term,
      contentFrequency: row.content_frequency,
      contextFrequency: row.context_frequency,
      contentLength: row.content_length,
      contextLength: row.context_length,
      impact: row.impact,
    }))
    .sort((a, b) => a.memory - b.memory || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
}

/** The tenant's document frequencies (terms of live memories only) and corpus row. */
async function statisticsOf(db: Kysely<MemsvcDatabase>, tenant: string) {
  const terms = await sql<{ term: string; documents: number }>`
    SELECT term, sum(documents)::int AS documents FROM lexical_terms WHERE user_id = ${tenant}
    GROUP BY term HAVING sum(documents) <> 0 ORDER BY term`.execute(db);
  const corpus = await sql<{ documents: number; content: number; context: number }>`
    SELECT sum(documents)::int AS documents, sum(total_content_length) AS content, sum(total_context_length) AS context
    FROM lexical_corpus WHERE user_id = ${tenant} HAVING count(*) > 0`.execute(db);
  return { terms: terms.rows, corpus: corpus.rows[0] ?? { documents: 0, content: 0, context: 0 } };
}

/** The statistics must be what the postings and memories say (the lexical index test's invariant, one tenant). */
async function expectConsistent(db: Kysely<MemsvcDatabase>, tenant: string): Promise<void> {
  const { terms, corpus } = await statisticsOf(db, tenant);
  const counted = await sql<{ term: string; documents: number }>`
    SELECT term, count(*)::int AS documents FROM memory_terms WHERE user_id = ${tenant} GROUP BY term ORDER BY term`.execute(db);
  expect(terms).toEqual(counted.rows);
  const summed = await sql<{ documents: number; content: number; context: number }>`
    SELECT count(*)::int AS documents, coalesce(sum(content_length), 0)::float8 AS content, coalesce(sum(context_length), 0)::float8 AS context
    FROM (SELECT DISTINCT ON (memory_id) content_length, context_length FROM memory_terms WHERE user_id = ${tenant}) AS one_per_memory`.execute(
    db,
  );
  expect(corpus).toEqual(summed.rows[0]);
  const strays = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM memory_terms t LEFT JOIN memories m ON m.id = t.memory_id
    WHERE t.user_id = ${tenant} AND (m.id IS NULL OR m.deleted_at IS NOT NULL)`.execute(db);
  expect(strays.rows[0]?.n).toBe(0);
  const unposted = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM memories m
    WHERE m.user_id = ${tenant} AND m.deleted_at IS NULL
      AND EXISTS (SELECT 1 FROM memsvc_memory_terms(m.content, m.search_context))
      AND NOT EXISTS (SELECT 1 FROM memory_terms t WHERE t.memory_id = m.id)`.execute(db);
  expect(unposted.rows[0]?.n).toBe(0);
}

/** The normal write path, one memory at a time: the store's insert, whose commit fires the row trigger. */
async function insertOneByOne(store: MemsvcStore, tenant: TenantId, memories: readonly ImportedMemory[]): Promise<string[]> {
  const written: string[] = [];
  for (const memory of memories) {
    const record = await store.memories.insertAsGiven(
      tenant,
      { tier: 'ltm', content: memory.content, searchContext: memory.searchContext },
      SYSTEM,
    );
    written.push(record.id);
  }
  return written;
}

describeEachEngine('import store: the lexical index written in bulk (migration 0012)', (engine) => {
  const clock = new ManualClock(START);
  let store: MemsvcStore;
  let db: Kysely<MemsvcDatabase>;

  beforeAll(async () => {
    store = await openTestStore({ database: await engine.freshDatabaseUrl(), clock, vector: { dimensions: 3 } });
    db = store.connection.db;
  });
  afterAll(async () => {
    await store?.close();
  });

  it('writes the postings, document frequencies and corpus the row trigger writes for the same memories, impacts equal', async () => {
    // Both tenants hold the same earlier memories, so the bulk's running average starts from a
    // corpus that is not empty, as the trigger's does.
    const earlier = importedMemories(25);
    const file = importedMemories(400, { deletedEvery: 29 });
    const bulk = toTenantId('bulk');
    const rows = toTenantId('rows');
    await insertOneByOne(store, bulk, earlier);
    await insertOneByOne(store, rows, earlier);

    const result = await store.imports.importMemories(bulk, file, { dryRun: false });
    expect(result).toEqual({ created: 400, skipped: 0, vectorsDropped: 0 });
    // The row path: the live memories one by one in file order, then the deleted ones, written
    // and deleted (a deleted memory has no postings and leaves no count behind).
    const live = file.filter((memory) => memory.deletedAt === null);
    const deleted = file.filter((memory) => memory.deletedAt !== null);
    const liveIds = await insertOneByOne(store, rows, live);
    for (const id of await insertOneByOne(store, rows, deleted)) await store.memories.softDelete(rows, id, SYSTEM);

    const bulkPostings = await postingsOf(
      db,
      bulk,
      live.map((memory) => memory.id),
    );
    const rowPostings = await postingsOf(db, rows, liveIds);
    expect(bulkPostings.length).toBeGreaterThan(1500);
    expect(bulkPostings.some((posting) => posting.contentFrequency > 1)).toBe(true);
    expect(bulkPostings.some((posting) => posting.contextFrequency > 0)).toBe(true);
    // Equal, impacts included: the same float4 the trigger stores (tolerance: none).
    expect(bulkPostings).toEqual(rowPostings);
    // No posting for a deleted memory, a stop-word-only memory or a blob token.
    expect(
      await postingsOf(
        db,
        bulk,
        deleted.map((memory) => memory.id),
      ),
    ).toEqual([]);
    expect(bulkPostings.some((posting) => posting.term.length > 100)).toBe(false);

    expect(await statisticsOf(db, bulk)).toEqual(await statisticsOf(db, rows));
    const corpus = (await statisticsOf(db, bulk)).corpus;
    const stopWordsOnly = file.filter((memory) => memory.deletedAt === null && memory.content === 'the and of it was').length;
    expect(stopWordsOnly).toBeGreaterThan(0);
    const earlierDocuments = earlier.filter((memory) => memory.content !== 'the and of it was').length;
    expect(corpus.documents).toBe(earlierDocuments + live.length - stopWordsOnly);
    await expectConsistent(db, bulk);
    await expectConsistent(db, rows);
  });

  it('indexes later changes of imported memories with the trigger as usual: update, delete, hard delete', async () => {
    const tenant = toTenantId('later');
    const file = importedMemories(30);
    await store.imports.importMemories(tenant, file, { dryRun: false });
    // The second memory has no search context: its terms after the update are the new content's alone.
    const [second, first, third] = file;
    if (!first || !second || !third || first.searchContext !== null) throw new Error('three memories, the second without context');
    await updateMemory(
      store.memories,
      tenant,
      first.id,
      { content: 'an entirely different lighthouse' },
      { expectedVersion: 1, actor: SYSTEM, action: 'update' },
    );
    await store.memories.softDelete(tenant, second.id, SYSTEM);
    await sql`DELETE FROM memories WHERE id = ${third.id}`.execute(db);
    const terms = await db.selectFrom('memory_terms').select('term').where('memory_id', '=', first.id).execute();
    expect(terms.map((row) => row.term).sort()).toEqual(['differ', 'entir', 'lighthous']);
    await expectConsistent(db, tenant);
    // The bulk mode ended with the file's inserts: an insert after an import is indexed by the trigger.
    const after = await store.memories.insertAsGiven(tenant, { tier: 'ltm', content: 'a lighthouse keeper' }, SYSTEM);
    expect(await db.selectFrom('memory_terms').select('term').where('memory_id', '=', after.id).execute()).toHaveLength(2);
    await expectConsistent(db, tenant);
  });

  it('keeps the statistics consistent when normal writes and another import go into the same tenant meanwhile', async () => {
    const tenant = toTenantId('busy');
    await insertOneByOne(store, tenant, importedMemories(10));
    const files = [importedMemories(1500, { deletedEvery: 31 }), importedMemories(1500)];
    let importing = true;
    const writes = (async () => {
      let written = 0;
      // At least a few, and as many as fit while the imports run (several connections on PostgreSQL).
      while (importing || written < 5) {
        await store.memories.insertAsGiven(tenant, { tier: 'ltm', ...contentOf(written) }, SYSTEM);
        written += 1;
      }
      return written;
    })();
    const imported = await Promise.all(files.map((file) => store.imports.importMemories(tenant, file, { dryRun: false })));
    importing = false;
    const written = await writes;
    expect(imported.map((result) => result.created)).toEqual([1500, 1500]);
    const count = await db
      .selectFrom('memories')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('user_id', '=', tenant)
      .executeTakeFirstOrThrow();
    expect(count.n).toBe(10 + 3000 + written);
    await expectConsistent(db, tenant);
  });

  /** Runs `body` in a transaction on a connection of its own, which stays open until `release()`. */
  function holdTransaction(body: (connection: Kysely<MemsvcDatabase>) => Promise<void>) {
    let holding!: () => void;
    const held = new Promise<void>((resolve) => {
      holding = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const done = db.connection().execute(async (connection) => {
      await sql`BEGIN`.execute(connection);
      await body(connection);
      holding();
      await released;
      await sql`COMMIT`.execute(connection);
    });
    return { held, release, done };
  }

  it.runIf(engine.supportsSecondConnection)(
    'lets an import and a write of a tenant commit while another transaction holds a stripe of its statistics (needs a second connection)',
    async () => {
      const tenant = toTenantId('striped');
      const stripeCount = async () =>
        (await sql<{ n: number }>`SELECT count(*)::int AS n FROM lexical_corpus WHERE user_id = ${tenant}`.execute(db)).rows[0]?.n;
      await store.imports.importMemories(tenant, importedMemories(20), { dryRun: false });
      await store.memories.insertAsGiven(tenant, { tier: 'ltm', content: 'a harbour pilot' }, SYSTEM);
      // One writer at a time: every commit takes the lowest stripe, so the tenant has one.
      expect(await stripeCount()).toBe(1);
      // What the trigger does at commit: take a stripe of the tenant's statistics, held to the end.
      const holder = holdTransaction(async (connection) => {
        await sql`SELECT memsvc_lock_lexical_stripe(${tenant})`.execute(connection);
      });
      await holder.held;
      await store.imports.importMemories(tenant, importedMemories(300), { dryRun: false });
      await store.memories.insertAsGiven(tenant, { tier: 'ltm', content: 'a lighthouse keeper' }, SYSTEM);
      holder.release();
      await holder.done;
      await expectConsistent(db, tenant);
      expect(await stripeCount()).toBe(2);
    },
  );

  it.runIf(engine.supportsSecondConnection)(
    'makes an import and a write wait when every stripe is held, then both go through (needs a second connection)',
    async () => {
      const tenant = toTenantId('all-held');
      await store.imports.importMemories(tenant, importedMemories(20), { dryRun: false });
      const holder = holdTransaction(async (connection) => {
        await sql`INSERT INTO lexical_corpus (user_id, stripe) SELECT ${tenant}, s FROM generate_series(0, 15) AS s ON CONFLICT DO NOTHING`.execute(
          connection,
        );
        await sql`SELECT 1 FROM lexical_corpus WHERE user_id = ${tenant} FOR UPDATE`.execute(connection);
      });
      await holder.held;
      const finished: string[] = [];
      const importing = store.imports.importMemories(tenant, importedMemories(300), { dryRun: false }).then(() => finished.push('import'));
      const writing = store.memories
        .insertAsGiven(tenant, { tier: 'ltm', content: 'a lighthouse keeper' }, SYSTEM)
        .then(() => finished.push('write'));
      const waiting = async () =>
        (
          await sql<{ query: string }>`
            SELECT query FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(db)
        ).rows.map((row) => row.query);
      for (let i = 0; i < 100 && (await waiting()).length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      const queries = await waiting();
      expect(queries.some((query) => query.includes('memsvc_index_memory_terms_bulk'))).toBe(true);
      expect(queries).toHaveLength(2);
      expect(finished).toEqual([]);
      holder.release();
      await Promise.all([holder.done, importing, writing]);
      expect(finished.sort()).toEqual(['import', 'write']);
      await expectConsistent(db, tenant);
    },
  );

  it('leaves the statistics untouched when a file fails: an id of another tenant, or a link id taken inside the write', async () => {
    const tenant = toTenantId('failing');
    await store.imports.importMemories(tenant, importedMemories(50), { dryRun: false });
    const before = {
      statistics: await statisticsOf(db, tenant),
      postings: await db.selectFrom('memory_terms').selectAll().where('user_id', '=', tenant).execute(),
    };

    // Checked before anything is written.
    const [theirs] = importedMemories(1);
    if (!theirs) throw new Error('one memory');
    await store.imports.importMemories(toTenantId('someone-else'), [theirs], { dryRun: false });
    const clashing = [...importedMemories(200), theirs];
    await expect(store.imports.importMemories(tenant, clashing, { dryRun: false })).rejects.toSatisfy((error) =>
      isMemsvcError(error, 'CONFLICT'),
    );
    expect({
      statistics: await statisticsOf(db, tenant),
      postings: await db.selectFrom('memory_terms').selectAll().where('user_id', '=', tenant).execute(),
    }).toEqual(before);

    // Found by the database after the file's memories are in: the transaction rolls back whole.
    const [linked] = importedMemories(1);
    const link = {
      id: ids.next(),
      targetMemoryId: null,
      targetLocator: 'memsvc://memory/gone',
      rel: 'relates-to' as const,
      origin: 'authored' as const,
      score: null,
      note: null,
      metadata: {},
      createdAt: new Date(START),
    };
    if (!linked) throw new Error('one memory');
    await store.imports.importMemories(tenant, [{ ...linked, links: [link] }], { dryRun: false });
    const afterLinked = {
      statistics: await statisticsOf(db, tenant),
      postings: await db.selectFrom('memory_terms').selectAll().where('user_id', '=', tenant).execute(),
    };
    const reusing = importedMemories(200).map((memory, i) => (i === 150 ? { ...memory, links: [link] } : memory));
    await expect(store.imports.importMemories(tenant, reusing, { dryRun: false })).rejects.toSatisfy((error) =>
      isMemsvcError(error, 'CONFLICT'),
    );
    expect({
      statistics: await statisticsOf(db, tenant),
      postings: await db.selectFrom('memory_terms').selectAll().where('user_id', '=', tenant).execute(),
    }).toEqual(afterLinked);
    expect(afterLinked.statistics.corpus.documents).toBe(before.statistics.corpus.documents + 1);
    await expectConsistent(db, tenant);

    // And the bulk mode did not outlive the failed transaction on its connection.
    const after = await store.memories.insertAsGiven(tenant, { tier: 'ltm', content: 'a lighthouse keeper' }, SYSTEM);
    expect(await db.selectFrom('memory_terms').select('term').where('memory_id', '=', after.id).execute()).toHaveLength(2);
    await expectConsistent(db, tenant);
  });
});
