import { describe, expect, it } from 'vitest';
import type { SimilarityRules } from '../src/domain/similarity-rules.js';
import { decideWrite } from '../src/domain/similarity-rules.js';
import { comparedTiers, planPromotion, planWrite } from '../src/domain/write-plan.js';
import { type MemoryRecord, writeRules } from '../src/index.js';
import { verifies } from './requirements.js';

const memory = (id: string) => ({ id, tier: 'ltm' }) as MemoryRecord;
const rules = (contradictionPolicy: 'flag' | 'supersede'): SimilarityRules => ({
  duplicateThreshold: 0.97,
  contradictionThreshold: 0.8,
  contradictionThresholdMax: 0.97,
  contradictionPolicy,
});
const contradicting = { exact: undefined, neighbours: [{ memory: memory('older'), similarity: 0.85 }] };

describe('write plans (core decides what a write does; the store applies it)', () => {
  it(verifies('R-CONTRA-FLAG', 'flag: both memories marked contradicted, linked contradicts both ways, audited contradiction-flag'), () => {
    const plan = planWrite(decideWrite(contradicting, rules('flag')));
    expect(plan).toMatchObject({ kind: 'insert', flagNew: true });
    if (plan.kind !== 'insert') throw new Error('expected an insert');
    expect(plan.effects).toEqual([
      {
        neighbour: contradicting.neighbours[0],
        mark: 'contradicted',
        auditAction: 'contradiction-flag',
        links: [
          { from: 'new', rel: 'contradicts' },
          { from: 'existing', rel: 'contradicts' },
        ],
      },
    ]);
  });

  it(verifies('R-CONTRA-SUPERSEDE', 'supersede: the older memory is hidden behind the new one, linked supersedes / superseded-by'), () => {
    const plan = planWrite(decideWrite(contradicting, rules('supersede')));
    expect(plan).toMatchObject({ kind: 'insert', flagNew: false });
    if (plan.kind !== 'insert') throw new Error('expected an insert');
    expect(plan.effects[0]).toMatchObject({
      mark: 'superseded',
      auditAction: 'supersede',
      links: [
        { from: 'new', rel: 'supersedes' },
        { from: 'existing', rel: 'superseded-by' },
      ],
    });
    // Nothing contradicted: a plain insert, nothing marked.
    expect(planWrite(decideWrite({ exact: undefined, neighbours: [] }, rules('flag')))).toMatchObject({ flagNew: false, effects: [] });
  });

  it(
    verifies('R-WRITE-TIERS', 'a short-term note is compared with both tiers; long-term writes and promotions with long-term only'),
    () => {
      expect(comparedTiers({ tier: 'stm' })).toEqual(['stm', 'ltm']);
      expect(comparedTiers({ tier: 'ltm' })).toEqual(['ltm']);
      expect(comparedTiers({ tier: 'stm', promotion: true })).toEqual(['ltm']);
      expect(writeRules(rules('flag')).comparedTiers({ tier: 'stm' })).toEqual(['stm', 'ltm']);
    },
  );

  it(
    verifies(
      'R-PROMOTE-COLLAPSE',
      'a promotion collapses into a long-term duplicate, turns long-term in place otherwise, and leaves a long-term memory alone',
    ),
    () => {
      const duplicate = { exact: memory('lasting'), neighbours: [] };
      expect(planPromotion({ tier: 'stm' }, decideWrite(duplicate, rules('flag')))).toMatchObject({
        kind: 'collapse',
        auditAction: 'promote-collapse',
        decision: { into: { id: 'lasting' } },
      });
      const promoted = planPromotion({ tier: 'stm' }, decideWrite(contradicting, rules('flag')));
      expect(promoted).toMatchObject({ kind: 'promote', auditAction: 'promote', flagPromoted: true });
      expect(planPromotion({ tier: 'ltm' }, decideWrite(duplicate, rules('flag')))).toMatchObject({ kind: 'unchanged' });
      expect(writeRules(rules('supersede')).planPromotion({ tier: 'stm' }, contradicting)).toMatchObject({
        kind: 'promote',
        flagPromoted: false,
      });
    },
  );
});
