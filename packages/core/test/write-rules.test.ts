import { describe, expect, it } from 'vitest';
import { importanceScore, isPruneEligible, isStale } from '../src/domain/importance.js';
import type { SimilarityRules } from '../src/domain/similarity-rules.js';
import { decideWrite } from '../src/domain/similarity-rules.js';
import { type MemoryRecord, writeRules } from '../src/index.js';
import { verifies } from './requirements.js';

const rules: SimilarityRules = {
  duplicateThreshold: 0.97,
  contradictionThreshold: 0.8,
  contradictionThresholdMax: 0.97,
  contradictionPolicy: 'flag',
};
const memory = (id: string) => ({ id }) as MemoryRecord;
const near = (similarity: number, id = `m${similarity}`) => ({ memory: memory(id), similarity });

describe('decideWrite (spec §3.2)', () => {
  it(verifies('R-WRITE-FAST', 'names the lowest band edge, below which every decision is a plain insert'), () => {
    const bound = writeRules(rules);
    expect(bound.plainInsertBelow).toBe(0.8);
    expect(writeRules({ ...rules, duplicateThreshold: 0.75 }).plainInsertBelow).toBe(0.75);
    const justBelow = bound.plainInsertBelow - 1e-9;
    expect(bound.decide({ exact: undefined, neighbours: [near(justBelow), near(0.1)] })).toEqual({
      kind: 'insert',
      contradictions: [],
      policy: 'flag',
      changes: [],
      related: [],
    });
    expect(bound.decide({ exact: undefined, neighbours: [near(bound.plainInsertBelow, 'edge')] })).toMatchObject({
      contradictions: [{ memory: { id: 'edge' } }],
    });
  });

  it(verifies('R-DUP-EXACT', 'collapses into an exact-content match whatever the vectors say'), () => {
    expect(decideWrite({ exact: memory('same'), neighbours: [near(0.1)] }, rules)).toEqual({
      kind: 'collapse',
      into: memory('same'),
      similarity: 1,
      exact: true,
    });
  });

  it(verifies('R-DUP-1', 'collapses at exactly the duplicate threshold, not a hair below'), () => {
    expect(decideWrite({ exact: undefined, neighbours: [near(0.97, 'a')] }, rules)).toMatchObject({
      kind: 'collapse',
      into: { id: 'a' },
      exact: false,
    });
    expect(decideWrite({ exact: undefined, neighbours: [near(0.9699999, 'b')] }, rules)).toMatchObject({
      kind: 'insert',
      contradictions: [{ memory: { id: 'b' } }],
    });
  });

  it(verifies('R-CONTRA-1', 'treats [min, max) as the contradiction band: min included, max excluded'), () => {
    const decision = decideWrite({ exact: undefined, neighbours: [near(0.9, 'in'), near(0.8, 'edge'), near(0.7999999, 'below')] }, rules);
    expect(decision).toMatchObject({ kind: 'insert', policy: 'flag' });
    expect(decision.kind === 'insert' && decision.contradictions.map((n) => n.memory.id)).toEqual(['in', 'edge']);
    const wideBand = { ...rules, contradictionThresholdMax: 0.99 };
    // Never both duplicate and contradiction: at or above the duplicate threshold it collapses.
    expect(decideWrite({ exact: undefined, neighbours: [near(0.98)] }, wideBand).kind).toBe('collapse');
  });

  it(verifies('R-CONTRA-1', 'carries the configured policy'), () => {
    expect(decideWrite({ exact: undefined, neighbours: [near(0.85)] }, { ...rules, contradictionPolicy: 'supersede' })).toMatchObject({
      policy: 'supersede',
    });
  });
});

describe('importance (spec §2.1, §3.2 rule 3)', () => {
  const created = new Date('2026-01-01T00:00:00Z');
  const day = 86_400_000;
  const base = { importance: null, accessCount: 0, pinned: false, createdAt: created, lastAccessedAt: null };

  it(verifies('R-IMPORTANCE', 'halves the recency component every half-life and respects the client importance'), () => {
    expect(importanceScore(base, created, 14)).toBeCloseTo(0.55, 10);
    expect(importanceScore(base, new Date(created.getTime() + 14 * day), 14)).toBeCloseTo(0.2 + 0.175, 10);
    expect(importanceScore({ ...base, importance: 1 }, created, 14)).toBeCloseTo(0.75, 10);
    expect(importanceScore({ ...base, accessCount: 20 }, created, 14)).toBeCloseTo(0.8, 10);
    expect(importanceScore({ ...base, pinned: true }, new Date(created.getTime() + 365 * day), 14)).toBe(0.9);
  });

  it(verifies('R-STALE-PRUNE', 'marks stale at or below the threshold and prunes only old, unpinned, low scores'), () => {
    expect(isStale(0.3, 0.3)).toBe(true);
    expect(isStale(0.3000001, 0.3)).toBe(false);
    const now = new Date(created.getTime() + 31 * day);
    const pruneRules = { pruneScoreThreshold: 0.15, pruneOlderThanDays: 30 };
    expect(isPruneEligible({ pinned: false, createdAt: created }, 0.149, now, pruneRules)).toBe(true);
    expect(isPruneEligible({ pinned: false, createdAt: created }, 0.15, now, pruneRules)).toBe(false);
    expect(isPruneEligible({ pinned: true, createdAt: created }, 0.01, now, pruneRules)).toBe(false);
    expect(isPruneEligible({ pinned: false, createdAt: created }, 0.01, new Date(created.getTime() + 29 * day), pruneRules)).toBe(false);
  });
});
