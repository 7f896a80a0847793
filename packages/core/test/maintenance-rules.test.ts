import { describe, expect, it } from 'vitest';
import { compareCanonical, inMergeBand, mergeClusters } from '../src/domain/corpus-merge.js';
import { decayVerdict, qualifiesForPromotion } from '../src/domain/lifecycle-rules.js';
import { assertCanCancel, assertCanRetry } from '../src/domain/reindex-rules.js';
import { checkReindexRequest, MEMORY_LIMITS, type MemoryRecord, toTenantId } from '../src/index.js';
import { verifies } from './requirements.js';

const now = new Date('2026-06-01T00:00:00Z');
let sequence = 0;
function memory(overrides: Partial<MemoryRecord> = {}): MemoryRecord {
  sequence++;
  return {
    id: `00000000-0000-7000-8000-${String(sequence).padStart(12, '0')}`,
    userId: toTenantId('alice'),
    tier: 'ltm',
    scope: null,
    content: `memory ${sequence}`,
    tags: [],
    metadata: {},
    importance: null,
    importanceScore: 0.5,
    accessCount: 0,
    lastAccessedAt: null,
    expiresAt: null,
    pinned: false,
    stale: false,
    contradicted: false,
    supersededBy: null,
    deletedAt: null,
    version: 1,
    embeddingModel: null,
    hasEmbedding: true,
    createdAt: new Date('2026-05-01T00:00:00Z'),
    updatedAt: new Date('2026-05-01T00:00:00Z'),
    ...overrides,
  };
}
const band = { mergeThreshold: 0.85, duplicateThreshold: 0.97 };
const codeOf = (action: () => unknown) => {
  try {
    action();
    return 'ok';
  } catch (error) {
    return `${(error as { code: string }).code}:${(error as { data: { field?: string } }).data.field ?? ''}`;
  }
};

