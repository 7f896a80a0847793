import {
  bm25Score,
  bm25TermScore,
  type CallContext,
  createMemoryEngine,
  FUSION_WEIGHTS,
  LEXICAL_RANKING,
  type MemoryEngine,
  type MemoryStore,
  type RecallCandidateQuery,
  toTenantId,
} from '@memsvc/core';
import { ManualClock } from '@memsvc/core/testing';
import { LocalEmbedder } from '@memsvc/embeddings';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { MemsvcDatabase, MemsvcStore } from '../src/index.js';
import { codeOf } from './support/code-of.js';
import { describeEachEngine } from './support/each-engine.js';
import { describeEachStore } from './support/each-store.js';
import { openTestStore } from './support/open-test-store.js';

const context = (tenant: string): CallContext => ({ tenant: toTenantId(tenant), actor: { id: `user:${tenant}` } });
const alice = context('alice');
const bob = context('bob');

/** A recall's candidate query with the full-text list alone (no vector), as the BM25 cases ask it. */
function fullTextQuery(text: string, now: Date, overrides: Partial<RecallCandidateQuery> = {}): RecallCandidateQuery {
  return { text, vector: null, perList: 30, minSimilarity: 0, lexical: LEXICAL_RANKING, filters: {}, now, ...overrides };
}

/** The BM25 score of one memory for a query, or undefined when the full-text list left it out. */
async function lexicalScoreOf(store: Pick<MemoryStore, 'recallCandidates'>, who: CallContext, query: RecallCandidateQuery, id: string) {
  return (await store.recallCandidates(who.tenant, query)).find((candidate) => candidate.memory.id === id)?.lexicalScore;
}

/** The statistics the trigger keeps must equal what the postings say, tenant by tenant. */
async function expectStatisticsMatchPostings(db: Kysely<MemsvcDatabase>): Promise<void> {
  const terms = await sql<{ user_id: string; term: string; documents: number }>`
    SELECT user_id, term, sum(documents)::int AS documents FROM lexical_terms
    GROUP BY user_id, term HAVING sum(documents) <> 0 ORDER BY user_id, term`.execute(db);
  const counted = await sql<{ user_id: string; term: string; documents: number }>`
    SELECT user_id, term, count(*)::int AS documents FROM memory_terms GROUP BY user_id, term ORDER BY user_id, term`.execute(db);
  expect(terms.rows).toEqual(counted.rows);
  const corpus = await sql<{ user_id: string; documents: number; content: number; context: number }>`
    SELECT user_id, sum(documents)::int AS documents, sum(total_content_length)::int AS content, sum(total_context_length)::int AS context
    FROM lexical_corpus GROUP BY user_id HAVING sum(documents) <> 0 ORDER BY user_id`.execute(db);
  const summed = await sql<{ user_id: string; documents: number; content: number; context: number }>`
    SELECT user_id, count(*)::int AS documents, sum(content_length)::int AS content, sum(context_length)::int AS context
    FROM (SELECT DISTINCT ON (memory_id) user_id, content_length, context_length FROM memory_terms) AS one_per_memory
    GROUP BY user_id ORDER BY user_id`.execute(db);
  expect(corpus.rows).toEqual(summed.rows);
  const live = await sql<{ missing: number }>`
    SELECT count(*)::int AS missing FROM memory_terms t LEFT JOIN memories m ON m.id = t.memory_id
    WHERE m.id IS NULL OR m.deleted_at IS NOT NULL OR m.user_id <> t.user_id`.execute(db);
  expect(live.rows[0]?.missing).toBe(0);
}

