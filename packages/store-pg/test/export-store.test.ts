import { type CallContext, createMemoryEngine, type ExportQuery, toTenantId } from '@memsvc/core';
import { ManualClock, StaticEmbedder } from '@memsvc/core/testing';
import { readExportPage } from '@memsvc/import-export';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { MemsvcStore } from '../src/index.js';
import { codeOf } from './support/code-of.js';
import { describeEachEngine } from './support/each-engine.js';
import { openTestStore } from './support/open-test-store.js';

const START = '2026-04-01T09:00:00.000Z';
const at = (similarity: number) => [similarity, Math.sqrt(1 - similarity ** 2), 0];
const VECTORS: Record<string, number[]> = {
  'The deploy target is eu-west-1': [1, 0, 0],
  'The deploy target is us-east-1': at(0.9),
  'Alice prefers tea': [0, 0, 1],
  'Alice prefers green tea': [0, Math.sqrt(1 - 0.9 ** 2), 0.9],
  'Release checklist lives in docs/release.md': [0, 1, 0],
  'a note deleted later': [-1, 0, 0],
  'short-lived': [0, -1, 0],
  'still short-term': [0, 0, -1],
};
const context = (tenant: string): CallContext => ({ tenant: toTenantId(tenant), actor: { id: `user:${tenant}` } });
const alice = context('alice');
const bob = context('bob');

const everything: ExportQuery = { includeDeleted: true, includeSuperseded: true, includeAudit: true, includeVectors: true, limit: 100 };