describe('maintenance rules', () => {
  it(verifies('R-PROMOTE-1', 'promotion needs the access threshold, and the importance threshold when one is set'), () => {
    const rules = { accessThreshold: 3, importanceThreshold: undefined };
    expect(qualifiesForPromotion({ tier: 'stm', accessCount: 2, importanceScore: 1 }, rules)).toBe(false);
    expect(qualifiesForPromotion({ tier: 'stm', accessCount: 3, importanceScore: 0 }, rules)).toBe(true);
    expect(qualifiesForPromotion({ tier: 'ltm', accessCount: 9, importanceScore: 1 }, rules)).toBe(false);
    const strict = { accessThreshold: 3, importanceThreshold: 0.6 };
    expect(qualifiesForPromotion({ tier: 'stm', accessCount: 3, importanceScore: 0.59 }, strict)).toBe(false);
    expect(qualifiesForPromotion({ tier: 'stm', accessCount: 3, importanceScore: 0.6 }, strict)).toBe(true);
  });

  it(verifies('R-DECAY-1', 'the decay verdict: stale at or below the threshold, prune only when old, low and unpinned'), () => {
    const rules = { halfLifeDays: 14, staleScoreThreshold: 0.3, pruneScoreThreshold: 0.15, pruneOlderThanDays: 30 };
    const old = { importance: 0, accessCount: 0, lastAccessedAt: null, createdAt: new Date('2026-03-01T00:00:00Z') };
    expect(decayVerdict({ ...old, pinned: false }, now, rules)).toMatchObject({ stale: true, prune: true });
    expect(decayVerdict({ ...old, pinned: true }, now, rules)).toMatchObject({ stale: false, prune: false, importanceScore: 0.9 });
    const young = { ...old, pinned: false, createdAt: new Date('2026-05-20T00:00:00Z') };
    expect(decayVerdict(young, now, rules).prune).toBe(false); // 12 days old: too young to prune
    expect(decayVerdict({ ...old, importance: 1, pinned: false }, now, rules)).toMatchObject({ prune: false });
  });

  it(verifies('R-MERGE-1', 'the merge band is [merge, duplicate), edges exact'), () => {
    expect(inMergeBand(0.85, band)).toBe(true);
    expect(inMergeBand(0.8499999, band)).toBe(false);
    expect(inMergeBand(0.9699999, band)).toBe(true);
    expect(inMergeBand(0.97, band)).toBe(false);
  });

  it(verifies('R-MERGE-2', 'the canonical memory: importance, then pinned, then newest, then id'), () => {
    const low = memory({ importanceScore: 0.4 });
    const high = memory({ importanceScore: 0.7 });
    const pinned = memory({ importanceScore: 0.7, pinned: true });
    const newer = memory({ importanceScore: 0.7, pinned: true, createdAt: new Date('2026-05-02T00:00:00Z') });
    expect([low, high, pinned, newer].sort(compareCanonical).map((entry) => entry.id)).toEqual([newer.id, pinned.id, high.id, low.id]);
    const [cluster] = mergeClusters(
      [
        { a: low, b: high, similarity: 0.9 },
        { a: high, b: newer, similarity: 0.88 },
      ],
      band,
    );
    expect(cluster?.canonical.id).toBe(newer.id);
    expect(cluster?.losers.map((loser) => loser.memory.id).sort()).toEqual([low.id, high.id].sort());
  });

  it(verifies('R-MERGE-3', 'contradicted, superseded, deleted or short-term memories never merge, nor across tenants or scopes'), () => {
    const base = memory();
    const excluded = [
      memory({ contradicted: true }),
      memory({ supersededBy: base.id }),
      memory({ deletedAt: now }),
      memory({ tier: 'stm' }),
      memory({ userId: toTenantId('bob') }),
      memory({ scope: 'project:x' }),
    ];
    expect(
      mergeClusters(
        excluded.map((other) => ({ a: base, b: other, similarity: 0.9 })),
        band,
      ),
    ).toEqual([]);
    expect(mergeClusters([{ a: base, b: memory(), similarity: 0.9 }], band)).toHaveLength(1);
  });

  it(verifies('R-METADATA-MERGED-TAGS', "a merge's union of tags keeps the tag limit, the canonical memory's tags first"), () => {
    const tagged = (prefix: string, importanceScore: number) =>
      memory({ importanceScore, tags: Array.from({ length: MEMORY_LIMITS.tagsMax }, (_, i) => `${prefix}-${i}`) });
    const canonical = tagged('kept', 0.9);
    const [cluster] = mergeClusters([{ a: tagged('other', 0.5), b: canonical, similarity: 0.9 }], band);
    expect(cluster?.canonical.id).toBe(canonical.id);
    expect(cluster?.unionedTags).toEqual(canonical.tags);
  });

  it(verifies('R-REINDEX-1', 'reindex options are bounded, each error naming its field'), () => {
    expect(codeOf(() => checkReindexRequest({ batchSize: 0 }))).toBe('INVALID_INPUT:batchSize');
    expect(codeOf(() => checkReindexRequest({ batchSize: 1001 }))).toBe('INVALID_INPUT:batchSize');
    expect(codeOf(() => checkReindexRequest({ batchSize: 2.5 }))).toBe('INVALID_INPUT:batchSize');
    expect(codeOf(() => checkReindexRequest({ batchSize: 1 }))).toBe('ok');
    expect(codeOf(() => checkReindexRequest({ batchSize: 1000 }))).toBe('ok');
    expect(codeOf(() => checkReindexRequest({ cursor: 'abc' }))).toBe('INVALID_INPUT:cursor');
    expect(codeOf(() => checkReindexRequest({ maxMemories: 0 }))).toBe('INVALID_INPUT:maxMemories');
    expect(codeOf(() => checkReindexRequest({ userId: 'bad user' }))).toBe('INVALID_INPUT:userId');
    expect(checkReindexRequest({})).toMatchObject({ batchSize: 100, reuseExistingEmbeddings: true, recreate: false });
  });

  it(verifies('R-REINDEX-2', 'recreate only on an unscoped full run'), () => {
    expect(codeOf(() => checkReindexRequest({ recreate: true }))).toBe('ok');
    for (const scoped of [{ userId: 'alice' }, { cursor: '00000000-0000-7000-8000-000000000001' }, { maxMemories: 5 }]) {
      expect(codeOf(() => checkReindexRequest({ recreate: true, ...scoped }))).toBe('INVALID_INPUT:recreate');
    }
  });

  it(verifies('R-JOB-1', 'only queued or running jobs cancel; only failed or cancelled jobs retry'), () => {
    const job = (state: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled') => ({ jobId: 'j', state });
    expect(
      ['queued', 'running', 'completed', 'failed', 'cancelled'].map((state) => codeOf(() => assertCanCancel(job(state as never)))),
    ).toEqual(['ok', 'ok', 'CONFLICT:', 'CONFLICT:', 'CONFLICT:']);
    expect(
      ['queued', 'running', 'completed', 'failed', 'cancelled'].map((state) => codeOf(() => assertCanRetry(job(state as never)))),
    ).toEqual(['CONFLICT:', 'CONFLICT:', 'CONFLICT:', 'ok', 'ok']);
  });
});