describeEachStore('lexical index (BM25 with per-tenant statistics)', (kind) => {
  const clock = new ManualClock('2026-05-01T09:00:00.000Z');
  const embedder = new LocalEmbedder();
  const store = kind.use({
    clock,
    dimensions: embedder.dimensions,
    checkLexicalIndex: (opened) => expectStatisticsMatchPostings(opened.connection.db),
  });
  let memories: MemoryEngine;
  const lexicalQuery = (text: string, overrides: Partial<RecallCandidateQuery> = {}) => fullTextQuery(text, clock.now(), overrides);
  const scoreOf = (who: CallContext, text: string, id: string) => lexicalScoreOf(store.memories, who, lexicalQuery(text), id);

  beforeEach(async () => {
    await store.reset();
    memories = createMemoryEngine({
      store: store.memories,
      embedder,
      clock,
      fusion: FUSION_WEIGHTS.local,
      grants: store.grants,
      erasures: store.erasures,
    });
  });

  it('changes a term’s weight when the tenant’s corpus changes, and not when another tenant’s does', async () => {
    const target = await memories.create(alice, { tier: 'ltm', content: 'Melanie painted a sunrise over the harbour' });
    await memories.create(alice, { tier: 'ltm', content: 'The garden needs water' });
    const before = await scoreOf(alice, 'sunrise', target.memory.id);

    for (let i = 0; i < 5; i++) await memories.create(bob, { tier: 'ltm', content: `Bob watched sunrise number ${i} from the roof` });
    expect(await scoreOf(alice, 'sunrise', target.memory.id)).toBeCloseTo(before ?? Number.NaN, 9);

    const other = await memories.create(alice, { tier: 'ltm', content: 'Another sunrise photo, taken in June' });
    const after = await scoreOf(alice, 'sunrise', target.memory.id);
    expect(after).toBeLessThan(before ?? 0);

    await memories.delete(alice, other.memory.id);
    expect(await scoreOf(alice, 'sunrise', target.memory.id)).toBeCloseTo(before ?? Number.NaN, 9);
    await store.checkLexicalIndex();
  });

  it('follows every change of what is searchable: update, delete, restore', async () => {
    const created = await memories.create(alice, { tier: 'ltm', content: 'The staging database listens on port 5433' });
    const id = created.memory.id;
    expect(await scoreOf(alice, 'staging', id)).toBeGreaterThan(0);

    const updated = await memories.update(alice, id, { content: 'The preview database listens on port 5433' }, created.memory.version);
    expect(await scoreOf(alice, 'staging', id)).toBeUndefined();
    expect(await scoreOf(alice, 'preview', id)).toBeGreaterThan(0);
    await store.checkLexicalIndex();

    // A change that touches nothing searchable (an access, a pin) leaves the postings alone.
    await memories.get(alice, id);
    await memories.update(alice, id, { pinned: true }, updated.version);
    expect(await scoreOf(alice, 'preview', id)).toBeGreaterThan(0);

    await memories.delete(alice, id);
    expect(await scoreOf(alice, 'preview', id)).toBeUndefined();
    await store.checkLexicalIndex();
    await memories.restore(alice, id);
    expect(await scoreOf(alice, 'preview', id)).toBeGreaterThan(0);
    await store.checkLexicalIndex();
  });

  it('indexes the search context at contextWeight and never returns it', async () => {
    const ingested = await memories.create(alice, {
      tier: 'ltm',
      content: 'Melanie: It was 5433 in the end',
      searchContext: 'in reply to Caroline: which port does staging use?',
    });
    const plain = await memories.create(alice, { tier: 'ltm', content: 'The staging port is documented in the wiki' });
    const found = [...(await store.memories.recallCandidates(alice.tenant, lexicalQuery('staging port')))].sort(
      (a, b) => (a.lexicalRank ?? 0) - (b.lexicalRank ?? 0),
    );
    expect(found.map((c) => c.memory.id)).toEqual([plain.memory.id, ingested.memory.id]);
    expect(JSON.stringify(found[1]?.memory)).not.toContain('which port');
  });

  it('reads every posting within the budget, and past it at most postingsPerTerm of a term, the best ones', async () => {
    const written = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const padding = Array.from({ length: i }, (_, j) => `filler${j}`).join(' ');
      written.add((await memories.create(alice, { tier: 'ltm', content: `project status ${i} ${padding}` })).memory.id);
    }
    expect(written.size).toBeGreaterThan(10); // near-identical ones collapse as duplicates
    const exact = await store.memories.recallCandidates(alice.tenant, lexicalQuery('project', { perList: 50 }));
    expect(exact).toHaveLength(written.size);
    const bounded = { ...LEXICAL_RANKING, postingBudget: 0, postingsPerTerm: 5 };
    const found = await store.memories.recallCandidates(alice.tenant, lexicalQuery('project', { lexical: bounded }));
    expect(found).toHaveLength(5);
    // The five shortest memories mention "project" with the most weight.
    for (const candidate of found) expect(Number(/status (\d+)/.exec(candidate.memory.content)?.[1])).toBeLessThan(5);
  });

  it('uses the rarest maxQueryTerms terms of a long query', async () => {
    const target = await memories.create(alice, { tier: 'ltm', content: 'zebra crossing near the xylophone shop' });
    await memories.create(alice, { tier: 'ltm', content: 'the crossing near the shop' });
    const oneTerm = { ...LEXICAL_RANKING, maxQueryTerms: 1 };
    const found = await store.memories.recallCandidates(alice.tenant, lexicalQuery('crossing shop zebra', { lexical: oneTerm }));
    expect(found.map((c) => c.memory.id)).toEqual([target.memory.id]);
  });

  it('answers odd queries with a result, never a database error', async () => {
    await memories.create(alice, { tier: 'ltm', content: 'Deploys happen on Tuesday; rollbacks on Wednesday' });
    const queries = [
      'deploys & rollbacks',
      'deploys | !rollbacks',
      'deploy <-> tuesday',
      'deplo:*',
      "'; DROP TABLE memories; --",
      '!!! ??? ...',
      '東京',
      '🚀🔥',
      `${'tuesday '.repeat(255)}x`.slice(0, 2048),
      '\\ \u0000 ( ) : *',
    ];
    for (const query of queries) {
      const { results } = await memories.recall(alice, { query });
      expect(Array.isArray(results)).toBe(true);
    }
    expect((await memories.recall(alice, { query: 'deploys & rollbacks' })).results).toHaveLength(1);
    expect(await codeOf(memories.recall(alice, { query: ' \n\t ' }))).toBe('INVALID_INPUT');
    expect((await memories.recall(context('nobody'), { query: 'deploys' })).results).toEqual([]);
  });
});

