import { describe, expect, it } from 'vitest';
import {
  FOLLOW_UP_SUPPORT,
  FUSION_WEIGHTS,
  type MemoryRecord,
  type RecallCandidate,
  rankCandidates,
  withFollowUpSupport,
} from '../src/index.js';
import { verifies } from './requirements.js';

const turnOf = (id: string, turn: number) => ({ conversation: { id, turn, chunk: 0, role: 'user' } });
const matched = (matchScore: number, metadata: Record<string, unknown> = {}) => ({ memory: { metadata } as MemoryRecord, matchScore });

describe('follow-up support (a turn lifted by the turns after it)', () => {
  it(verifies('R-RECALL-FOLLOW-UP', 'adds (1 − match) · weight · Σ next turns’ match / distance, for the two turns after'), () => {
    const { weight } = FOLLOW_UP_SUPPORT;
    const scores = withFollowUpSupport([
      matched(0.3, turnOf('c1', 4)),
      matched(0.8, turnOf('c1', 5)),
      matched(0.6, turnOf('c1', 6)),
      matched(0.9, turnOf('c1', 7)),
    ]);
    expect(scores[0]).toBeCloseTo(0.3 + 0.7 * weight * (0.8 + 0.6 / 2), 12);
    expect(scores[1]).toBeCloseTo(0.8 + 0.2 * weight * (0.6 + 0.9 / 2), 12);
    expect(scores[2]).toBeCloseTo(0.6 + 0.4 * weight * 0.9, 12);
    // The last turn has no follow-ups: its own match.
    expect(scores[3]).toBe(0.9);
  });

  it(
    verifies(
      'R-RECALL-FOLLOW-UP',
      'never lowers a score, never passes 1, and ignores turns before, other conversations and plain memories',
    ),
    () => {
      const scores = withFollowUpSupport([
        matched(0.2, turnOf('c1', 1)),
        matched(1, turnOf('c1', 0)),
        matched(1, turnOf('c2', 2)),
        matched(1, turnOf('c1', 4)),
        matched(0.5),
        matched(0.99, turnOf('c3', 0)),
        matched(1, turnOf('c3', 1)),
        matched(1, turnOf('c3', 2)),
      ]);
      expect(scores.slice(0, 5)).toEqual([0.2, 1, 1, 1, 0.5]);
      expect(scores[5]).toBeGreaterThan(0.99);
      expect(scores[5]).toBeLessThanOrEqual(1);
    },
  );

  it(verifies('R-RECALL-FOLLOW-UP', 'reads the turn from create_memory metadata too, and counts a chunked turn by its best chunk'), () => {
    const scores = withFollowUpSupport([
      matched(0.4, { conversationId: 'chat-9', turn: 2 }),
      matched(0.2, { conversationId: 'chat-9', turn: 3 }),
      matched(0.7, { conversationId: 'chat-9', turn: 3 }),
    ]);
    expect(scores[0]).toBeCloseTo(0.4 + 0.6 * FOLLOW_UP_SUPPORT.weight * 0.7, 12);
    expect(withFollowUpSupport([matched(0.4, { conversationId: 'chat-9', turn: 2 })], { weight: 0, turns: 2 })).toEqual([0.4]);
  });

  it(verifies('R-RECALL-FOLLOW-UP', 'reorders recall: the answer followed by matching turns passes a slightly better lone match'), () => {
    const now = new Date('2026-05-01T00:00:00Z');
    const candidate = (id: string, lexicalScore: number, metadata: Record<string, unknown>): RecallCandidate => ({
      memory: { id, importanceScore: 0.5, createdAt: now, metadata } as MemoryRecord,
      vectorRank: undefined,
      lexicalRank: 1,
      lexicalScore,
      similarity: undefined,
    });
    const candidates = [candidate('lone', 6, {}), candidate('answer', 5, turnOf('c1', 3)), candidate('follow-up', 8, turnOf('c1', 4))];
    const ranked = rankCandidates(candidates, FUSION_WEIGHTS.disabled, now, 3);
    expect(ranked.map((r) => r.memory.id)).toEqual(['follow-up', 'answer', 'lone']);
    const answer = ranked[1];
    expect(answer?.score).toBeGreaterThan(answer?.matchScore ?? 1);
    expect(ranked[2]?.score).toBe(ranked[2]?.matchScore);
    expect(rankCandidates(candidates, FUSION_WEIGHTS.disabled, now, 3, { weight: 0, turns: 2 }).map((r) => r.memory.id)).toEqual([
      'follow-up',
      'lone',
      'answer',
    ]);
  });
});