describeEachEngine('export store', (engine) => {
  const clock = new ManualClock(START);
  const embedder = new StaticEmbedder(VECTORS, 'static-test', () => [0, 1, 0]);
  let store: MemsvcStore;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    store = await openTestStore({ database: await engine.freshDatabaseUrl(), clock, vector: { dimensions: 3 } });
    const memories = (policy: 'flag' | 'supersede') =>
      createMemoryEngine({
        store: store.memories,
        embedder,
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
        grants: store.grants,
        erasures: store.erasures,
      });
    const tick = () => clock.advance(1000);
    // A pinned memory with tags, metadata, importance and three versions.
    const pinned = await memories('flag').create(alice, {
      content: 'Release checklist lives in docs/release.md',
      tier: 'ltm',
      scope: 'project:memsvc',
      tags: ['release', 'docs'],
      metadata: { z: 1, a: { y: true, b: [2, 1] } },
      importance: 0.9,
      pinned: true,
      searchContext: 'shipping procedure',
    });
    ids.pinned = pinned.memory.id;
    tick();
    const v2 = await memories('flag').update(alice, ids.pinned, { content: 'Release checklist lives in docs/RELEASE.md' }, 1);
    tick();
    await memories('flag').update(alice, ids.pinned, { tags: ['release'] }, v2.version);
    tick();
    // Supersede: the older one is hidden from default reads, both get links.
    ids.older = (await memories('supersede').create(alice, { content: 'The deploy target is eu-west-1', tier: 'ltm' })).memory.id;
    tick();
    ids.newer = (await memories('supersede').create(alice, { content: 'The deploy target is us-east-1', tier: 'ltm' })).memory.id;
    tick();
    // Flag: both stay visible, marked contradicted.
    ids.tea = (await memories('flag').create(alice, { content: 'Alice prefers tea', tier: 'ltm', scope: 'personal' })).memory.id;
    tick();
    ids.greenTea = (await memories('flag').create(alice, { content: 'Alice prefers green tea', tier: 'ltm', scope: 'personal' })).memory.id;
    tick();
    ids.deleted = (await memories('flag').create(alice, { content: 'a note deleted later', tier: 'ltm', tags: ['tmp'] })).memory.id;
    await memories('flag').delete(alice, ids.deleted);
    tick();
    ids.expired = (await memories('flag').create(alice, { content: 'short-lived', tier: 'stm', ttlSeconds: 60 })).memory.id;
    ids.stm = (
      await memories('flag').create(alice, { content: 'still short-term', tier: 'stm', ttlSeconds: 86_400, tags: ['docs'] })
    ).memory.id;
    ids.bob = (await memories('flag').create(bob, { content: "bob's own memory", tier: 'ltm' })).memory.id;
    clock.advance(120_000); // the 60-second STM has expired
  });
  afterAll(async () => {
    await store?.close();
  });
  beforeEach(() => {
    clock.set(new Date(Date.parse(START) + 3_600_000).toISOString());
  });

  it('reads every stored field of one tenant in id order, with links and audit, never an expired short-term memory', async () => {
    const page = await store.exports.exportPage(alice.tenant, everything);
    const exported = page.memories.map((memory) => memory.id);
    expect(exported).toEqual([...exported].sort());
    expect(new Set(exported)).toEqual(new Set([ids.pinned, ids.older, ids.newer, ids.tea, ids.greenTea, ids.deleted, ids.stm]));
    expect(page.nextCursor).toBeUndefined();

    const byId = new Map(page.memories.map((memory) => [memory.id, memory]));
    expect(byId.get(ids.pinned ?? '')).toMatchObject({
      tier: 'ltm',
      scope: 'project:memsvc',
      content: 'Release checklist lives in docs/RELEASE.md',
      tags: ['release'],
      metadata: { z: 1, a: { y: true, b: [2, 1] } },
      importance: 0.9,
      pinned: true,
      version: 3,
      searchContext: 'shipping procedure',
    });
    expect(byId.get(ids.older ?? '')?.supersededBy).toBe(ids.newer);
    expect(byId.get(ids.tea ?? '')?.contradicted).toBe(true);
    expect(byId.get(ids.greenTea ?? '')?.contradicted).toBe(true);
    expect(byId.get(ids.deleted ?? '')?.deletedAt).toEqual(expect.any(Date));
    expect(byId.get(ids.stm ?? '')?.expiresAt).toEqual(expect.any(Date));
    expect(byId.get(ids.tea ?? '')?.vector).toHaveLength(3);
    expect(byId.get(ids.tea ?? '')?.embeddedAt).toEqual(expect.any(Date));

    expect(page.links.map((link) => [link.sourceMemoryId, link.targetMemoryId, link.rel]).sort()).toEqual(
      [
        [ids.newer, ids.older, 'supersedes'],
        [ids.older, ids.newer, 'superseded-by'],
        [ids.greenTea, ids.tea, 'contradicts'],
        [ids.tea, ids.greenTea, 'contradicts'],
      ].sort(),
    );
    const pinnedAudit = page.audit.filter((entry) => entry.memoryId === ids.pinned);
    expect(pinnedAudit.map((entry) => [entry.action, entry.version])).toEqual([
      ['create', 1],
      ['update', 2],
      ['update', 3],
    ]);
    expect(page.audit.every((entry) => exported.includes(entry.memoryId))).toBe(true);
  });

  it('hides deleted and superseded memories unless asked, reads no vector or audit unless asked', async () => {
    const page = await store.exports.exportPage(alice.tenant, {
      includeDeleted: false,
      includeSuperseded: false,
      includeAudit: false,
      includeVectors: false,
      limit: 100,
    });
    const exported = page.memories.map((memory) => memory.id);
    expect(exported).not.toContain(ids.deleted);
    expect(exported).not.toContain(ids.older);
    expect(exported).toHaveLength(5);
    expect(page.audit).toEqual([]);
    expect(page.memories.every((memory) => memory.vector === undefined)).toBe(true);
  });

  it('filters by tier, exact scope, any of the tags and a createdAt range', async () => {
    const only = async (query: Partial<ExportQuery>) =>
      (await store.exports.exportPage(alice.tenant, { ...everything, ...query })).memories.map((memory) => memory.id).sort();
    expect(await only({ tier: 'stm' })).toEqual([ids.stm]);
    expect(await only({ scope: 'personal' })).toEqual([ids.tea, ids.greenTea].sort());
    expect(await only({ tags: ['docs', 'tmp'] })).toEqual([ids.deleted, ids.stm].sort());
    const start = Date.parse(START);
    expect(await only({ createdFrom: new Date(start + 3000), createdTo: new Date(start + 4000) })).toEqual([ids.older, ids.newer].sort());
  });

  it('pages by a keyset cursor without gaps or repeats, and refuses a cursor it did not issue', async () => {
    const seen: string[] = [];
    let after: string | undefined;
    let pages = 0;
    do {
      const page = await store.exports.exportPage(alice.tenant, { ...everything, limit: 2, after });
      seen.push(...page.memories.map((memory) => memory.id));
      after = page.nextCursor;
      pages += 1;
    } while (after !== undefined);
    expect(pages).toBe(4);
    expect(seen).toEqual((await store.exports.exportPage(alice.tenant, everything)).memories.map((memory) => memory.id));
    expect(await codeOf(store.exports.exportPage(alice.tenant, { ...everything, after: 'nope' }))).toBe('INVALID_INPUT');
  });

  it("never reads another tenant's memories, links or audit rows", async () => {
    const page = await store.exports.exportPage(bob.tenant, everything);
    expect(page.memories.map((memory) => memory.id)).toEqual([ids.bob]);
    expect(page.links).toEqual([]);
    expect(page.audit.every((entry) => entry.memoryId === ids.bob)).toBe(true);
  });

  it('reads a page in three statements, whatever its size (no N+1)', async () => {
    const statements: string[] = [];
    const counting = store.connection.db.withPlugin({
      transformQuery: (args) => {
        statements.push(args.node.kind);
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const { PgExportStore } = await import('../src/export/pg-export-store.js');
    await new PgExportStore({ db: counting, clock }).exportPage(alice.tenant, everything);
    expect(statements).toHaveLength(3);
  });

  it('serialises the same rows to the same bytes twice (R-EXPORT-DETERMINISTIC, through the database)', async () => {
    const first = await readExportPage(
      store.exports,
      alice.tenant,
      { includeDeleted: true, includeSuperseded: true, includeHistory: true, includeAudit: true },
      clock.now(),
    );
    const second = await readExportPage(
      store.exports,
      alice.tenant,
      { includeDeleted: true, includeSuperseded: true, includeHistory: true, includeAudit: true },
      clock.now(),
    );
    expect(second.lines).toEqual(first.lines);
    expect(first.count).toBe(7);
    const pinnedLine = JSON.parse(first.lines.find((line) => line.includes(ids.pinned ?? '')) ?? '{}');
    expect(pinnedLine.history.map((version: { version: number; content: string }) => [version.version, version.content])).toEqual([
      [1, 'Release checklist lives in docs/release.md'],
      [2, 'Release checklist lives in docs/RELEASE.md'],
      [3, 'Release checklist lives in docs/RELEASE.md'],
    ]);
    expect(Object.keys(pinnedLine.metadata)).toEqual(['a', 'z']);
    expect(first.lines.some((line) => line.includes('"userId"') && !line.startsWith('{"format"'))).toBe(false);
    // The database's own rows are untouched by a read.
    const audit = await sql<{ n: number }>`SELECT count(*)::int AS n FROM memory_audit`.execute(store.connection.db);
    expect(audit.rows[0]?.n).toBeGreaterThan(0);
  });
});