describeEachEngine('lexical index on a database', (engine) => {
  let store: MemsvcStore;
  const clock = new ManualClock('2026-05-01T09:00:00.000Z');
  const embedder = new LocalEmbedder();
  let memories: MemoryEngine;
  const db = () => store.connection.db;
  const lexicalQuery = (text: string, overrides: Partial<RecallCandidateQuery> = {}) => fullTextQuery(text, clock.now(), overrides);
  const scoreOf = (who: CallContext, text: string, id: string) => lexicalScoreOf(store.memories, who, lexicalQuery(text), id);

  beforeAll(async () => {
    store = await openTestStore({ database: await engine.freshDatabaseUrl(), clock, vector: { dimensions: embedder.dimensions } });
  });
  afterAll(async () => {
    await store?.close();
  });
  beforeEach(async () => {
    await sql`TRUNCATE memories, memory_audit, memory_links CASCADE`.execute(db());
    memories = createMemoryEngine({
      store: store.memories,
      embedder,
      clock,
      fusion: FUSION_WEIGHTS.local,
      grants: store.grants,
      erasures: store.erasures,
    });
  });

  it('scores exactly as core’s bm25TermScore over the tenant’s statistics', async () => {
    const target = await memories.create(alice, { tier: 'ltm', content: 'The kayak trip to the lake was the best kayak trip' });
    await memories.create(alice, { tier: 'ltm', content: 'Invoices are stored in PostgreSQL' });
    const picnic = await memories.create(alice, { tier: 'ltm', content: 'We packed sandwiches for the lake' });
    // kayak: twice in a 6-term memory, in 1 of 3; lake: once, in 2 of 3 (stop words are not terms).
    const corpus = { documents: 3, averageLength: (6 + 3 + 3) / 3 };
    const posting = (contentFrequency: number, contentLength: number, documentFrequency: number) => ({
      contentFrequency,
      contextFrequency: 0,
      contentLength,
      contextLength: 0,
      documentFrequency,
    });
    expect(await scoreOf(alice, 'kayak lake', target.memory.id)).toBeCloseTo(bm25Score([posting(2, 6, 1), posting(1, 6, 2)], 2, corpus), 5);
    // One of the two query terms: its BM25 score (coordination is off by default) …
    expect(await scoreOf(alice, 'kayak lake', picnic.memory.id)).toBeCloseTo(bm25TermScore(posting(1, 3, 2), corpus), 5);
    // … and with coordination set, times the factor (1/2)^0.5, in SQL as in core.
    const coordinated = { ...LEXICAL_RANKING, coordination: 0.5 };
    const half = bm25Score([posting(1, 3, 2)], 2, corpus, coordinated);
    expect(half).toBeCloseTo(bm25TermScore(posting(1, 3, 2), corpus) * Math.SQRT1_2, 12);
    expect(await lexicalScoreOf(store.memories, alice, lexicalQuery('kayak lake', { lexical: coordinated }), picnic.memory.id)).toBeCloseTo(
      half,
      5,
    );
    await expectStatisticsMatchPostings(db());
  });

  it('follows the changes only SQL can make: a purge and TRUNCATE', async () => {
    const { memory } = await memories.create(alice, { tier: 'ltm', content: 'The preview database listens on port 5433' });
    const id = memory.id;
    expect(await scoreOf(alice, 'preview', id)).toBeGreaterThan(0);
    await db().deleteFrom('memories').where('id', '=', id).execute();
    expect(await scoreOf(alice, 'preview', id)).toBeUndefined();
    await expectStatisticsMatchPostings(db());

    await memories.create(alice, { tier: 'ltm', content: 'one more fact about ports' });
    await sql`TRUNCATE memories CASCADE`.execute(db());
    const left = await sql<{ n: number }>`
      SELECT (SELECT count(*) FROM memory_terms) + (SELECT count(*) FROM lexical_terms) + (SELECT count(*) FROM lexical_corpus) AS n`.execute(
      db(),
    );
    expect(Number(left.rows[0]?.n)).toBe(0);
  });

  it('keeps the statistics exact under concurrent writers and deletes in one tenant (no deadlock)', async () => {
    const first = await Promise.all(
      Array.from({ length: 12 }, (_, i) => memories.create(alice, { tier: 'ltm', content: `shared words alpha beta gamma note ${i}` })),
    );
    await Promise.all([
      ...Array.from({ length: 24 }, (_, i) =>
        memories.create(i % 2 ? alice : bob, { tier: 'ltm', content: `gamma beta alpha shared words entry ${i} delta${i % 3}` }),
      ),
      ...first.slice(0, 6).map((created) => memories.delete(alice, created.memory.id)),
    ]);
    await expectStatisticsMatchPostings(db());
    const corpus = await sql<{ user_id: string; documents: number }>`
      SELECT user_id, sum(documents)::int AS documents FROM lexical_corpus GROUP BY user_id ORDER BY user_id`.execute(db());
    expect(corpus.rows).toEqual([
      { user_id: 'alice', documents: 12 - 6 + 12 },
      { user_id: 'bob', documents: 12 },
    ]);
  });

  it('reads a bounded term’s best postings straight from the impact index', async () => {
    for (let i = 0; i < 40; i++) {
      const padding = Array.from({ length: i }, (_, j) => `filler${j}`).join(' ');
      await memories.create(alice, { tier: 'ltm', content: `project status ${i} ${padding}` });
    }
    // The plan must not hang on when statistics were last gathered: autovacuum analysing the table
    // while it was nearly empty made PostgreSQL read it whole (a fair choice for a few pages). So
    // the postings table gets another tenant's weight (rows with no memory behind them, removed
    // after) and fresh statistics, as a table of many tenants would have.
    await sql`
      INSERT INTO memory_terms (memory_id, user_id, term, content_frequency, context_frequency, content_length, context_length, impact)
      SELECT gen_random_uuid(), 'planner-ballast', 'word' || (n % 500), 1, 0, 10, 0, 1 FROM generate_series(1, 20000) AS n`.execute(db());
    await sql`VACUUM (ANALYZE) memory_terms`.execute(db());
    try {
      const bounded = { ...LEXICAL_RANKING, postingBudget: 0, postingsPerTerm: 5 };
      const plan = await store.memories.explainRecall(alice.tenant, lexicalQuery('project', { lexical: bounded }));
      expect(plan).toMatch(/Index Only Scan using memory_terms_impact_idx on memory_terms posting .* rows=5(\.00)? loops=1\)/);
    } finally {
      await sql`DELETE FROM memory_terms WHERE user_id = 'planner-ballast'`.execute(db());
    }
  });
});
